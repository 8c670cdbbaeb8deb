// The conformance suite must fail stores that break the contract: each broken store below is the
// memory store with one promise broken, and the suite must name a failing case for it.
import { describe, expect, it } from 'vitest';
import { MAX_SESSION_ID_BYTES, memorySessionStore, SessionConflictError, type SessionEntry, type SessionStore } from 'agent-harness';
import { manualClock, sessionStoreConformance, StoreConformanceFailure, type ConformanceCase } from 'agent-harness/testing';

type Breakage = (store: SessionStore, now: () => number) => SessionStore;

/** Runs every case; returns the names of the failing ones. */
async function failingCases(cases: ConformanceCase[]): Promise<Map<string, unknown>> {
  const failures = new Map<string, unknown>();
  for (const testCase of cases) {
    if (testCase.skip) continue;
    await testCase.run().catch((error: unknown) => failures.set(testCase.name, error));
  }
  return failures;
}

function broken(breakage: Breakage): ConformanceCase[] {
  return sessionStoreConformance({
    create: ({ now }) => ({ store: breakage(memorySessionStore({ now }), now) }),
    largeSessionEntries: 300,
    largeEntryChars: 20_000,
  });
}

const breakages: Array<[string, Breakage, RegExp]> = [
  [
    'appends without checking the revision',
    (store) => ({
      ...store,
      append: async (sessionId, entries) => {
        const revision = (await loadRevision(store, sessionId));
        return store.append(sessionId, entries.map((entry, index) => ({ ...entry, seq: revision + index + 1 })), { expectedRevision: revision });
      },
    }),
    /compare-and-append/,
  ],
  [
    'stores part of a batch it refuses',
    (store) => ({
      ...store,
      append: async (sessionId, entries, options) => {
        if (entries.length > 1) await store.append(sessionId, entries.slice(0, 1), options).catch(() => undefined);
        return store.append(sessionId, entries.length > 1 ? entries.slice(1) : entries, { ...options, expectedRevision: options.expectedRevision + (entries.length > 1 ? 1 : 0) });
      },
    }),
    /bad arguments are refused/,
  ],
  [
    'hands out the stored objects (no copies)',
    (store) => {
      const kept = new Map<string, SessionEntry[]>();
      return {
        ...store,
        append: async (sessionId, entries, options) => {
          await store.append(sessionId, entries, options);
          kept.set(sessionId, [...(kept.get(sessionId) ?? []), ...entries]);
        },
        load: async function* (sessionId) {
          yield* kept.get(sessionId) ?? [];
        },
      };
    },
    /own copies/,
  ],
  [
    'ignores fencing tokens',
    (store) => ({ ...store, append: (sessionId, entries, options) => store.append(sessionId, entries, { expectedRevision: options.expectedRevision }) }),
    /crashed worker|expired, superseded/,
  ],
  [
    'gives the lease to anyone who asks',
    (store) => ({
      ...store,
      leases: {
        ...store.leases!,
        acquire: async (sessionId, options) => (await store.leases!.acquire(sessionId, options)) ?? { sessionId, holder: options.holder, fencingToken: 1, expiresAt: Number.MAX_SAFE_INTEGER },
      },
    }),
    /one holder at a time|exactly one gets the lease/,
  ],
  [
    'lets an expired lease be renewed',
    (store, now) => ({
      ...store,
      leases: { ...store.leases!, renew: async (lease, options) => (await store.leases!.renew(lease, options)) ?? { ...lease, expiresAt: now() + options.ttlMs } },
    }),
    /crashed worker/,
  ],
  [
    'forgets that a tool result answers a pending approval',
    (store) => ({
      ...store,
      append: (sessionId, entries, options) =>
        store.append(
          sessionId,
          entries.map((entry) => (entry.kind === 'tool-result' ? ({ ...entry, kind: 'tool-state', key: 'r', value: 1 } as SessionEntry) : entry)),
          options,
        ),
    }),
    /leaves the list/,
  ],
  [
    'throws a raw TypeError on an entry it cannot read',
    (store) => ({
      ...store,
      load: async function* (sessionId, options) {
        for await (const entry of store.load(sessionId, options)) {
          if (entry.$schemaVersion !== 2) throw new TypeError('Cannot read properties of undefined');
          yield entry;
        }
      },
    }),
    /unknown \$schemaVersion|version-1/,
  ],
  [
    'cuts session ids past MAX_SESSION_ID_BYTES short instead of refusing them',
    (store) => {
      const cut = (sessionId: string) => sessionId.slice(0, MAX_SESSION_ID_BYTES);
      return {
        ...store,
        append: (sessionId, entries, options) => store.append(cut(sessionId), entries, options),
        load: (sessionId, options) => store.load(cut(sessionId), options),
        delete: (sessionId) => store.delete(cut(sessionId)),
      };
    },
    /session ids/,
  ],
  [
    'tells a session only by its revision, not by the entry the writer saw (parentId)',
    (store) => ({ ...store, append: (sessionId, entries, options) => store.append(sessionId, entries.map((entry) => ({ ...entry, parentId: null })), options) }),
    /deleted and written again/,
  ],
  [
    'calls a replay of a stored append (its reply lost) a conflict',
    (store) => ({
      ...store,
      append: async (sessionId, entries, options) => {
        const revision = await loadRevision(store, sessionId);
        if (entries.length > 0 && revision !== options.expectedRevision) throw new SessionConflictError({ sessionId, expectedRevision: options.expectedRevision, actualRevision: revision });
        return store.append(sessionId, entries, options);
      },
    }),
    /identical replay/,
  ],
  [
    'takes any append at a revision it has passed for a replay',
    (store) => ({
      ...store,
      append: async (sessionId, entries, options) => {
        if ((await loadRevision(store, sessionId)) >= options.expectedRevision + entries.length && entries.length > 0) return;
        return store.append(sessionId, entries, options);
      },
    }),
    /other entries at a stored revision/,
  ],
  [
    'sorts listPending() by UTF-16 code units (JavaScript\'s default), not by code point',
    (store) => ({ ...store, listPending: async () => (await store.listPending!()).sort((a, b) => (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0)) }),
    /code point order/,
  ],
  [
    'writes an append entry by entry, keeping those before one it cannot write',
    (store) => ({
      ...store,
      append: async (sessionId, entries, options) => {
        for (const [index, entry] of entries.entries()) await store.append(sessionId, [entry], { ...options, expectedRevision: options.expectedRevision + index });
      },
    }),
    /does not write as a JSON object/,
  ],
  [
    'refuses an entry JSON cannot write with a bare TypeError',
    (store) => ({
      ...store,
      append: (sessionId, entries, options) => {
        for (const entry of entries) JSON.stringify(entry);
        return store.append(sessionId, entries, options);
      },
    }),
    /does not write as a JSON object/,
  ],
  [
    'sorts object keys as it loads entries, as a jsonb column does (shorter keys first, then by bytes)',
    (store) => ({
      ...store,
      load: async function* (sessionId, options) {
        for await (const entry of store.load(sessionId, options)) yield jsonbOrder(entry) as SessionEntry;
      },
    }),
    /object keys in the order they were written/,
  ],
  [
    'lists only some sessions',
    (store) => ({ ...store, list: async () => (await store.list()).slice(1) }),
    /list|delete/,
  ],
];

