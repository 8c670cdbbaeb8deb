import type { SessionStore } from '../../session/session-store.js';
import { basicCases } from './cases/basic-cases.js';
import { checkpointCases } from './cases/checkpoint-cases.js';
import { damageCases } from './cases/damage-cases.js';
import { entryIdCases } from './cases/entry-id-cases.js';
import { largeCases } from './cases/large-cases.js';
import { leaseCases } from './cases/lease-cases.js';
import { pendingCases } from './cases/pending-cases.js';
import { replayCases } from './cases/replay-cases.js';
import { revisionCases } from './cases/revision-cases.js';
import { schemaCases } from './cases/schema-cases.js';
import { sessionIdCases } from './cases/session-id-cases.js';
import type { ConformanceCase } from './conformance-case.js';
import { manualClock, type ManualClock } from './manual-clock.js';
import { argumentError, isObjectValue } from '../../errors/argument-error.js';

/** What the suite hands `create`. */
export interface SessionStoreConformanceContext {
  /**
   * The suite's clock, in epoch milliseconds: give it to the store as the clock its leases run on.
   * The suite moves it forward to expire leases; nothing waits on real time.
   */
  now: () => number;
}

/** A fresh store for one case, with what the suite needs around it. */
export interface SessionStoreFixture {
  /** The store under test, empty. */
  store: SessionStore;
  /**
   * Opens another store instance over the same data (a second connection, pool or directory
   * handle), for races between writers that do not share memory. Needed when `peers` is on.
   */
  openPeer?: () => SessionStore | Promise<SessionStore>;
  /**
   * Damages the stored transcript of `sessionId` the way this store's data can be damaged: a torn
   * last line for files, a corrupt row or value for databases. Needed when `damage` is on.
   */
  damage?: (sessionId: string) => Promise<void>;
  /** Frees what `create` and `openPeer` took (directories, schemas, keys, connections). */
  dispose?: () => Promise<void>;
}

/** Options of {@link sessionStoreConformance}. */
export interface SessionStoreConformanceOptions {
  /** Makes a fresh, empty store for one case; called once per case. */
  create: (context: SessionStoreConformanceContext) => SessionStoreFixture | Promise<SessionStoreFixture>;
  /**
   * The store has `leases` (acquire, renew, release, fencing tokens on append).
   * @default true
   */
  leases?: boolean;
  /**
   * The store has `listPending()`.
   * @default true
   */
  listPending?: boolean;
  /**
   * The fixture has `openPeer`: races run between two instances too.
   * @default false
   */
  peers?: boolean;
  /**
   * The fixture has `damage`: the torn-or-corrupt-data case runs.
   * @default false
   */
  damage?: boolean;
  /**
   * The store refuses an append that gives the id of a stored entry to other content
   * (`ConfigurationError`), as the library's memory and file stores do. Turn off only for a store
   * that cannot look its entries up by id cheaply; such a session then fails to load instead.
   * @default true
   */
  entryIds?: boolean;
  /**
   * The store loads each entry with its object keys in the order they were written (as the
   * library's stores do: they keep each entry's JSON text). A store that reorders them (a
   * PostgreSQL `jsonb` column sorts them) gives a resumed session requests that differ from the
   * ones sent before it: the order of a tool call's input is part of the prompt, so the API's
   * prompt cache reads nothing after the first reordered call, and every resume writes the whole
   * history to the cache again (1.25× the input price instead of 0.1×). Turn off only for a store
   * that cannot keep the order, knowing that cost.
   * @default true
   */
  keyOrder?: boolean;
  /**
   * Error codes besides `session-conflict` that a second instance may be refused with when two
   * race (e.g. `session-locked` for a store that admits one writer at a time).
   * @default []
   */
  peerRefusalCodes?: readonly string[];
  /**
   * Entries in the large-session case (half in one append, the rest in appends of 100).
   * @default 10000
   */
  largeSessionEntries?: number;
  /**
   * Size of the large entry, in characters of one tool result.
   * @default 1000000
   */
  largeEntryChars?: number;
}

/** Resolved options and the way every case gets its store. */
export interface ConformanceSetup {
  options: Required<Omit<SessionStoreConformanceOptions, 'create'>>;
  /** Runs `body` with a fresh fixture and clock, then disposes of the fixture. */
  withStore: (body: (fixture: SessionStoreFixture, clock: ManualClock) => Promise<void>) => Promise<void>;
}

/**
 * The session store contract as runnable cases: append / load / list / delete, entries that do
 * not write as JSON objects (refused, nothing stored), schema versions,
 * torn or corrupt data, large sessions, compare-and-append (alone and between instances), leases
 * with fencing tokens, and `listPending()`. Every store of the library passes it; run it on yours.
 * The cases use no test-runner globals: register them with {@link describeConformance} or run
 * each case's `run()` from any runner.
 * @example
 * import { describe, it } from 'vitest';
 * import { describeConformance, sessionStoreConformance } from 'agent-harness/testing';
 *
 * describeConformance({
 *   title: 'my store',
 *   cases: sessionStoreConformance({ create: ({ now }) => ({ store: myStore({ now }) }) }),
 *   describe,
 *   it,
 * });
 */
export function sessionStoreConformance(options: SessionStoreConformanceOptions): ConformanceCase[] {
  if (!isObjectValue(options) || typeof options.create !== 'function') throw argumentError('sessionStoreConformance', 'options', 'an options object with a create function ({ create: () => ({ store }) })', options);
  const setup: ConformanceSetup = {
    options: {
      leases: options.leases ?? true,
      listPending: options.listPending ?? true,
      peers: options.peers ?? false,
      damage: options.damage ?? false,
      peerRefusalCodes: options.peerRefusalCodes ?? [],
      entryIds: options.entryIds ?? true,
      keyOrder: options.keyOrder ?? true,
      largeSessionEntries: options.largeSessionEntries ?? 10_000,
      largeEntryChars: options.largeEntryChars ?? 1_000_000,
    },
    withStore: async (body) => {
      const clock = manualClock();
      const fixture = await options.create({ now: clock.now });
      try {
        await body(fixture, clock);
      } finally {
        await fixture.dispose?.();
      }
    },
  };
  return [
    ...basicCases(setup),
    ...checkpointCases(setup),
    ...sessionIdCases(setup),
    ...schemaCases(setup),
    ...damageCases(setup),
    ...largeCases(setup),
    ...revisionCases(setup),
    ...replayCases(setup),
    ...entryIdCases(setup),
    ...leaseCases(setup),
    ...pendingCases(setup),
  ];
}
