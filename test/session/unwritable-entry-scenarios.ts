// What every store of the library does with an appended entry that does not write as a JSON
// object: shared by the memory, file, PostgreSQL and Redis stores' tests.
import { expect } from 'vitest';
import { ConfigurationError, type SessionEntry, type SessionStore } from 'agent-harness';
import { loadEntries } from '../../src/session/load-entries.js';
import { entryMaker } from '../../src/testing/store-conformance/conformance-entries.js';

const cyclic: Record<string, unknown> = {};
cyclic.self = cyclic;

/** Each way an entry can fail to write as a JSON object, with what the refusal names. */
const UNWRITABLE: Array<{ what: string; change: Record<string, unknown>; says: string }> = [
  { what: 'a toJSON that returns undefined', change: { toJSON: () => undefined }, says: 'writes as nothing in JSON' },
  { what: 'a toJSON that returns a string', change: { toJSON: () => 'an entry' }, says: 'writes as "an entry" in JSON' },
  { what: 'a toJSON that returns an array', change: { toJSON: () => [1, 2] }, says: 'writes as [1,2] in JSON' },
  { what: 'a toJSON that returns a number', change: { toJSON: () => 7 }, says: 'writes as 7 in JSON' },
  { what: 'a BigInt', change: { toolUseResult: 10n }, says: 'BigInt' },
  { what: 'a cycle', change: { toolUseResult: cyclic }, says: 'cannot write entry 2' },
];

/**
 * Session `unwritable` holds one entry; appending a good entry with one that writes as no JSON
 * object (each way of {@link UNWRITABLE}) is refused with a ConfigurationError naming the store,
 * the entry's place and the session, and stores nothing: the session loads its one entry and
 * takes the next append at revision 1.
 */
export async function expectUnwritableEntriesRefused(store: SessionStore, storeName: string): Promise<void> {
  const make = entryMaker('unwritable');
  await store.append('unwritable', [make.userText('kept')], { expectedRevision: 0 });
  for (const { what, change, says } of UNWRITABLE) {
    const later = entryMaker('unwritable', 1);
    const entries = [later.userText('fine'), { ...later.userText(what), ...change } as unknown as SessionEntry];
    const refusal = await store.append('unwritable', entries, { expectedRevision: 1 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(ConfigurationError.isInstance(refusal), `${storeName}: an entry with ${what}`).toBe(true);
    expect((refusal as Error).message).toContain(`${storeName}.append`);
    expect((refusal as Error).message).toContain('entry 2 of session "unwritable"');
    expect((refusal as Error).message).toContain(says);
    expect((refusal as Error).message).toContain('Nothing was stored.');
  }
  const loaded = await loadEntries(store, 'unwritable');
  expect(loaded.map((entry) => entry.id)).toEqual(['unwritable-entry-1']);
  const later = entryMaker('unwritable', 1);
  await store.append('unwritable', [later.userText('next')], { expectedRevision: 1 });
  expect(await loadEntries(store, 'unwritable')).toHaveLength(2);
  await store.close?.('unwritable');
}
