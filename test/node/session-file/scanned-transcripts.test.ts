// A resume from the last checkpoint scans a transcript's bytes for it; a process that scanned the
// file before goes on from where that scan ended when the file only grew since, and scans it
// whole again when it is another file, shorter, or no longer ends as that scan saw it end.
import { appendFileSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileSessionStore } from '../../../src/node/file-session-store.js';
import { findCheckpointStart } from '../../../src/node/session-file/find-checkpoint-start.js';
import { forgetScanEnds, keepScanEnd, MAX_SCANNED_TRANSCRIPTS, scanEndOf } from '../../../src/node/session-file/scanned-transcripts.js';
import { createSessionState } from '../../../src/state/session-state.js';
import type { SessionEntry } from '../../../src/state/entries.js';
import { entryMaker } from '../../../src/testing/store-conformance/conformance-entries.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'scanned-transcripts-'));
  forgetScanEnds();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A session of 256 KiB or more: a checkpoint, long turns, a checkpoint, one more. */
async function longSession(sessionId = 's') {
  const make = entryMaker(sessionId);
  const checkpoint = () => make.next({ kind: 'checkpoint', state: createSessionState({ sessionId }), reason: 'compaction' });
  const entries = [checkpoint(), ...Array.from({ length: 7 }, (_, index) => make.userText(`turn ${index} ${'x'.repeat(40_000)}`)), checkpoint(), make.userText('after')];
  const store = fileSessionStore({ dir });
  await store.append(sessionId, entries, { expectedRevision: 0 });
  await store.close!(sessionId);
  return { make, checkpoint, file: join(dir, `${sessionId}.jsonl`) };
}

async function firstLoaded(sessionId = 's'): Promise<SessionEntry | undefined> {
  for await (const entry of fileSessionStore({ dir }).load(sessionId, { fromCheckpoint: {} })) return entry;
  return undefined;
}

/** Where the kept scan of `file` ended, read with the file as it is now. */
async function keptEnd(file: string) {
  const handle = await open(file);
  try {
    return await scanEndOf(file, await handle.stat({ bigint: true }), handle, (await handle.stat()).size);
  } finally {
    await handle.close();
  }
}

describe('a transcript scanned before', () => {
  it('is scanned from where the last scan ended once it grew: a checkpoint appended since is found', async () => {
    const { make, checkpoint, file } = await longSession();
    expect((await firstLoaded())?.seq).toBe(9);
    const size = readFileSync(file).length;
    expect((await keptEnd(file))?.size).toBe(size);
    // Appended since (by this process or another): a turn, a checkpoint, one more.
    const store = fileSessionStore({ dir });
    await store.append('s', [make.userText('more'), checkpoint(), make.userText('last')], { expectedRevision: 10 });
    await store.close!('s');
    expect((await keptEnd(file))?.size).toBe(size);
    expect((await firstLoaded())?.seq).toBe(12);
    expect((await keptEnd(file))?.size).toBe(readFileSync(file).length);
  });

  it('is scanned whole again when it no longer ends as the scan saw it end, is shorter, or is another file', async () => {
    const { file } = await longSession();
    await firstLoaded();
    // Rewritten in place, its end changed (a checkpoint's line moved: the one before is found).
    const lines = readFileSync(file, 'utf8').split('\n');
    writeFileSync(file, [...lines.slice(0, 8), lines[9], lines[8], ''].join('\n').replace('"after"', '"AFTER"'));
    expect(await keptEnd(file)).toBeUndefined();
    expect((await firstLoaded())?.seq).toBe(1);
    // Shorter than where the scan ended.
    await firstLoaded();
    writeFileSync(file, `${lines.slice(0, 9).join('\n')}\n`);
    expect(await keptEnd(file)).toBeUndefined();
    expect((await firstLoaded())?.seq).toBe(9);
    // Another file (a new inode) of the same bytes and more: written beside the old one and renamed
    // over it, so the two inodes exist at once and cannot share a number (a file removed first may
    // give its number to the next one created).
    await firstLoaded();
    const before = statSync(file).ino;
    writeFileSync(`${file}.new`, `${lines.slice(0, 9).join('\n')}\n`);
    renameSync(`${file}.new`, file);
    expect(statSync(file).ino).not.toBe(before);
    expect(await keptEnd(file)).toBeUndefined();
    appendFileSync(file, `${lines[9]}\n`);
    expect((await firstLoaded())?.seq).toBe(9);
  });

  it('is kept for at most 256 transcripts, the least recently scanned going first', async () => {
    const { file } = await longSession();
    const handle = await open(file);
    try {
      const stat = await handle.stat({ bigint: true });
      const start = await findCheckpointStart(handle, Number(stat.size), {}, undefined, 0, { file, stat });
      expect(start?.place.line).toBe(9);
      const end = await scanEndOf(file, stat, handle, Number(stat.size));
      expect(end).toBeDefined();
      for (let index = 0; index < MAX_SCANNED_TRANSCRIPTS; index++) keepScanEnd(`${file}.${index}`, stat, end!);
      expect(await scanEndOf(file, stat, handle, Number(stat.size))).toBeUndefined();
      expect(await scanEndOf(`${file}.${MAX_SCANNED_TRANSCRIPTS - 1}`, stat, handle, Number(stat.size))).toBe(end);
    } finally {
      await handle.close();
    }
  });
});
