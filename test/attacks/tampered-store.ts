import { expect } from 'vitest';
import { SessionStoreCorruptError, type SessionEntry, type SessionStore } from 'agent-harness';
import { loadTranscript } from '../../src/session/load-entries.js';
import { entryMaker } from '../../src/testing/store-conformance/conformance-entries.js';
import { oneByOne } from '../session/session-entries.js';

// What the attacks on server stores edited by hand (tampered-postgres-rows, tampered-redis-keys)
// do alike: write a session through the store, load it as a resume does, expect the load to fail.

/** A session of `count` entries written by the store; its entries. */
export async function session({ store }: { store: SessionStore }, sessionId: string, count = 4, idPrefix = sessionId): Promise<SessionEntry[]> {
  const make = entryMaker(sessionId, 0, idPrefix);
  const entries = Array.from({ length: count }, (_, index) => make.userText(`${sessionId} ${index + 1}`));
  await store.append(sessionId, entries, { expectedRevision: 0 });
  return entries;
}

/** The session as a resume loads it: its entry ids, revision and last id, and the warnings given. */
export async function load({ store }: { store: SessionStore }, sessionId: string) {
  const warnings: string[] = [];
  const loaded = await loadTranscript(store, sessionId, { onWarning: (warning) => warnings.push(warning.message) });
  return { ids: loaded.entries.map((entry) => entry.id), revision: loaded.revision, lastId: loaded.lastId, warnings };
}

/** The SessionStoreCorruptError that loading the session (or `action`) fails with; the test fails when it does not. */
export async function corrupt(context: { store: SessionStore }, sessionId: string, action?: Promise<unknown>): Promise<SessionStoreCorruptError> {
  const error = await (action ?? load(context, sessionId)).then(() => undefined, (caught: unknown) => caught);
  expect(SessionStoreCorruptError.isInstance(error), String(error)).toBe(true);
  return error as SessionStoreCorruptError;
}

/**
 * The session loaded as a resume loads it (the store's entries in arrays) and as a host's store
 * would be read (one by one): both must give the same; the warnings (the store's and the load's)
 * must come in the order of the entries they are about.
 */
export async function loadBothWays(context: { store: SessionStore }, sessionId: string, expected: RegExp[]) {
  const inArrays = await load(context, sessionId);
  expect(inArrays).toEqual(await load({ store: oneByOne(context.store) }, sessionId));
  expect(inArrays.warnings).toHaveLength(expected.length);
  expected.forEach((pattern, index) => expect(inArrays.warnings[index]).toMatch(pattern));
  return inArrays;
}
