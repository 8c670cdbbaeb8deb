// Attack class: an approval answered by another process whose createAgent config differs from the
// one that asked (days later, after a deploy). Whatever changed, the answer ends in a clear,
// recorded outcome — the model gets an error result, the run goes on — never a crash, a wedged
// session, or a call run against a check that now refuses it.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memorySessionStore, type AgentOptions, type ToolResultBlock } from 'agent-harness';
import { scriptedModel, toolCall, turn, validateMessagesRequest } from 'agent-harness/testing';

function fixture() {
  const runs: unknown[] = [];
  const write = (extra: Record<string, unknown> = {}) =>
    defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ text: z.string() }), kind: 'edit', execute: ({ input }) => (runs.push(input), 'wrote'), ...extra });
  return { runs, write };
}
const agentCall = toolCall('Agent', { description: 'write it', prompt: 'write', subagent_type: 'writer' }, 'p_agent');
const resultFor = (messages: readonly { role: string; content: unknown }[], id: string) =>
  messages.flatMap((message) => (Array.isArray(message.content) ? (message.content as ToolResultBlock[]) : [])).find((block) => block.type === 'tool_result' && block.tool_use_id === id);

/** A session whose subagent waits on the host's answer to its `write`, as a snapshot and in a store. */
async function nestedWaiting() {
  const { runs, write } = fixture();
  const store = memorySessionStore();
  const asking = createAgent({
    model: scriptedModel([turn(agentCall)]),
    tools: [write()],
    store,
    agents: { writer: { description: 'w', prompt: 'w', model: scriptedModel([turn(toolCall('write', { text: 'from the child' }, 'c_write'))]) } },
  });
  expect((await asking.run('go').result).status).toBe('awaiting-approval');
  const snapshot = JSON.parse(JSON.stringify(asking.snapshot()));
  await asking.close();
  return { runs, write, store, snapshot, sessionId: asking.sessionId };
}

describe('attack: a subagent\'s approval answered by an agent made without subagents', () => {
  for (const via of ['snapshot', 'store'] as const) {
    it(`via the ${via}: the Agent call is answered with an error naming the missing tool, the run goes on, nothing runs`, async () => {
      const waiting = await nestedWaiting();
      const model = scriptedModel(['The subagent is gone; carrying on.']);
      // No `agents`: this process has no Agent tool.
      const options: AgentOptions = { model, tools: [waiting.write()], ...(via === 'snapshot' ? { resume: waiting.snapshot } : { store: waiting.store, resume: waiting.sessionId }) };
      const later = createAgent(options);
      await later.ready;
      const [approval] = later.pendingApprovals;
      expect(approval).toMatchObject({ toolName: 'write', path: ['p_agent', 'c_write'] });
      const result = await later.resolveApproval(approval!.id, { behavior: 'allow' }).result;
      expect(result.error).toBeUndefined();
      expect(result.status).toBe('completed');
      expect(waiting.runs).toEqual([]);
      const answer = resultFor(later.messages, 'p_agent')!;
      expect(answer.is_error).toBe(true);
      expect(answer.content).toMatch(/No tool named "Agent" exists any more/);
      expect(validateMessagesRequest(model.requests[0]!.messages)).toBeUndefined();
      expect(later.pendingApprovals).toEqual([]);
    });
  }

  it('the subagent type alone removed: the call is answered naming the type (held before)', async () => {
    const waiting = await nestedWaiting();
    const later = createAgent({ model: scriptedModel(['ok']), tools: [waiting.write()], agents: { other: { description: 'o', prompt: 'o', model: scriptedModel([]) } }, resume: waiting.snapshot });
    const result = await later.resolveApproval(later.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
    expect(result.status).toBe('completed');
    expect(resultFor(later.messages, 'p_agent')!.content).toMatch(/subagent type "writer" no longer exists/);
    expect(waiting.runs).toEqual([]);
  });
});
