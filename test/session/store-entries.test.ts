import { describe, expect, it } from 'vitest';
import { ConfigurationError, createAgent, memorySessionStore, SessionStoreCorruptError, type SessionEntry, type SessionStore } from 'agent-harness';
import { scriptedModel } from 'agent-harness/testing';
import { storeEntries } from '../../src/session/store-entries.js';

// A session store of the host's own whose load() returns something `for await` cannot read fails
// a resume with a ConfigurationError that says what load returned and how to write it, not with
// "TypeError: store.load(...) is not a function or its return value is not async iterable"; one
// that yields something other than an entry object fails it with a SessionStoreCorruptError.

async function storedSession(): Promise<{ inner: ReturnType<typeof memorySessionStore>; sessionId: string; entries: SessionEntry[] }> {
  const inner = memorySessionStore();
  const agent = createAgent({ model: scriptedModel(['Hi.']), store: inner });
  await agent.run('One.').result;
  await agent.close();
  const entries: SessionEntry[] = [];
  for await (const entry of inner.load(agent.sessionId)) entries.push(entry);
  return { inner, sessionId: agent.sessionId, entries };
}

function storeWithLoad(inner: SessionStore, load: (sessionId: string) => unknown): SessionStore {
  return { append: (sessionId, batch, options) => inner.append(sessionId, batch, options), list: () => inner.list(), delete: (sessionId) => inner.delete(sessionId), load: load as SessionStore['load'] };
}

describe("a store's load() that gives no iterable", () => {
  it.each([
    ['null', () => null, 'returned null, not an async iterable of entries'],
    ['a number', () => 42, 'returned 42, not an async iterable of entries'],
    ['a promise of the entries', async () => [], 'returned a promise, not an async iterable of entries: write it as an async generator, `async *load(sessionId) { … yield entry; }` (see SessionStore.load), yielding the entries instead of resolving to them.'],
  ])('load() returning %s: resume fails with a ConfigurationError naming what it returned and the fix', async (_name, load, message) => {
    const { inner, sessionId } = await storedSession();
    const agent = createAgent({ model: scriptedModel(['Again.']), store: storeWithLoad(inner, load), resume: sessionId });
    const failure = await agent.ready.then(() => undefined, (error: unknown) => error);
    expect(failure).toBeInstanceOf(ConfigurationError);
    expect((failure as Error).message).toContain(`The session store's load(${JSON.stringify(sessionId)}) ${message}`);
  });

  it('an array, or an async generator, is read as before', async () => {
    const { inner, sessionId, entries } = await storedSession();
    for (const load of [() => entries, async function* () { yield* entries; }]) {
      const agent = createAgent({ model: scriptedModel(['Again.']), store: storeWithLoad(inner, load), resume: sessionId });
      await agent.ready;
      expect(agent.messages).toHaveLength(2);
      await agent.close();
    }
    const read: SessionEntry[] = [];
    for await (const entry of storeEntries(storeWithLoad(inner, () => entries), sessionId)) read.push(entry);
    expect(read).toEqual(entries);
  });
});

describe("a store's load() that yields something other than an entry", () => {
  it.each([
    ['null', null, 'is null, not an entry object'],
    ['a number', 42, 'is a number, not an entry object'],
    ['a string', 'entry', 'is a string, not an entry object'],
    ['an array', [], 'is an array, not an entry object'],
  ])("a store of the host's own whose load() yields %s among the entries: resume fails with SessionStoreCorruptError naming the entry, not a TypeError", async (_name, junk, problem) => {
    const { inner, sessionId, entries } = await storedSession();
    const store = storeWithLoad(inner, async function* () {
      yield* entries.slice(0, 2);
      yield junk as unknown as SessionEntry;
      yield* entries.slice(2);
    });
    const resumed = createAgent({ model: scriptedModel(['Again.']), store, resume: sessionId });
    const failure = await resumed.ready.then(() => undefined, (error: unknown) => error);
    expect(failure).toBeInstanceOf(SessionStoreCorruptError);
    expect((failure as Error).message).toContain(`transcript entry 3 of session "${sessionId}" ${problem}`);
  });
});
