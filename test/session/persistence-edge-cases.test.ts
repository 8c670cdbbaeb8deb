import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memoryPlanStore, memorySessionStore, SessionConflictError, SessionWriteError, type SessionStore } from 'agent-harness';
import { scriptedModel, toolCall, turn, validateMessagesRequest } from 'agent-harness/testing';

function countingWrite() {
  const runs: string[] = [];
  const tool = defineTool({
    name: 'write',
    description: 'Writes.',
    inputSchema: z.object({ id: z.string() }),
    kind: 'edit',
    execute: ({ input }) => {
      runs.push(input.id);
      return 'ok';
    },
  });
  return { tool, runs };
}

describe('persistence edge cases (found in review)', () => {
  it('a stale snapshot resumed into a store with a newer transcript is refused, naming the fix; nothing runs twice', async () => {
    const store = memorySessionStore();
    const { tool, runs } = countingWrite();
    const model = scriptedModel([turn(toolCall('write', { id: 'a' }, 'w1')), 'done', 'done again']);
    const agent = createAgent({ model, tools: [tool], store });
    const first = await agent.run('go').result;
    const stale = JSON.parse(JSON.stringify(agent.snapshot())); // host keeps this in its DB
    await agent.resolveApproval(first.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
    expect(runs).toEqual(['a']);
    await agent.close();

    // Later another process resumes with the (stale) snapshot and the same store.
    const resumed = createAgent({ model, tools: [tool], store, resume: stale });
    await expect(resumed.ready).rejects.toSatisfy(SessionConflictError.isInstance);
    await expect(resumed.ready).rejects.toThrow(/changed by another writer.*revision.*resume: "/);
    expect((await resumed.run('again').result).status).toBe('error');
    expect(runs).toEqual(['a']);
    const reloaded = createAgent({ model, tools: [tool], store, resume: agent.sessionId });
    await reloaded.ready;
    expect(reloaded.pendingApprovals).toEqual([]);
    expect(validateMessagesRequest([...reloaded.messages, { role: 'user', content: 'x' }])).toBeUndefined();
  });

  it('a store that fails to write ends the run with a SessionWriteError instead of a silent success', async () => {
    const inner = memorySessionStore();
    let failing = false;
    const store: SessionStore = {
      ...inner,
      async append(sessionId, entries, options) {
        if (failing) throw new Error('the session is locked by another writer');
        return inner.append(sessionId, entries, options);
      },
    };
    const model = scriptedModel(['never sent']);
    const agent = createAgent({ model, store });
    await agent.ready;
    failing = true;
    const result = await agent.run('hello').result;
    expect(result.status).toBe('error');
    expect(SessionWriteError.isInstance(result.error)).toBe(true);
    expect(result.error!.message).toMatch(/locked by another writer/);
    expect(model.requests).toEqual([]);
  });

  it('a tool does not run when the message that asked for it failed to be stored', async () => {
    const inner = memorySessionStore();
    let failNext = false;
    const store: SessionStore = {
      ...inner,
      async append(sessionId, entries, options) {
        if (failNext || entries.some((entry) => entry.kind === 'message' && entry.message.role === 'assistant')) {
          failNext = true;
          throw new Error('disk full');
        }
        return inner.append(sessionId, entries, options);
      },
    };
    const { tool, runs } = countingWrite();
    const agent = createAgent({ model: scriptedModel([turn(toolCall('write', { id: 'a' }, 'w1')), 'done']), tools: [tool], store, canUseTool: () => ({ behavior: 'allow' }) });
    const result = await agent.run('go').result;
    expect(result.status).toBe('error');
    expect(runs).toEqual([]);
  });

  it('a plan approval changes the mode only once the plan is saved: with a failing plan store, nothing writes', async () => {
    const { tool, runs } = countingWrite();
    const planStore = { ...memoryPlanStore(), write: async () => { throw new Error('plan store down'); } };
    const model = scriptedModel([turn(toolCall('ExitPlanMode', { plan: 'Write a.' }, 'p'), toolCall('write', { id: 'a' }, 'w')), 'done']);
    const agent = createAgent({
      model,
      tools: [tool],
      permissionMode: 'plan',
      planStore,
      canUseTool: (name) =>
        name === 'ExitPlanMode'
          ? { behavior: 'allow', updatedPermissions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }] }
          : { behavior: 'allow' },
    });
    await agent.run('plan it').result;
    expect(agent.plan).toBeUndefined();
    expect(runs).toEqual([]);
  });
});
