// Attack class: an approval answered by another process whose createAgent config differs from the
// one that asked (days later, after a deploy). Whatever changed, the answer ends in a clear,
// recorded outcome — the model gets an error result, the run goes on — never a crash, a wedged
// session, or a call run against a check that now refuses it.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, McpConnectionError, memorySessionStore, type AgentOptions, type ToolResultBlock } from 'agent-harness';
import { scriptedModel, toolCall, turn, validateMessagesRequest } from 'agent-harness/testing';
import { createNotesServer, type NotesServerState } from '../mcp/fixtures/notes-server.js';

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

describe("attack: the tool's schema changed since the call was asked", () => {
  it('the stored input no longer fits: the model is told the tool changed, nothing runs, the run goes on', async () => {
    const { runs, write } = fixture();
    const asking = createAgent({ model: scriptedModel([turn(toolCall('write', { text: 'x' }, 'toolu_w'))]), tools: [write()] });
    const [approval] = (await asking.run('go').result).pendingApprovals;
    const changed = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ body: z.string() }), kind: 'edit', execute: () => (runs.push('ran'), 'wrote') });
    const later = createAgent({ model: scriptedModel(['ok']), tools: [changed], resume: JSON.parse(JSON.stringify(asking.snapshot())) });
    const result = await later.resolveApproval(approval!.id, { behavior: 'allow' }).result;
    expect(result.status).toBe('completed');
    expect(runs).toEqual([]);
    expect(resultFor(later.messages, 'toolu_w')!.content).toMatch(/does not fit the tool's schema .*The tool has changed since the call was asked/);
  });
});

describe('attack: an MCP tool\'s approval answered while its server is down', () => {
  async function mcpWaiting() {
    const state: NotesServerState = { notes: [], calls: [], cancelled: false };
    const store = memorySessionStore();
    const asking = createAgent({ model: scriptedModel([turn(toolCall('mcp__notes__append_note', { text: 'once' }, 'toolu_m'))]), store, mcpServers: { notes: { type: 'sdk', server: () => createNotesServer(state) } } });
    expect((await asking.run('go').result).status).toBe('awaiting-approval');
    await asking.close();
    return { state, store, sessionId: asking.sessionId };
  }
  const down = { notes: { type: 'sdk' as const, server: () => Promise.reject(new Error('the notes service is down')) } };

  it('allowing it fails with McpConnectionError naming the server, nothing is claimed or run, and it stays pending until the server is back', async () => {
    const { state, store, sessionId } = await mcpWaiting();
    const claims: string[] = [];
    const claimApproval = ({ approvalId }: { approvalId: string }) => (claims.includes(approvalId) ? false : (claims.push(approvalId), true));
    const model = scriptedModel(['noted']);
    const later = createAgent({ model, store, resume: sessionId, mcpServers: down, claimApproval });
    await later.ready;
    const [approval] = later.pendingApprovals;
    const failed = await later.resolveApproval(approval!.id, { behavior: 'allow' }).result;
    expect(failed.status).toBe('error');
    expect(McpConnectionError.isInstance(failed.error)).toBe(true);
    expect((failed.error as McpConnectionError).server).toBe('notes');
    expect(failed.error!.message).toMatch(/MCP server "notes", which is failed .*still pending: answer it again once the server is connected/);
    expect(claims).toEqual([]);
    expect(model.requests).toHaveLength(0);
    expect(later.pendingApprovals.map((pending) => pending.id)).toEqual([approval!.id]);
    await later.close();

    // Days later, another process with the server back: the same approval runs, once.
    const back = createAgent({ model: scriptedModel(['noted']), store, resume: sessionId, claimApproval, mcpServers: { notes: { type: 'sdk', server: () => createNotesServer(state) } } });
    await back.ready;
    const done = await back.resolveApproval(approval!.id, { behavior: 'allow' }).result;
    expect(done.status).toBe('completed');
    expect(state.notes).toEqual(['once']);
    expect(claims).toEqual([approval!.id]);
    await back.close();
  });

  it('denying it needs no server: the denial is applied', async () => {
    const { state, store, sessionId } = await mcpWaiting();
    const later = createAgent({ model: scriptedModel(['ok']), store, resume: sessionId, mcpServers: down });
    await later.ready;
    const result = await later.resolveApproval(later.pendingApprovals[0]!.id, { behavior: 'deny', message: 'No.' }).result;
    expect(result.status).toBe('completed');
    expect(state.notes).toEqual([]);
    await later.close();
  });

  it('a server left out of the config: the call is answered as a tool that no longer exists (held before)', async () => {
    const { state, store, sessionId } = await mcpWaiting();
    const later = createAgent({ model: scriptedModel(['ok']), store, resume: sessionId });
    await later.ready;
    const result = await later.resolveApproval(later.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
    expect(result.status).toBe('completed');
    expect(resultFor(later.messages, 'toolu_m')!.content).toMatch(/No tool named "mcp__notes__append_note" exists any more/);
    expect(state.notes).toEqual([]);
  });
});
