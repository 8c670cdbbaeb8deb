// Two approvals of one batch, the process stopping after the first answer is stored (at every
// append of that answer's run) and before the second is given: the session resumed from the same
// store still waits on what was not answered, and only the last answer completes it.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memorySessionStore, type SessionStore } from 'agent-harness';
import { fileSessionStore } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { tempDirs } from '../temp-dirs.js';

const tempDir = tempDirs();

/** The store as a process sees it that stops after `appends` more appends: later ones are lost. */
function stoppingAfter(inner: SessionStore, appends: number): SessionStore {
  let left = appends;
  return new Proxy(inner, {
    get(target, key, receiver) {
      if (key !== 'append') return Reflect.get(target, key, receiver);
      return async (...args: Parameters<SessionStore['append']>) => {
        if (left <= 0) throw new Error('the process stopped');
        left--;
        return target.append(...args);
      };
    },
  }) as SessionStore;
}

const stores: Array<[string, () => SessionStore]> = [
  ['memory', () => memorySessionStore()],
  ['file', () => fileSessionStore({ dir: tempDir('ah-two-answers-') })],
];

describe.each(stores)('two answers to one batch with a crash in between (%s store)', (_, makeStore) => {
  it.each([
    ['the first call', 0],
    ['the second call', 1],
  ])('answering %s first: the resumed agent waits on the other until it is answered', async (_label, first) => {
    const executed: string[] = [];
    const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ text: z.string() }), execute: ({ input }) => (executed.push(input.text), `wrote ${input.text}`) });
    // Every point the first answer's run can stop at (its run stores fewer than 12 appends).
    for (let appends = 0; appends < 12; appends++) {
      executed.length = 0;
      const store = makeStore();
      const asked = createAgent({ model: scriptedModel([turn(toolCall('write', { text: 'a' }, 'w1'), toolCall('write', { text: 'b' }, 'w2'))]), tools: [write], store, sessionId: 's' });
      const ids = (await asked.run('Write both.').result).pendingApprovals.map((approval) => approval.id);
      await asked.close();
      const answering = createAgent({ model: scriptedModel([]), tools: [write], store: stoppingAfter(store, appends), resume: 's' });
      await answering.ready;
      await answering.resolveApproval(ids[first]!, { behavior: 'allow' }).result;
      await answering.close();

      const resumed = createAgent({ model: scriptedModel(['Both written.']), tools: [write], store, resume: 's' });
      await resumed.ready;
      const waiting = resumed.pendingApprovals.map((approval) => approval.toolUseId);
      const label = `stopped after ${appends} appends`;
      expect(waiting.length, label).toBeGreaterThan(0);
      const listed = (await store.listPending!()).find((session) => session.sessionId === 's')?.approvals.map((approval) => approval.toolUseId);
      expect(listed, label).toEqual(waiting);
      const continued = await resumed.continue().result;
      expect(continued.status, label).toBe('awaiting-approval');
      expect(continued.pendingApprovals.map((approval) => approval.toolUseId), label).toEqual(waiting);
      // Answer what waits, one at a time: the run completes only with the last answer.
      while (resumed.pendingApprovals.length > 0) {
        const next = resumed.pendingApprovals[0]!;
        const result = await resumed.resolveApproval(next.id, { behavior: 'allow' }).result;
        expect(result.status, label).toBe(resumed.pendingApprovals.length > 0 ? 'awaiting-approval' : 'completed');
      }
      // Nothing ran twice.
      expect(new Set(executed).size, label).toBe(executed.length);
      await resumed.close();
    }
  });
});
