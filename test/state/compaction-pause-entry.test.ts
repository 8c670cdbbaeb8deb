import { describe, expect, it } from 'vitest';
import { createAgent, foldEntries, memorySessionStore, SessionStoreCorruptError, SnapshotInvalidError, type SessionEntry } from 'agent-harness';
import { scriptedModel } from 'agent-harness/testing';

// The automatic compaction pause is session state, written as `compaction-pause` entries: a
// transcript from before the entry existed folds to an unpaused state, and a damaged value is
// refused naming the entry (transcript) or the field (snapshot).

const entry = (seq: number, draft: object): SessionEntry =>
  ({ $schemaVersion: 2, id: `e${seq}`, parentId: seq === 1 ? null : `e${seq - 1}`, seq, timestamp: '2027-01-01T00:00:00.000Z', sessionId: 's', ...draft }) as SessionEntry;
const prompt = entry(1, { kind: 'message', message: { role: 'user', content: 'Go on.' } });

describe('the compaction-pause entry', () => {
  it('folds: a transcript without it is not paused; the latest entry wins', () => {
    expect(foldEntries([prompt], { sessionId: 's' }).autoCompactionResumesAt).toBeUndefined();
    expect(foldEntries([prompt, entry(2, { kind: 'compaction-pause', resumesAt: 5_000 })], { sessionId: 's' }).autoCompactionResumesAt).toBe(5_000);
    const lifted = foldEntries([prompt, entry(2, { kind: 'compaction-pause', resumesAt: 5_000 }), entry(3, { kind: 'compaction-pause' })], { sessionId: 's' });
    expect(lifted.autoCompactionResumesAt).toBeUndefined();
  });

  it('a damaged resumesAt is refused, naming the entry; in a snapshot, naming the field', async () => {
    for (const resumesAt of ['5000', -1, null]) {
      expect(() => foldEntries([prompt, entry(2, { kind: 'compaction-pause', resumesAt })], { sessionId: 's' })).toThrow(SessionStoreCorruptError);
      const store = memorySessionStore();
      await store.append('s', [prompt, entry(2, { kind: 'compaction-pause', resumesAt })], { expectedRevision: 0 });
      const agent = createAgent({ model: scriptedModel([]), store, resume: 's' });
      await expect(agent.ready).rejects.toThrow(/transcript entry 2 \(compaction-pause\)/);
    }
    const agent = createAgent({ model: scriptedModel(['ok']) });
    await agent.run('Hi.').result;
    const bad = { ...agent.snapshot(), autoCompactionResumesAt: 'soon' };
    expect(() => createAgent({ model: scriptedModel([]), resume: bad as never })).toThrow(SnapshotInvalidError);
    expect(() => createAgent({ model: scriptedModel([]), resume: bad as never })).toThrow(/autoCompactionResumesAt/);
  });
});
