// Attack class: "a store that fails to write ends the run with a SessionWriteError, never a silent
// success" for the host's own changes between runs — setTodos, setPermissionMode, savePlan — whose
// entries are written outside any run: the loss must surface, not be followed by a run that
// completes as if the change were stored.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memorySessionStore, SessionWriteError, type Agent, type SessionStore } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

/** A store over a memory store that refuses the next append once `setDown(true)` was called. */
function flakyStore(): { store: SessionStore; setDown: (down: boolean) => void; refused: () => number } {
  const inner = memorySessionStore();
  let down = false;
  let refused = 0;
  const store: SessionStore = {
    append: async (sessionId, entries, options) => {
      if (down) {
        down = false;
        refused++;
        throw new Error('disk full');
      }
      return inner.append(sessionId, entries, options);
    },
    load: (sessionId, options) => inner.load(sessionId, options),
    list: () => inner.list(),
    delete: (sessionId) => inner.delete(sessionId),
  };
  return { store, setDown: (value) => void (down = value), refused: () => refused };
}

const todo = { content: 'Draft the intro', status: 'pending' as const, activeForm: 'Drafting the intro' };

describe('attack: a host change between runs that the store refused', () => {
  it.each([
    ['setTodos', (agent: ReturnType<typeof createAgent>) => agent.setTodos([todo])],
    ['setPermissionMode', (agent: ReturnType<typeof createAgent>) => agent.setPermissionMode('acceptEdits')],
  ] as const)('%s: the next run ends with a SessionWriteError, not a success that a resume would not see', async (_name, change) => {
    const { store, setDown, refused } = flakyStore();
    const agent = createAgent({ model: scriptedModel(['one', 'two']), store });
    expect((await agent.run('first').result).status).toBe('completed');
    setDown(true);
    change(agent);
    const result = await agent.run('second').result;
    expect(refused()).toBe(1);
    expect(result.status).toBe('error');
    expect(SessionWriteError.isInstance(result.error)).toBe(true);
  });

  it('savePlan: rejects with the write error, and the next run does not complete silently', async () => {
    const { store, setDown, refused } = flakyStore();
    const agent = createAgent({ model: scriptedModel(['one', 'two']), store });
    expect((await agent.run('first').result).status).toBe('completed');
    setDown(true);
    await expect(agent.savePlan('1. Draft')).rejects.toSatisfy((error) => SessionWriteError.isInstance(error));
    expect(refused()).toBe(1);
    const result = await agent.run('second').result;
    expect(result.status).toBe('error');
    expect(SessionWriteError.isInstance(result.error)).toBe(true);
  });
});

describe('savePlan waits for its record: never on itself', () => {
  it('called from a tool and from a listener during a run, it resolves and the run completes', async () => {
    let agent: Agent | undefined;
    const saver = defineTool({ name: 'saver', description: 'Saves a plan.', inputSchema: z.object({}), readOnly: true, execute: async () => (await agent!.savePlan('from tool')).name });
    agent = createAgent({ model: scriptedModel([turn(toolCall('saver', {}, 'toolu_save')), 'ok']), tools: [saver], store: memorySessionStore() });
    let fromListener: Promise<unknown> | undefined;
    agent.on('tool-result', () => {
      fromListener ??= agent!.savePlan('from listener');
    });
    expect((await agent.run('go').result).status).toBe('completed');
    await fromListener;
    expect(agent.plan?.text).toBe('from listener');
  });
});
