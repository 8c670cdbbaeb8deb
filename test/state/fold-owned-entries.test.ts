import { describe, expect, it } from 'vitest';
import { createAgent, memorySessionStore, type SessionEntry, type SessionStore } from 'agent-harness';
import { scriptedModel } from 'agent-harness/testing';
import { foldEntries, foldOwnedEntries } from '../../src/state/fold-entries.js';
import { loadTranscript } from '../../src/session/load-entries.js';

/** A session that compacted once: its transcript has a checkpoint past its first entry. */
async function compactedSession(store: SessionStore): Promise<void> {
  const agent = createAgent({ model: scriptedModel(['One.', '<summary>\n## Goal\nA.\n</summary>', 'Two.']), store, sessionId: 's' });
  await agent.run('First.').result;
  expect((await agent.compact()).compacted).toBe(true);
  await agent.run('Second.').result;
  await agent.close();
}

describe('foldOwnedEntries: the checkpoint of entries parsed for one load is taken, not copied', () => {
  it('takes the state of the checkpoint it starts at, where foldEntries copies it; both fold to the same state', async () => {
    const store = memorySessionStore();
    await compactedSession(store);
    const loaded = await loadTranscript(store, 's');
    expect(loaded.owned).toBe(true);
    const checkpoint = [...loaded.entries].reverse().find((entry) => entry.kind === 'checkpoint' && entry.seq > 1) as Extract<SessionEntry, { kind: 'checkpoint' }>;
    const copied = foldEntries(loaded.entries, { sessionId: 's' });
    const taken = foldOwnedEntries(loaded.entries, { sessionId: 's' });
    expect(taken).toEqual(copied);
    expect(copied).not.toBe(checkpoint.state);
    expect(taken).toBe(checkpoint.state);
  });

  it("a host's store that hands over the entries it keeps is not owned: a resumed agent that runs on leaves its checkpoint as stored", async () => {
    const kept = memorySessionStore();
    await compactedSession(kept);
    const entries = (await loadTranscript(kept, 's')).entries;
    // The host's store keeps entry objects and yields them as they are.
    const host: SessionStore = {
      async append(_sessionId, added) {
        entries.push(...structuredClone(added));
      },
      async *load() {
        yield* entries;
      },
      list: async () => ['s'],
      delete: async () => undefined,
    };
    expect((await loadTranscript(host, 's')).owned).toBe(false);
    const stored = JSON.stringify(entries);
    const agent = createAgent({ model: scriptedModel(['Three.', 'Four.']), store: host, resume: 's' });
    await agent.run('Third.').result;
    await agent.run('Fourth.').result;
    await agent.close();
    expect(JSON.stringify(entries.slice(0, JSON.parse(stored).length))).toBe(stored);
    expect(agent.messages.at(-1)).toMatchObject({ role: 'assistant' });
  });
});
