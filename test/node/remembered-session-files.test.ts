// A file store remembers what a closed session's writer knew (revision, last id, ids), so that an
// agent made per request does not count the whole transcript again at its first append. Counted
// here by the reads of the transcript (this file replaces the reader with a counting one).
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAgent, SessionConflictError } from '../../src/index.js';
import { fileSessionStore } from '../../src/node/file-session-store.js';
import { readOpenSessionFile, readSessionFileBatches } from '../../src/node/session-file/read-session-file.js';
import { scriptedModel } from '../../src/testing/index.js';
import { entryMaker } from '../../src/testing/store-conformance/conformance-entries.js';
import { loadEntries } from '../../src/session/load-entries.js';
import { MAX_REMEMBERED_FILES, MAX_REMEMBERED_IDS, rememberSessionFile, takeRememberedSessionFile } from '../../src/node/session-file/remembered-session-files.js';
import type { RememberedSessionFile } from '../../src/node/session-file/session-file-writer.js';
import { EntryIds } from '../../src/session/entry-ids.js';
import { createSessionState } from '../../src/state/session-state.js';
import type { SessionEntry } from '../../src/state/entries.js';

vi.mock('../../src/node/session-file/read-session-file.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/node/session-file/read-session-file.js')>();
  // A load opens the file (readSessionFileBatches); a writer counts the file it holds open (readOpenSessionFile).
  return { ...actual, readSessionFileBatches: vi.fn(actual.readSessionFileBatches), readOpenSessionFile: vi.fn(actual.readOpenSessionFile) };
});

/** Reads of a transcript from the start (loads, and a writer counting its file) so far. */
const reads = () => vi.mocked(readSessionFileBatches).mock.calls.length + vi.mocked(readOpenSessionFile).mock.calls.length;

/** The reads `work` made. */
async function readsOf(work: () => Promise<unknown>): Promise<number> {
  const before = reads();
  await work();
  return reads() - before;
}

