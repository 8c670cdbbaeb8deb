// Attack class: a denial with no words. The host's `resolveApproval` deny, `canUseTool` or a
// PreToolUse hook answers with an empty (or blank) message: the model's error result must still
// say something, because the API refuses `is_error: true` with empty content ("content cannot be
// empty if `is_error` is true") and the history, append-only, is sent on every later request.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type AgentOptions, type ToolResultBlock } from 'agent-harness';
import { scriptedModel, toolCall, turn, validateMessagesRequest } from 'agent-harness/testing';

const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ text: z.string() }), kind: 'edit', execute: () => 'wrote' });
const resultOf = (messages: readonly { role: string; content: unknown }[]) =>
  (messages[2]!.content as ToolResultBlock[]).find((block) => block.tool_use_id === 'toolu_w')!;

describe('attack: a denial with an empty message', () => {
  for (const message of ['', '   ']) {
    it(`resolveApproval deny with ${JSON.stringify(message)}: the model gets a non-empty error result, and the next request is valid`, async () => {
      const model = scriptedModel([turn(toolCall('write', { text: 'x' }, 'toolu_w')), 'ok']);
      const agent = createAgent({ model, tools: [write] });
      const [approval] = (await agent.run('go').result).pendingApprovals;
      const result = await agent.resolveApproval(approval!.id, { behavior: 'deny', message }).result;
      expect(result.status).toBe('completed');
      const answer = resultOf(agent.messages);
      expect(answer.is_error).toBe(true);
      expect(String(answer.content).trim()).not.toBe('');
      expect(validateMessagesRequest(agent.messages)).toBeUndefined();
      expect(validateMessagesRequest(model.requests.at(-1)!.messages)).toBeUndefined();
    });
  }

  const live: Array<[string, Partial<AgentOptions>]> = [
    ['canUseTool', { canUseTool: () => ({ behavior: 'deny', message: '' }) }],
    ['a PreToolUse hook', { hooks: { PreToolUse: [{ hook: () => ({ decision: 'deny', reason: '' }) }] } }],
  ];
  for (const [who, options] of live) {
    it(`${who} denies with an empty message: the model gets a non-empty error result`, async () => {
      const model = scriptedModel([turn(toolCall('write', { text: 'x' }, 'toolu_w')), 'ok']);
      const agent = createAgent({ model, tools: [write], ...options });
      expect((await agent.run('go').result).status).toBe('completed');
      expect(String(resultOf(agent.messages).content).trim()).not.toBe('');
      expect(validateMessagesRequest(agent.messages)).toBeUndefined();
    });
  }

  /** A session stored before the mend: the refusal's words taken out again, as an older build stored them. */
  const oldShape = (snapshot: unknown) => JSON.parse(JSON.stringify(snapshot).replaceAll('The call was not run: it was refused, and no reason was given.', ''));

  it('a snapshot stored with an empty error result in its history: resumed, the next request is valid', async () => {
    const agent = createAgent({ model: scriptedModel([turn(toolCall('write', { text: 'x' }, 'toolu_w')), 'ok']), tools: [write], canUseTool: () => ({ behavior: 'deny', message: '' }) });
    await agent.run('go').result;
    const snapshot = oldShape(agent.snapshot());
    expect(validateMessagesRequest(snapshot.messages)).toMatch(/content cannot be empty/);
    const model = scriptedModel(['Carrying on.']);
    const later = createAgent({ model, tools: [write], resume: snapshot });
    expect((await later.run('go on').result).status).toBe('completed');
    expect(validateMessagesRequest(model.requests[0]!.messages)).toBeUndefined();
  });

  it('a snapshot stored with an empty error result still in its open batch (another call pending): the batch ends valid', async () => {
    const denyFirst = (_name: string, input: unknown) => ((input as { text: string }).text === 'a' ? { behavior: 'deny' as const, message: '' } : { behavior: 'defer' as const });
    const agent = createAgent({ model: scriptedModel([turn(toolCall('write', { text: 'a' }, 'toolu_w'), toolCall('write', { text: 'b' }, 'toolu_b'))]), tools: [write], canUseTool: denyFirst });
    expect((await agent.run('go').result).status).toBe('awaiting-approval');
    const snapshot = oldShape(agent.snapshot());
    expect(JSON.stringify(snapshot.openBatch)).toContain('"content":""');
    const model = scriptedModel(['ok']);
    const later = createAgent({ model, tools: [write], resume: snapshot });
    await later.ready;
    expect((await later.resolveApproval(later.pendingApprovals[0]!.id, { behavior: 'allow' }).result).status).toBe('completed');
    expect(validateMessagesRequest(model.requests[0]!.messages)).toBeUndefined();
  });

  it('the loopback validator refuses an error result with empty content, as the API does', () => {
    const messages = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_w', name: 'write', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_w', content: '', is_error: true }] },
    ];
    expect(validateMessagesRequest(messages as never)).toBe('messages.2.content.0.tool_result: content cannot be empty if `is_error` is true');
  });
});
