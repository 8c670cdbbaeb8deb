import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EntryIds } from '../../src/session/entry-ids.js';
import { fileSessionStore } from '../../src/node/file-session-store.js';
import { loadTranscript } from '../../src/session/load-entries.js';
import type { SessionStore } from '../../src/session/session-store.js';
import type { SessionEntry } from '../../src/state/entries.js';
import { entryMaker } from '../../src/testing/store-conformance/conformance-entries.js';

/** Two ids with one hash in this process: of 300,000 ids added, one whose lookup gives two numbers (about ten such pairs are expected; none at all about once in 20,000 runs). */
function collidingIds(): [string, string] {
  colliding ??= findCollidingIds();
  return colliding;
}
let colliding: [string, string] | undefined;

function findCollidingIds(): [string, string] {
  const ids = new EntryIds();
  const names = Array.from({ length: 300_000 }, () => randomUUID());
  names.forEach((name, index) => ids.add(name, index + 1));
  for (const name of names) {
    const seqs = ids.seqsOf(name);
    if (seqs.length > 1) return [names[seqs[0]! - 1]!, names[seqs[1]! - 1]!];
  }
  throw new Error('no two of 300,000 ids share a hash (about once in 20,000 runs): run again');
}

describe('EntryIds', () => {
  it("gives each id's numbers, in increasing order; none for an id never added", () => {
    const ids = new EntryIds();
    ids.add('b', 7);
    ids.add('a', 3);
    ids.add('b', 2);
    expect([ids.size, ids.seqsOf('a'), ids.seqsOf('b'), ids.seqsOf('c'), ids.seqsOf('')]).toEqual([3, [3], [2, 7], [], []]);
    ids.add('', 9);
    expect(ids.seqsOf('')).toEqual([9]);
  });

  it('keeps every id as it grows, numbers past 2^32 too', () => {
    const ids = new EntryIds();
    const count = 50_000;
    for (let index = 0; index < count; index++) ids.add(`entry-${index}`, index === 7 ? 2 ** 40 : index + 1);
    expect(ids.size).toBe(count);
    let wrong = 0;
    for (let index = 0; index < count; index++) if (!ids.seqsOf(`entry-${index}`).includes(index === 7 ? 2 ** 40 : index + 1)) wrong++;
    expect(wrong).toBe(0);
    // Ids never added give nothing, but for the rare one with a stored id's hash.
    let found = 0;
    for (let index = 0; index < count; index++) found += ids.seqsOf(`other-${index}`).length;
    expect(found).toBeLessThan(5);
  });

  it('gives both numbers for two ids of one hash: the reader tells them apart', () => {
    const [first, second] = collidingIds();
    const ids = new EntryIds();
    ids.add(first, 1);
    expect(ids.seqsOf(second)).toEqual([1]);
  });
});

describe('fileSessionStore: an append tells a stored id from another of its hash by reading it', () => {
  it('an entry whose id has the hash of a stored one is appended; a stored id with other content is refused', async () => {
    const [first, second] = collidingIds();
    const dir = mkdtempSync(join(tmpdir(), 'entry-ids-'));
    try {
      const store = fileSessionStore({ dir });
      const make = entryMaker('s');
      const stored = { ...make.userText('one'), id: first };
      await store.append('s', [stored], { expectedRevision: 0 });
      await store.append('s', [{ ...entryMaker('s', 1).userText('two'), id: second, parentId: first }], { expectedRevision: 1 });
      await expect(store.append('s', [{ ...entryMaker('s', 2).userText('three'), id: first, parentId: second }], { expectedRevision: 2 })).rejects.toThrow(/already has with other content/);
      // The same entry again (a retried append) is not a clash.
      await store.append('s', [{ ...stored, seq: 3, parentId: second }], { expectedRevision: 2 });
      // Another store, counting the file again.
      await store.close!('s');
      const other = fileSessionStore({ dir });
      await expect(other.append('s', [{ ...entryMaker('s', 3).userText('four'), id: second, parentId: first }], { expectedRevision: 3 })).rejects.toThrow(/already has with other content/);
      await other.append('s', [{ ...entryMaker('s', 3).userText('four'), parentId: first }], { expectedRevision: 3 });
      await other.close!('s');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('loadTranscript: ids of one hash are told apart by the entries loaded', () => {
  /** A store that yields `entries` as they are (no checks of its own). */
  const storeOf = (entries: SessionEntry[]): SessionStore => ({
    append: () => Promise.reject(new Error('not used')),
    async *load() {
      yield* entries.map((entry) => structuredClone(entry));
    },
    list: async () => ['s'],
    delete: async () => undefined,
  });

  it('loads two entries whose ids share a hash; refuses an id taken for other content and a parent the session does not hold', async () => {
    const [first, second] = collidingIds();
    const make = entryMaker('s');
    const one = { ...make.userText('one'), id: first };
    const two = { ...make.userText('two'), id: second, parentId: first };
    const warnings: string[] = [];
    const loaded = await loadTranscript(storeOf([one, two]), 's', { onWarning: (warning) => warnings.push(warning.message) });
    expect([loaded.entries.map((entry) => entry.id), loaded.copies, warnings]).toEqual([[first, second], [], []]);
    // The first entry's id again, with other content.
    await expect(loadTranscript(storeOf([one, two, { ...make.userText('three'), id: first, parentId: second }]), 's')).rejects.toThrow(/has the id .* of entry 1 \(message\) but other content/);
    // A parent the session does not hold, with the hash of an id it holds.
    await expect(loadTranscript(storeOf([one, { ...entryMaker('s', 1).userText('two'), parentId: second }]), 's')).rejects.toThrow(/as the entry before it, which the session does not hold/);
  });
});
