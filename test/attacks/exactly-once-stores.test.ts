// Attack class: exactly once across processes. Two agents (standing for two processes, each with
// its own store client) load the same session with the same pending approval and both answer it:
// the stale writer must get SessionConflictError before anything runs, on every store.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createAgent, memorySessionStore, SessionConflictError, type SessionStore } from 'agent-harness';
import { fileSessionStore } from 'agent-harness/node';
import { scriptedModel, toolCall, turn, validateMessagesRequest } from 'agent-harness/testing';
import { counting } from './counting-write.js';
import { loadEntries } from '../../src/session/load-entries.js';
import { serverBackends } from './server-backends.js';

/** Opens a second, independent client on the same backing data (a second process's view). */
interface Backend {
  name: string;
  reachable: boolean;
  open: () => Promise<{ stores: () => SessionStore; cleanup: () => Promise<void> }>;
}

const backends: Backend[] = [
  {
    name: 'file (two store objects on one directory)',
    reachable: true,
    open: async () => {
      const dir = mkdtempSync(join(tmpdir(), 'attack-exactly-once-'));
      return { stores: () => fileSessionStore({ dir }), cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
  ...serverBackends.map((backend) => ({ name: backend.name, reachable: backend.reachable, open: async () => backend.open() })),
];

let cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});
afterAll(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A session waiting on one approval, written through its own store client. */
async function waitingSession(backend: Backend, calls = 1) {
  const opened = await backend.open();
  cleanups.push(opened.cleanup);
  const { runs, tools } = counting();
  const writer = createAgent({
    model: scriptedModel([turn(...Array.from({ length: calls }, (_, index) => toolCall('write', { text: `once-${index}` }, `toolu_w${index}`)))]),
    tools,
    store: opened.stores(),
  });
  await writer.run('write it').result;
  expect(writer.pendingApprovals).toHaveLength(calls);
  const snapshot = JSON.parse(JSON.stringify(writer.snapshot()));
  await writer.close();
  const resume = (script: string[] = ['done', 'done', 'done']) => {
    const model = scriptedModel(script);
    return { agent: createAgent({ model, tools, store: opened.stores(), resume: writer.sessionId }), model };
  };
  return { runs, tools, sessionId: writer.sessionId, snapshot, opened, resume };
}

const allow = { behavior: 'allow' } as const;

describe('attack: exactly once with a memory store', () => {
  it('a second agent on the same session and store in one process is refused before it can answer', async () => {
    const store = memorySessionStore();
    const { runs, tools } = counting();
    const writer = createAgent({ model: scriptedModel([turn(toolCall('write', { text: 'once' }, 'toolu_w'))]), tools, store });
    await writer.run('go').result;
    const second = createAgent({ model: scriptedModel(['x']), tools, store, resume: writer.sessionId });
    await expect(second.ready).rejects.toThrow(/already open in another agent/);
    await writer.resolveApproval(writer.pendingApprovals[0]!.id, allow).result;
    expect(runs).toEqual(['once']);
  });
});

for (const backend of backends) {
  describe.skipIf(!backend.reachable)(`attack: exactly once on ${backend.name}`, () => {
    it('A answers and closes, then the stale B answers the same approval: conflict, ran once', async () => {
      const { runs, resume } = await waitingSession(backend);
      const a = resume();
      const b = resume();
      await Promise.all([a.agent.ready, b.agent.ready]);
      const id = a.agent.pendingApprovals[0]!.id;
      expect(b.agent.pendingApprovals[0]!.id).toBe(id);
      expect((await a.agent.resolveApproval(id, allow).result).status).toBe('completed');
      await a.agent.close();
      const second = await b.agent.resolveApproval(id, allow).result;
      expect(second.status).toBe('error');
      expect(SessionConflictError.isInstance(second.error)).toBe(true);
      expect(runs).toEqual(['once-0']);
      await b.agent.close();
    });

    it('both answer at the same moment: exactly one runs', async () => {
      const { runs, resume } = await waitingSession(backend);
      const a = resume();
      const b = resume();
      await Promise.all([a.agent.ready, b.agent.ready]);
      const id = a.agent.pendingApprovals[0]!.id;
      const results = await Promise.all([a.agent.resolveApproval(id, allow).result, b.agent.resolveApproval(id, allow).result]);
      expect(results.map((result) => result.status).sort()).toEqual(['completed', 'error']);
      expect(runs).toEqual(['once-0']);
      await Promise.all([a.agent.close(), b.agent.close()]);
    });

    it('A denies, B allows later: the call never runs', async () => {
      const { runs, resume } = await waitingSession(backend);
      const a = resume();
      const b = resume();
      await Promise.all([a.agent.ready, b.agent.ready]);
      const id = a.agent.pendingApprovals[0]!.id;
      await a.agent.resolveApproval(id, { behavior: 'deny', message: 'no' }).result;
      await a.agent.close();
      const late = await b.agent.resolveApproval(id, allow).result;
      expect(SessionConflictError.isInstance(late.error)).toBe(true);
      expect(runs).toEqual([]);
      await b.agent.close();
    });

    it('A answers, B (stale) starts a new prompt instead: conflict, nothing sent to its model', async () => {
      const { runs, resume } = await waitingSession(backend);
      const a = resume();
      const b = resume(['never']);
      await Promise.all([a.agent.ready, b.agent.ready]);
      await a.agent.resolveApproval(a.agent.pendingApprovals[0]!.id, allow).result;
      await a.agent.close();
      const stale = await b.agent.run('something else').result;
      expect(stale.status).toBe('error');
      expect(SessionConflictError.isInstance(stale.error)).toBe(true);
      expect(b.model.requests).toEqual([]);
      expect(runs).toEqual(['once-0']);
      await b.agent.close();
    });

    it('after a conflict B reloads: the approval is gone and the history is valid', async () => {
      const { runs, resume } = await waitingSession(backend);
      const a = resume();
      const b = resume();
      await Promise.all([a.agent.ready, b.agent.ready]);
      const id = a.agent.pendingApprovals[0]!.id;
      await a.agent.resolveApproval(id, allow).result;
      await a.agent.close();
      await b.agent.resolveApproval(id, allow).result;
      await b.agent.close();
      const c = resume(['fine']);
      await c.agent.ready;
      expect(c.agent.pendingApprovals).toEqual([]);
      expect(() => c.agent.resolveApproval(id, allow)).toThrow();
      await c.agent.run('next').result;
      expect(validateMessagesRequest(c.model.requests[0]!.messages)).toBeUndefined();
      expect(runs).toEqual(['once-0']);
      await c.agent.close();
    });

    it('two approvals split between A and B: each runs once, the stale one conflicts', async () => {
      const { runs, resume } = await waitingSession(backend, 2);
      const a = resume();
      const b = resume();
      await Promise.all([a.agent.ready, b.agent.ready]);
      const [first, second] = a.agent.pendingApprovals;
      await a.agent.resolveApproval(first!.id, allow).result;
      const late = await b.agent.resolveApproval(second!.id, allow).result;
      expect(late.status).toBe('error');
      // A conflict, or (file store, A still open) the session's lock: either way B ran nothing.
      expect(String(late.error)).toMatch(/changed by another writer|locked/);
      expect(runs).toEqual(['once-0']);
      await a.agent.resolveApproval(second!.id, allow).result;
      expect(runs).toEqual(['once-0', 'once-1']);
      await Promise.all([a.agent.close(), b.agent.close()]);
    });

    it('a stale snapshot resumed into the store after the approval was answered: conflict, ran once', async () => {
      const { runs, resume, snapshot, tools, opened } = await waitingSession(backend);
      const a = resume();
      await a.agent.ready;
      await a.agent.resolveApproval(a.agent.pendingApprovals[0]!.id, allow).result;
      await a.agent.close();
      const replay = createAgent({ model: scriptedModel(['x']), tools, store: opened.stores(), resume: snapshot });
      await expect(replay.ready).rejects.toSatisfy(SessionConflictError.isInstance);
      expect(runs).toEqual(['once-0']);
    });

    it('the session is deleted and written again up to the same revision, then B (who saw the old one) answers: conflict, nothing runs', async () => {
      const { runs, resume, sessionId, tools, opened } = await waitingSession(backend);
      const b = resume();
      await b.agent.ready;
      const revision = (await loadEntries(opened.stores(), sessionId)).length;
      await opened.stores().delete(sessionId);
      // A new session under the same id, waiting on its own approval at the same revision.
      const again = createAgent({ model: scriptedModel([turn(toolCall('write', { text: 'second life' }, 'toolu_w0'))]), tools, store: opened.stores(), sessionId });
      await again.run('write it').result;
      await again.close();
      expect((await loadEntries(opened.stores(), sessionId)).length).toBe(revision);
      const late = await b.agent.resolveApproval(b.agent.pendingApprovals[0]!.id, allow).result;
      expect(late.status).toBe('error');
      expect(SessionConflictError.isInstance(late.error)).toBe(true);
      expect(runs).toEqual([]);
      await b.agent.close();
    });

    it('five agents answer at once: exactly one runs', async () => {
      const { runs, resume } = await waitingSession(backend);
      const agents = Array.from({ length: 5 }, () => resume());
      await Promise.all(agents.map((each) => each.agent.ready));
      const id = agents[0]!.agent.pendingApprovals[0]!.id;
      const results = await Promise.all(agents.map((each) => each.agent.resolveApproval(id, allow).result));
      expect(results.filter((result) => result.status === 'completed')).toHaveLength(1);
      expect(runs).toEqual(['once-0']);
      await Promise.all(agents.map((each) => each.agent.close()));
    });
  });
}