/** `value` with the keys of every object in the order PostgreSQL's jsonb keeps them: shorter first, then by bytes. */
function jsonbOrder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(jsonbOrder);
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value).sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(keys.map((key) => [key, jsonbOrder((value as Record<string, unknown>)[key])]));
}

async function loadRevision(store: SessionStore, sessionId: string): Promise<number> {
  let revision = 0;
  for await (const entry of store.load(sessionId)) revision = entry.seq ?? revision + 1;
  return revision;
}

describe('the session store conformance suite', () => {
  it('passes the memory store as it is', async () => {
    const failures = await failingCases(broken((store) => store));
    expect([...failures.keys()]).toEqual([]);
  });

  it.each(breakages)('fails a store that %s', async (_what, breakage, expected) => {
    const failures = await failingCases(broken(breakage));
    const names = [...failures.keys()];
    expect(names.some((name) => expected.test(name)), `failing cases: ${JSON.stringify(names)}`).toBe(true);
    // Failures explain themselves: the suite's own failures are sentences, not bare assertions.
    for (const error of failures.values()) {
      if (error instanceof StoreConformanceFailure) expect(error.message.length).toBeGreaterThan(20);
    }
  });

  it('declares a missing feature loudly instead of passing it by', async () => {
    const cases = sessionStoreConformance({ create: () => ({ store: { ...memorySessionStore(), leases: undefined, listPending: undefined } }) });
    const failures = await failingCases(cases);
    const messages = [...failures.values()].map((error) => (error as Error).message);
    expect(messages.some((message) => message.includes('leases: false'))).toBe(true);
    expect(messages.some((message) => message.includes('listPending: false'))).toBe(true);
    const declared = sessionStoreConformance({ create: () => ({ store: memorySessionStore() }), leases: false, listPending: false });
    expect(declared.filter((testCase) => testCase.skip !== undefined).length).toBeGreaterThan(5);
  });

  it('skips the key-order case for a store declared to reorder keys, and runs it otherwise', () => {
    const named = (cases: ConformanceCase[]) => cases.find((testCase) => /object keys in the order they were written/.test(testCase.name))!;
    expect(named(sessionStoreConformance({ create: () => ({ store: memorySessionStore() }) })).skip).toBeUndefined();
    expect(named(sessionStoreConformance({ create: () => ({ store: memorySessionStore() }), keyOrder: false })).skip).toMatch(/keyOrder: false/);
  });

  it('moves its clock only when told', () => {
    const clock = manualClock(1000);
    expect(clock.now()).toBe(1000);
    clock.advance(250);
    expect(clock.now()).toBe(1250);
  });
});