/** A text that makes a transcript of two such entries larger than 64 KiB, the least a closed writer remembers. */
const big = (text: string) => `${text} ${'x'.repeat(40_000)}`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'remembered-session-files-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('fileSessionStore: the writer of a closed session', () => {
  it('is opened again without reading the transcript when the file is as it left it', async () => {
    const store = fileSessionStore({ dir });
    const make = entryMaker('s');
    await store.append('s', [make.userText(big('one')), make.userText(big('two'))], { expectedRevision: 0 });
    await store.close!('s');
    expect(await readsOf(() => store.append('s', [make.userText('three')], { expectedRevision: 2 }))).toBe(0);
    await store.close!('s');
    // What it remembered is what is stored: a stale writer is refused, a stored id with other content too.
    await expect(store.append('s', [entryMaker('s', 2, 'late').userText('late')], { expectedRevision: 2 })).rejects.toThrow(SessionConflictError);
    await store.close!('s');
    await expect(store.append('s', [{ ...entryMaker('s', 3).userText('copy'), id: 's-entry-1' }], { expectedRevision: 3 })).rejects.toThrow(/already has with other content/);
    await store.close!('s');
    expect((await loadEntries(store, 's')).map((entry) => entry.seq)).toEqual([1, 2, 3]);
  });

  it('is taken by another store of the process too (a store made per request)', async () => {
    const make = entryMaker('s');
    const first = fileSessionStore({ dir });
    await first.append('s', [make.userText(big('one')), make.userText(big('two'))], { expectedRevision: 0 });
    await first.close!('s');
    const second = fileSessionStore({ dir });
    expect(await readsOf(() => second.append('s', [make.userText('three')], { expectedRevision: 2 }))).toBe(0);
    await second.close!('s');
    // And back: the second one's writer left it in turn.
    expect(await readsOf(() => first.append('s', [make.userText('four')], { expectedRevision: 3 }))).toBe(0);
    await first.close!('s');
    expect((await loadEntries(first, 's')).map((entry) => entry.seq)).toEqual([1, 2, 3, 4]);
  });

  it('counts a transcript under 64 KiB again (about as fast as remembering it at every close)', async () => {
    const store = fileSessionStore({ dir });
    const make = entryMaker('s');
    await store.append('s', [make.userText('one')], { expectedRevision: 0 });
    await store.close!('s');
    const opened = vi.mocked(readSessionFileBatches).mock.calls.length;
    expect(await readsOf(() => store.append('s', [make.userText('two')], { expectedRevision: 1 }))).toBe(1);
    // Counted through the writer's own handle: the file is not found and opened a second time.
    expect(vi.mocked(readSessionFileBatches).mock.calls.length).toBe(opened);
    await store.close!('s');
  });

  it('counts the file again when another process appended since, and appends after it', async () => {
    const store = fileSessionStore({ dir });
    const make = entryMaker('s');
    await store.append('s', [make.userText(big('one'))], { expectedRevision: 0 });
    await store.close!('s');
    // Another process's writer appends while this store holds no lock.
    appendFileSync(join(dir, 's.jsonl'), `${JSON.stringify(make.userText('two'))}\n`);
    expect(await readsOf(() => store.append('s', [make.userText('three')], { expectedRevision: 2 }))).toBe(1);
    await store.close!('s');
    expect((await loadEntries(store, 's')).map((entry) => entry.seq)).toEqual([1, 2, 3]);
  });

  it('ends a torn last line written since before appending (the file changed: counted again)', async () => {
    const store = fileSessionStore({ dir });
    const make = entryMaker('s');
    await store.append('s', [make.userText('one')], { expectedRevision: 0 });
    await store.close!('s');
    const torn = JSON.stringify(entryMaker('s', 1).userText('torn')).slice(0, 30);
    appendFileSync(join(dir, 's.jsonl'), torn);
    await store.append('s', [make.userText('two')], { expectedRevision: 1 });
    await store.close!('s');
    expect(readFileSync(join(dir, 's.jsonl'), 'utf8').split('\n')).toEqual([expect.any(String), torn, expect.stringContaining('"two"'), '']);
  });

  it('starts a deleted session afresh, also when the next history is written by this store', async () => {
    const store = fileSessionStore({ dir });
    await store.append('s', [entryMaker('s').userText('one'), entryMaker('s', 1).userText('two')], { expectedRevision: 0 });
    await store.close!('s');
    await store.delete('s');
    const again = entryMaker('s', 0, 'again');
    await store.append('s', [again.userText('new one')], { expectedRevision: 0 });
    await store.close!('s');
    expect((await loadEntries(store, 's')).map((entry) => entry.id)).toEqual(['again-entry-1']);
  });

  it(`keeps at most ${MAX_REMEMBERED_IDS.toLocaleString('en')} ids of closed sessions in a process: the oldest session is counted again when next written`, async () => {
    const store = fileSessionStore({ dir });
    const makers = { a: entryMaker('a'), b: entryMaker('b') };
    const each = MAX_REMEMBERED_IDS / 2 + 1;
    for (const sessionId of ['a', 'b'] as const) {
      // (No file under 64 KiB is remembered.)
      await store.append(sessionId, Array.from({ length: each }, () => makers[sessionId].userText('')), { expectedRevision: 0 });
      await store.close!(sessionId);
    }
    // Together two ids more than the bound: a's went when b's were kept.
    expect(await readsOf(() => store.append('b', [makers.b.userText('more')], { expectedRevision: each }))).toBe(0);
    expect(await readsOf(() => store.append('a', [makers.a.userText('more')], { expectedRevision: each }))).toBe(1);
    await Promise.all([store.close!('a'), store.close!('b')]);
  });

  it(`keeps at most ${MAX_REMEMBERED_FILES.toLocaleString('en')} closed sessions' files in a process, whatever their ids: the oldest is forgotten first`, () => {
    const stateOf = (): RememberedSessionFile => ({ dev: 1n, ino: 1n, size: 70_000n, ctimeNs: 1n, tail: Buffer.from('\n'), head: Buffer.from('{'), headAt: 0, revision: 1, lastId: 'a', ids: new EntryIds() });
    const files = Array.from({ length: MAX_REMEMBERED_FILES + 2 }, (_, index) => join(dir, `bound-${index}.jsonl`));
    for (const file of files) rememberSessionFile(file, stateOf());
    expect(takeRememberedSessionFile(files[0]!)).toBeUndefined();
    expect(takeRememberedSessionFile(files[1]!)).toBeUndefined();
    expect(takeRememberedSessionFile(files[2]!)).toBeDefined();
    expect(takeRememberedSessionFile(files.at(-1)!)).toBeDefined();
    for (const file of files) takeRememberedSessionFile(file);
  });

  it('an agent made per request reads the transcript once per request (its resume), not again at its first write', async () => {
    const store = fileSessionStore({ dir });
    // An answer long enough to make the transcript one a closed writer remembers (64 KiB or more).
    const hello = `Hello. ${'x'.repeat(70_000)}`;
    const first = createAgent({ model: scriptedModel([hello]), store, sessionId: 's' });
    await first.run('Hi.').result;
    await first.close();
    for (const answer of ['Second.', 'Third.', 'Fourth.']) {
      const count = await readsOf(async () => {
        // The last request makes a store of its own too.
        const agent = createAgent({ model: scriptedModel([answer]), store: answer === 'Fourth.' ? fileSessionStore({ dir }) : store, resume: 's' });
        expect((await agent.run('Again.').result).status).toBe('completed');
        await agent.close();
      });
      expect(count).toBe(1);
    }
    const last = createAgent({ model: scriptedModel([]), store, resume: 's' });
    await last.ready;
    expect(last.messages.filter((message) => message.role === 'assistant').map((message) => (message.content as Array<{ text: string }>)[0]!.text)).toEqual([hello, 'Second.', 'Third.', 'Fourth.']);
    await last.close();
  });
});

