import { appendFileSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { open as fsOpen } from 'node:fs/promises';
import { rememberedFromRead, SessionFileWriter, TranscriptCount, type RememberedSessionFile } from '../../../src/node/session-file/session-file-writer.js';
import { entryMaker } from '../../../src/testing/store-conformance/conformance-entries.js';
import type { SessionEntry } from '../../../src/state/entries.js';

let dir: string;
let file: string;
const writers: SessionFileWriter[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'session-file-writer-'));
  file = join(dir, 's.jsonl');
});

afterEach(async () => {
  for (const writer of writers.splice(0)) await writer.close();
  rmSync(dir, { recursive: true, force: true });
});

async function open(remembered?: RememberedSessionFile): Promise<SessionFileWriter> {
  const writer = await SessionFileWriter.open({ sessionId: 's', file, fsync: false }, remembered);
  writers.push(writer);
  return writer;
}

/** A text that makes a file of three such entries larger than 64 KiB (a smaller one is not remembered: counted again quickly). */
const big = (text: string) => `${text} ${'x'.repeat(30_000)}`;

/** Appends `entries` through `writer` as the store does. */
async function append(writer: SessionFileWriter, entries: SessionEntry[]): Promise<void> {
  await writer.append(Buffer.from(entries.map((entry) => `${JSON.stringify(entry)}\n`).join('')), entries.at(-1)!.seq, entries.at(-1)!.id, entries);
}

/** `remembered` as if the file's status change time had not moved (a kernel whose clock ticks every few milliseconds): only the file's end can tell. */
const sameTick = (remembered: RememberedSessionFile): RememberedSessionFile => ({ ...remembered, ctimeNs: statSync(file, { bigint: true }).ctimeNs });

/** A writer that appended three entries, and what it remembers (its revision changed to 42, so that a writer taking it is told apart from one that counts). */
async function rememberedAfterThree(): Promise<RememberedSessionFile> {
  const make = entryMaker('s');
  const first = await open();
  await append(first, [make.userText(big('one')), make.userText(big('two'))]);
  await append(first, [make.userText(big('three'))]);
  const remembered = await first.remember();
  await first.close();
  expect(remembered).toMatchObject({ revision: 3, lastId: 's-entry-3', size: BigInt(readFileSync(file).length) });
  expect(remembered!.tail.toString('utf8')).toBe(readFileSync(file, 'utf8').slice(-remembered!.tail.length));
  return { ...remembered!, revision: 42 };
}

describe('SessionFileWriter: what a closed writer remembers', () => {
  it('a writer opened on the file as the last one left it takes what that one knew, without counting', async () => {
    const writer = await open(await rememberedAfterThree());
    expect(writer.revision).toBe(42);
    expect(writer.lastId).toBe('s-entry-3');
  });

  it('counts again when another writer appended since', async () => {
    const remembered = await rememberedAfterThree();
    appendFileSync(file, `${JSON.stringify(entryMaker('s', 3).userText('four'))}\n`);
    expect((await open(remembered)).revision).toBe(4);
  });

  it('counts again when the file was written again at the same size (the same inode)', async () => {
    const remembered = await rememberedAfterThree();
    // Another history of the same length, written in place: only the content tells it apart.
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replaceAll('s-entry-', 's-other-'));
    expect(readFileSync(file).length).toBe(Number(remembered.size));
    const writer = await open(sameTick(remembered));
    expect(writer.revision).toBe(3);
    expect(writer.lastId).toBe('s-other-3');
  });

  it('counts again when only the end differs (a torn line cut and another of the same length put back)', async () => {
    const remembered = await rememberedAfterThree();
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, `${text.slice(0, -5)}XXXX\n`);
    expect((await open(sameTick(remembered))).revision).toBe(2);
  });

  it('counts again when the file was replaced by another one, even of the same bytes and status change time', async () => {
    const remembered = await rememberedAfterThree();
    // Written beside it and renamed over it: a file removed first may give its inode number to the
    // next one created, which would make it the same file to any check.
    const before = statSync(file).ino;
    writeFileSync(`${file}.new`, readFileSync(file));
    renameSync(`${file}.new`, file);
    expect(statSync(file).ino).not.toBe(before);
    expect((await open(sameTick(remembered))).revision).toBe(3);
  });

  it('counts again when the status change time moved, even where the end is the same', async () => {
    const remembered = await rememberedAfterThree();
    expect((await open({ ...remembered, ctimeNs: remembered.ctimeNs - 1n })).revision).toBe(3);
  });

  it('remembers nothing before it appended, nor once another writer appended after it', async () => {
    const make = entryMaker('s');
    writeFileSync(file, `${JSON.stringify(make.userText(big('one')))}\n${JSON.stringify(make.userText(big('two')))}\n${JSON.stringify(make.userText(big('three')))}\n`);
    const counted = await open();
    expect(counted.revision).toBe(3);
    expect(await counted.remember()).toBeUndefined();
    await append(counted, [make.userText('four')]);
    expect(await counted.remember()).toMatchObject({ revision: 4 });
    appendFileSync(file, `${JSON.stringify(make.userText('five'))}\n`);
    expect(await counted.remember()).toBeUndefined();
  });

  it('remembers nothing of a file under 64 KiB (counted again about as fast as remembered)', async () => {
    const make = entryMaker('s');
    const writer = await open();
    await append(writer, [make.userText('one'), make.userText('x'.repeat(60_000))]);
    expect(await writer.remember()).toBeUndefined();
    await append(writer, [make.userText('x'.repeat(5_000))]);
    expect(await writer.remember()).toMatchObject({ revision: 3 });
  });
});

