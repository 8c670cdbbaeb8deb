// An approval inside a subagent is in the store's inbox (listPending) with its path, and leaves it
// once answered — also when the subagent then asks again.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent, defineTool, memorySessionStore, type SessionStore } from 'agent-harness';
import { fileSessionStore } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

describe('store.listPending with subagents', () => {
  it.each(['memory', 'file'] as const)('%s store: lists a nested approval, then the next one, then nothing', async (kind) => {
    const dir = mkdtempSync(join(tmpdir(), 'list-pending-'));
    const store: SessionStore = kind === 'memory' ? memorySessionStore() : fileSessionStore({ dir });
    const writes: string[] = [];
    const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ text: z.string() }), kind: 'edit', execute: ({ input }) => (writes.push(input.text), 'ok') });
    const child = scriptedModel([turn(toolCall('write', { text: 'one' }, 'c_one')), turn(toolCall('write', { text: 'two' }, 'c_two')), 'Child done.']);
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('Agent', { description: 'write', prompt: 'write twice', subagent_type: 'writer' }, 'p_agent')), 'Parent done.']),
      tools: [write],
      store,
      agents: { writer: { description: 'w', prompt: 'w', model: child } },
    });
    const first = await agent.run('go').result;
    expect(first.status).toBe('awaiting-approval');
    await agent.flush();
    const listed = async () => (await store.listPending!()).flatMap((session) => session.approvals.map((approval) => ({ id: approval.id, path: approval.path, input: approval.input })));
    expect(await listed()).toEqual([{ id: first.pendingApprovals[0]!.id, path: ['p_agent', 'c_one'], input: { text: 'one' } }]);

    const second = await agent.resolveApproval(first.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
    expect(second.status).toBe('awaiting-approval');
    await agent.flush();
    expect(await listed()).toEqual([{ id: second.pendingApprovals[0]!.id, path: ['p_agent', 'c_two'], input: { text: 'two' } }]);

    const done = await agent.resolveApproval(second.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
    expect(done.status).toBe('completed');
    await agent.flush();
    expect(await listed()).toEqual([]);
    expect(writes).toEqual(['one', 'two']);
    await agent.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