describe('fileSessionStore: a load that read the whole transcript', () => {
  /** A session of two big entries written "by another process": nothing of it remembered here. */
  async function writtenElsewhere(sessionId = 's') {
    const make = entryMaker(sessionId);
    const writer = fileSessionStore({ dir });
    await writer.append(sessionId, [make.userText(big('one')), make.userText(big('two'))], { expectedRevision: 0 });
    await writer.close!(sessionId);
    takeRememberedSessionFile(join(dir, `${sessionId}.jsonl`));
    return make;
  }

  it("stands for the count of the session's next writer (a store made per request): the file is read once", async () => {
    const make = await writtenElsewhere();
    // The load reads it; the first append does not read it again.
    const store = fileSessionStore({ dir });
    expect(await readsOf(() => loadEntries(store, 's'))).toBe(1);
    expect(await readsOf(() => store.append('s', [make.userText('three')], { expectedRevision: 2 }))).toBe(0);
    await store.close!('s');
    // What the load counted is what is stored: the revision, and the ids (a stored id with other content is refused).
    await writtenElsewhere('t');
    const other = fileSessionStore({ dir });
    await loadEntries(other, 't');
    await expect(other.append('t', [entryMaker('t', 1, 'late').userText('late')], { expectedRevision: 1 })).rejects.toThrow(SessionConflictError);
    await other.close!('t');
    await loadEntries(other, 't');
    await expect(other.append('t', [{ ...entryMaker('t', 2).userText('copy'), id: 't-entry-1' }], { expectedRevision: 2 })).rejects.toThrow(/already has with other content/);
    await other.close!('t');
    expect((await loadEntries(store, 's')).map((entry) => entry.seq)).toEqual([1, 2, 3]);
  });

  it('is not taken when the file changed after the load (another process appended): the writer counts it', async () => {
    const make = await writtenElsewhere();
    const store = fileSessionStore({ dir });
    await loadEntries(store, 's');
    appendFileSync(join(dir, 's.jsonl'), `${JSON.stringify(make.userText('three'))}\n`);
    await expect(store.append('s', [entryMaker('s', 2, 'stale').userText('stale')], { expectedRevision: 2 })).rejects.toThrow(SessionConflictError);
    await store.close!('s');
    await loadEntries(store, 's');
    // The same size, rewritten (another process replaced an entry's text): counted again too.
    const file = join(dir, 's.jsonl');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('"three"', '"THREE"'));
    expect(await readsOf(() => store.append('s', [make.userText('four')], { expectedRevision: 3 }))).toBe(1);
    await store.close!('s');
    expect((await loadEntries(store, 's')).map((entry) => entry.seq)).toEqual([1, 2, 3, 4]);
  });

  it('leaves nothing for the writer when it stopped part way, or found no newline at the end', async () => {
    // Part way: the reader stopped after the first batch.
    const make = await writtenElsewhere();
    const store = fileSessionStore({ dir });
    const reader = store.load('s')[Symbol.asyncIterator]();
    await reader.next();
    await reader.return!(undefined);
    expect(await readsOf(() => store.append('s', [make.userText('three')], { expectedRevision: 2 }))).toBe(1);
    await store.close!('s');
    // No newline at the end (a torn line): the writer counts, and ends the line before appending.
    takeRememberedSessionFile(join(dir, 's.jsonl'));
    appendFileSync(join(dir, 's.jsonl'), JSON.stringify(entryMaker('s', 3, 'torn').userText('torn')).slice(0, 30));
    await loadEntries(store, 's');
    expect(await readsOf(() => store.append('s', [make.userText('four')], { expectedRevision: 3 }))).toBe(1);
    await store.close!('s');
    expect((await loadEntries(store, 's')).map((entry) => entry.seq)).toEqual([1, 2, 3, 4]);
  });

  /** A transcript of 256 KiB or more written by another process: a checkpoint, seven long turns (one written by another program, its keys in another order), a checkpoint, one more. */
  async function compactedElsewhere(sessionId = 'c') {
    const make = entryMaker(sessionId);
    const checkpoint = () => make.next({ kind: 'checkpoint', state: createSessionState({ sessionId }), reason: 'compaction' });
    const first = checkpoint();
    const turns = Array.from({ length: 7 }, (_, index) => make.userText(big(`turn ${index}`)));
    const writer = fileSessionStore({ dir });
    await writer.append(sessionId, [first, ...turns, checkpoint(), make.userText('after')], { expectedRevision: 0 });
    await writer.close!(sessionId);
    takeRememberedSessionFile(join(dir, `${sessionId}.jsonl`));
    // One line as another program may write it: the same entry, its keys in another order.
    const file = join(dir, `${sessionId}.jsonl`);
    const lines = readFileSync(file, 'utf8').split('\n');
    const { id, ...rest } = JSON.parse(lines[3]!) as Record<string, unknown>;
    lines[3] = JSON.stringify({ ...rest, id });
    writeFileSync(file, lines.join('\n'));
    return { make, turns };
  }

  it('stands for the count after a load from a checkpoint: the lines before it counted from their beginnings, not read again', async () => {
    const { make } = await compactedElsewhere();
    const store = fileSessionStore({ dir });
    const resumed: SessionEntry[] = [];
    for await (const entry of store.load('c', { fromCheckpoint: {} })) resumed.push(entry);
    expect(resumed.map((entry) => entry.seq)).toEqual([9, 10]);
    expect(await readsOf(() => store.append('c', [make.userText('more')], { expectedRevision: 10 }))).toBe(0);
    await store.close!('c');
    expect((await loadEntries(store, 'c')).map((entry) => entry.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    // The ids before the checkpoint are known: one taken for other content is refused, from a line
    // written as the library writes it and from the one written in another order alike.
    for (const index of [0, 2]) {
      const taken = (await compactedElsewhere('d')).turns[index]!;
      const other = fileSessionStore({ dir });
      for await (const _ of other.load('d', { fromCheckpoint: {} }));
      await expect(other.append('d', [{ ...entryMaker('d', 10).userText('copy'), id: taken.id }], { expectedRevision: 10 })).rejects.toThrow(/already has with other content/);
      await other.close!('d');
      rmSync(join(dir, 'd.jsonl'));
    }
    // And the revision: a stale writer is refused.
    await compactedElsewhere('e');
    const stale = fileSessionStore({ dir });
    for await (const _ of stale.load('e', { fromCheckpoint: {} }));
    await expect(stale.append('e', [entryMaker('e', 9, 'late').userText('late')], { expectedRevision: 9 })).rejects.toThrow(SessionConflictError);
    await stale.close!('e');
  });

  it('counts nothing again for a file the process remembers as it is (a load after a writer of this process closed it)', async () => {
    const { make } = await compactedElsewhere();
    const file = join(dir, 'c.jsonl');
    const store = fileSessionStore({ dir });
    for (const fromCheckpoint of [{}, undefined]) {
      await loadEntries(store, 'c');
      const counted = takeRememberedSessionFile(file)!;
      expect(counted.revision).toBe(10);
      rememberSessionFile(file, counted);
      // The file unchanged: what is remembered stays, not replaced by the same count made again.
      for await (const _ of store.load('c', fromCheckpoint ? { fromCheckpoint } : undefined));
      expect(takeRememberedSessionFile(file)).toBe(counted);
      rememberSessionFile(file, counted);
    }
    // Changed since (appended here, then told apart by its status): counted again, and left for the writer.
    appendFileSync(file, `${JSON.stringify(make.userText('elsewhere'))}\n`);
    for await (const _ of store.load('c', { fromCheckpoint: {} }));
    expect(takeRememberedSessionFile(file)?.revision).toBe(11);
  });

  it('leaves nothing after a load from a checkpoint given up part way', async () => {
    const { make } = await compactedElsewhere();
    const store = fileSessionStore({ dir });
    const reader = store.load('c', { fromCheckpoint: {} })[Symbol.asyncIterator]();
    await reader.next();
    await reader.return!(undefined);
    expect(await readsOf(() => store.append('c', [make.userText('more')], { expectedRevision: 10 }))).toBe(1);
    await store.close!('c');
  });

  it('an agent made per request on a session another process wrote reads it once, and goes on as written', async () => {
    const hello = `Hello. ${'x'.repeat(70_000)}`;
    const first = createAgent({ model: scriptedModel([hello]), store: fileSessionStore({ dir }), sessionId: 's' });
    await first.run('Hi.').result;
    await first.close();
    for (const answer of ['Second.', 'Third.']) {
      takeRememberedSessionFile(join(dir, 's.jsonl'));
      const count = await readsOf(async () => {
        const agent = createAgent({ model: scriptedModel([answer]), store: fileSessionStore({ dir }), resume: 's' });
        expect((await agent.run('Again.').result).status).toBe('completed');
        await agent.close();
      });
      expect(count).toBe(1);
    }
    const last = createAgent({ model: scriptedModel([]), store: fileSessionStore({ dir }), resume: 's' });
    await last.ready;
    expect(last.messages.filter((message) => message.role === 'assistant').map((message) => (message.content as Array<{ text: string }>)[0]!.text)).toEqual([hello, 'Second.', 'Third.']);
    await last.close();
  });
});