describe('TranscriptCount and rememberedFromRead: what a load that read a file whole leaves its next writer', () => {
  const lines = (entries: SessionEntry[]) => entries.map((entry) => `${JSON.stringify(entry)}\n`).join('');

  it('counts as the writer counts (revision, last id, first seq of each id), and its state is taken by the next writer of the unchanged file', async () => {
    const make = entryMaker('s');
    const entries = [make.userText(big('one')), make.userText(big('two')), make.userText(big('three'))];
    writeFileSync(file, lines(entries));
    const count = new TranscriptCount();
    count.add(entries.slice(0, 2));
    count.add(entries.slice(2));
    expect([count.revision, count.lastId, count.ids.size, ...['s-entry-1', 's-entry-2', 's-entry-3', 's-entry-4'].map((id) => count.ids.seqsOf(id))]).toEqual([3, 's-entry-3', 3, [1], [2], [3], []]);
    const handle = await fsOpen(file, 'r');
    try {
      const state = await rememberedFromRead(handle, await handle.stat({ bigint: true }), count);
      expect(state).toMatchObject({ revision: 3, lastId: 's-entry-3', headAt: readFileSync(file, 'utf8').lastIndexOf('\n', statSync(file).size - 2) + 1 });
      // Taken as it is, not counted again (a revision the file does not have shows it).
      expect((await open({ ...state!, revision: 99 })).revision).toBe(99);
    } finally {
      await handle.close();
    }
  });

  it('leaves nothing past the ids it keeps, for a file under 64 KiB, or one whose last line is longer than 64 KiB', async () => {
    const make = entryMaker('s');
    const entries = [make.userText(big('one')), make.userText(big('two')), make.userText(big('three'))];
    const capped = new TranscriptCount(2);
    capped.add(entries);
    expect([capped.overflowed, capped.ids.size, capped.revision, capped.lastId]).toEqual([true, 0, 3, 's-entry-3']);
    writeFileSync(file, lines(entries));
    const handle = await fsOpen(file, 'r');
    const full = new TranscriptCount();
    full.add(entries);
    try {
      expect(await rememberedFromRead(handle, await handle.stat({ bigint: true }), capped)).toBeUndefined();
      expect(await rememberedFromRead(handle, await handle.stat({ bigint: true }), full)).toBeDefined();
    } finally {
      await handle.close();
    }
    writeFileSync(file, lines([entries[0]!]));
    const small = await fsOpen(file, 'r');
    try {
      expect(await rememberedFromRead(small, await small.stat({ bigint: true }), full)).toBeUndefined();
    } finally {
      await small.close();
    }
    writeFileSync(file, lines([entries[0]!, make.userText('x'.repeat(70_000))]));
    const long = await fsOpen(file, 'r');
    try {
      expect(await rememberedFromRead(long, await long.stat({ bigint: true }), full)).toBeUndefined();
    } finally {
      await long.close();
    }
  });
});
