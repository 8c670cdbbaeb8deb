// What a library store's load returns can also be read in arrays (ENTRY_BATCHES): a resume takes
// one step of an async loop per array instead of per entry. Read either way, a load must give the
// same entries, the same warnings in the same places, and the same error after the same entries.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { memorySessionStore, type SessionEntry, type SessionStore } from 'agent-harness';
import { fileSessionStore } from 'agent-harness/node';
import { batchedEntries, ENTRY_BATCH_SIZE, ENTRY_BATCHES, entriesInBatches, entryBatchesOf } from '../../src/session/entry-batches.js';
import { loadTranscript } from '../../src/session/load-entries.js';
import { loadAll, makeEntries, oneByOne } from './session-entries.js';

const dir = mkdtempSync(join(tmpdir(), 'ah-entry-batches-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What loadTranscript gives and says, or the error it throws, with every warning before it. */
async function transcriptOf(store: SessionStore, sessionId: string) {
  const warnings: string[] = [];
  try {
    const loaded = await loadTranscript(store, sessionId, { onWarning: (warning) => warnings.push(warning.message) });
    return { entries: loaded.entries.map((entry) => entry.id), revision: loaded.revision, copies: loaded.copies, warnings };
  } catch (error) {
    return { error: (error as Error).message, warnings };
  }
}

describe('batchedEntries', () => {
  it('yields the entries of every array in order to a for await, and the arrays to a reader that asks for them', async () => {
    const entry = makeEntries('s');
    const arrays = [[entry('a'), entry('b')], [entry('c')]];
    let reads = 0;
    const made = () => batchedEntries(async function* () {
      reads++;
      yield* arrays;
    });
    expect(reads).toBe(0);
    expect((await loadAll(made())).map((found) => found.id)).toEqual(['entry-1', 'entry-2', 'entry-3']);
    const batches: Array<readonly SessionEntry[]> = [];
    for await (const batch of entryBatchesOf(made())!) batches.push(batch);
    expect(batches).toEqual(arrays);
    // Nothing is read until the load is iterated, as with an async *load().
    expect(reads).toBe(2);
  });

  it('is still an async generator (next, return) for a caller that drives it by hand', async () => {
    const entry = makeEntries('s');
    const loaded = batchedEntries(async function* () {
      yield [entry('a'), entry('b')];
    });
    expect((await loaded.next()).value?.id).toBe('entry-1');
    expect(await loaded.return(undefined)).toEqual({ done: true, value: undefined });
  });

  it('is not found on what any other load returns', () => {
    expect(entryBatchesOf((async function* () {})())).toBeUndefined();
    expect(entryBatchesOf([])).toBeUndefined();
    expect(entryBatchesOf(null)).toBeUndefined();
    expect(typeof ENTRY_BATCHES).toBe('symbol');
  });
});

describe('entriesInBatches', () => {
  it('makes arrays of up to ENTRY_BATCH_SIZE entries, making each when its array is', () => {
    const entry = makeEntries('s');
    const made: number[] = [];
    const arrays = entriesInBatches(ENTRY_BATCH_SIZE + 3, (index) => (made.push(index), entry(String(index))));
    expect(arrays.next().value).toHaveLength(ENTRY_BATCH_SIZE);
    expect(made).toHaveLength(ENTRY_BATCH_SIZE);
    expect(arrays.next().value).toHaveLength(3);
    expect(arrays.next().done).toBe(true);
  });

  it('yields the entries made before a failure, then throws it', () => {
    const entry = makeEntries('s');
    const arrays = entriesInBatches(10, (index) => {
      if (index === 4) throw new Error('entry 5 is damaged');
      return entry(String(index));
    });
    expect(arrays.next().value).toHaveLength(4);
    expect(() => arrays.next()).toThrow('entry 5 is damaged');
  });
});

describe('a load read in arrays or one by one gives the same (file store)', () => {
  /** A file store session of `count` entries, its lines then edited by `edit`. */
  async function fileSession(name: string, count: number, edit: (lines: string[]) => string[]) {
    const folder = mkdtempSync(join(dir, `${name}-`));
    const store = fileSessionStore({ dir: folder });
    const entry = makeEntries(name);
    const entries = Array.from({ length: count }, (_, index) => entry(`line ${index + 1} ${'x'.repeat(400)}`));
    await store.append(name, entries, { expectedRevision: 0 });
    await store.close?.(name);
    const file = join(folder, `${name}.jsonl`);
    const lines = entries.map((stored) => JSON.stringify(stored));
    writeFileSync(file, `${edit(lines).join('\n')}\n`);
    return fileSessionStore({ dir: folder });
  }

  it.each([
    // Lines of about 630 bytes: a read of 64 KiB holds about 100, so damage lands inside arrays.
    ['a line that does not parse, in the middle of a read', (lines: string[]) => lines.map((line, index) => (index === 200 ? '{"torn' : line))],
    ['a copy of an earlier entry (a warning from the load) before a damaged line (one from the store)', (lines: string[]) => [...lines.slice(0, 30), lines[10]!, ...lines.slice(30, 60), 'not json', ...lines.slice(60)]],
    ['an entry of a newer version in the middle (the load fails after the entries before it)', (lines: string[]) => lines.map((line, index) => (index === 222 ? line.replace('"$schemaVersion":2', '"$schemaVersion":99') : line))],
    ['an entry without a version on the last line', (lines: string[]) => [...lines.slice(0, -1), lines.at(-1)!.replace('"$schemaVersion":2,', '')]],
    ['a last line cut short', (lines: string[]) => [...lines.slice(0, -1), lines.at(-1)!.slice(0, 50)]],
  ])('%s', async (name, edit) => {
    const store = await fileSession(name.replace(/[^a-z]+/g, '-').slice(0, 40), 400, edit);
    const sessionId = name.replace(/[^a-z]+/g, '-').slice(0, 40);
    const batched = await transcriptOf(store, sessionId);
    expect(batched).toEqual(await transcriptOf(oneByOne(store), sessionId));
    expect(batched.warnings.length + ('error' in batched ? 1 : 0)).toBeGreaterThan(0);
    // A host iterating the load itself gets the same entries before the same error.
    const seen: string[] = [];
    const failure = await (async () => {
      for await (const entry of store.load(sessionId)) seen.push(entry.id);
    })().then(() => undefined, (error: Error) => error.message);
    const alone: string[] = [];
    const failureAlone = await (async () => {
      for await (const entry of oneByOne(store).load(sessionId)) alone.push(entry.id);
    })().then(() => undefined, (error: Error) => error.message);
    expect(seen).toEqual(alone);
    expect(failure).toEqual(failureAlone);
  });

  it('a warning from the store comes after the load has taken the entries before it', async () => {
    // Both within the first read of the file (lines of about 630 bytes, reads of 64 KiB).
    const store = await fileSession('order', 400, (lines) => [...lines.slice(0, 20), lines[5]!, ...lines.slice(20, 40), '{"torn', ...lines.slice(40)]);
    const { warnings } = await transcriptOf(store, 'order');
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/entry 6 \(message\) is stored twice/);
    expect(warnings[1]).toMatch(/Skipped line 42 /);
  });
});

describe('a load read in arrays or one by one gives the same (memory store)', () => {
  it('for a session longer than one array, with a copy stored under a new number', async () => {
    const store = memorySessionStore();
    const entry = makeEntries('m');
    const entries = Array.from({ length: ENTRY_BATCH_SIZE * 2 + 7 }, (_, index) => entry(`entry ${index}`));
    await store.append('m', entries, { expectedRevision: 0 });
    const last = entries.at(-1)!;
    await store.append('m', [{ ...entries[3]!, seq: last.seq + 1, parentId: last.id }], { expectedRevision: last.seq });
    const batched = await transcriptOf(store, 'm');
    expect(batched).toEqual(await transcriptOf(oneByOne(store), 'm'));
    expect(batched.warnings).toHaveLength(1);
    expect(batched.entries).toHaveLength(entries.length);
  });
});
