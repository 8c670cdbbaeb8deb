import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, SessionStoreCorruptError } from 'agent-harness';
import { fileSessionStore } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

// A transcript line that reads as JSON but was altered (edited by hand, written by a bug) fails
// loading with a SessionStoreCorruptError naming the entry, never a raw TypeError; the approval
// inbox passes over it, so one damaged session does not take the others' approvals down.
const dir = mkdtempSync(join(tmpdir(), 'altered-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ text: z.string() }), kind: 'edit', execute: () => 'ok' });

async function sessionWithLine(line: Record<string, unknown>): Promise<string> {
  const agent = createAgent({ model: scriptedModel(['Hi.']), store: fileSessionStore({ dir }) });
  await agent.run('One.').result;
  await agent.close();
  const seq = agent.snapshot().revision + 1;
  appendFileSync(join(dir, `${agent.sessionId}.jsonl`), `${JSON.stringify({ $schemaVersion: 2, seq, id: `altered_${seq}`, ...line })}\n`);
  return agent.sessionId;
}

describe('altered transcript entries', () => {
  it.each([
    ['todos that are not a list', { kind: 'todo-update', todos: null }],
    ['a message that is null', { kind: 'message', message: null }],
    ['rules of an unknown list', { kind: 'rules-added', behavior: 'sometimes', rules: ['write'] }],
    ['a pending approval without its approval', { kind: 'approval-pending' }],
    ['a user message without content', { kind: 'message', message: { role: 'user' } }],
    ['a user message whose block is null', { kind: 'message', message: { role: 'user', content: [null] } }],
    ['an assistant message whose tool call has no id', { kind: 'message', message: { role: 'assistant', content: [{ type: 'tool_use', name: 'write', input: {} }] } }],
    ['a message of another role', { kind: 'message', message: { role: 'system', content: 'x' } }],
  ])('%s: resume fails with SessionStoreCorruptError naming the entry', async (_name, line) => {
    const sessionId = await sessionWithLine(line);
    const resumed = createAgent({ model: scriptedModel(['x']), tools: [write], store: fileSessionStore({ dir }), resume: sessionId });
    const error = await resumed.ready.then(() => undefined, (caught: unknown) => caught);
    expect(SessionStoreCorruptError.isInstance(error), String(error)).toBe(true);
    expect((error as SessionStoreCorruptError).location).toMatch(/transcript entry \d+ \(/);
  });

  it("a suspended call whose nested run's state was altered: resume fails with SessionStoreCorruptError naming the entry and the field", async () => {
    const writer = { description: 'Writes.', prompt: 'You write.', model: scriptedModel([turn(toolCall('write', { text: 'x' }, 'toolu_c'))]) };
    const agent = createAgent({ model: scriptedModel([turn(toolCall('Agent', { description: 'd', prompt: 'p', subagent_type: 'writer' }, 'toolu_a'))]), tools: [write], store: fileSessionStore({ dir }), agents: { writer } });
    await agent.run('Go.').result;
    await agent.close();
    expect(agent.pendingApprovals.map((approval) => approval.path)).toEqual([['toolu_a', 'toolu_c']]);
    const file = join(dir, `${agent.sessionId}.jsonl`);
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { kind: string; nested?: { state: { openBatch: { calls: unknown[] } } } });
    const suspended = [...lines].reverse().find((line) => line.kind === 'call-suspended')!;
    suspended.nested!.state.openBatch.calls[0] = null;
    writeFileSync(file, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    const resumed = createAgent({ model: scriptedModel(['x']), tools: [write], store: fileSessionStore({ dir }), agents: { writer }, resume: agent.sessionId });
    const error = await resumed.ready.then(() => undefined, (caught: unknown) => caught);
    expect(SessionStoreCorruptError.isInstance(error), String(error)).toBe(true);
    expect((error as SessionStoreCorruptError).location).toMatch(/transcript entry \d+ \(call-suspended\)/);
    expect((error as Error).message).toContain('nested.state.openBatch.calls[0]');
  });

  it('listPending passes over a damaged session and still lists the others', async () => {
    const store = fileSessionStore({ dir });
    const waiting = createAgent({ model: scriptedModel([turn(toolCall('write', { text: 'x' }, 'toolu_w'))]), tools: [write], store });
    await waiting.run('Write.').result;
    await waiting.close();
    await sessionWithLine({ kind: 'approval-pending' });
    const pending = await store.listPending!();
    expect(pending.map((session) => session.sessionId)).toContain(waiting.sessionId);
  });
});
