import { constants, existsSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import type * as FsPromises from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { readSessionFile } from '../../../src/node/session-file/read-session-file.js';
import { SessionFileWriter } from '../../../src/node/session-file/session-file-writer.js';
import { tempDirs } from '../../temp-dirs.js';

const tempDir = tempDirs();

// A transcript's name is checked while it opens (a load, a writer's first append): what is opened before the check passed is seen here.
const opens = vi.hoisted(() => [] as Array<{ path: string; flags: number }>);
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof FsPromises>();
  return {
    ...actual,
    open: (path: string, flags: number | string, mode?: number) => {
      opens.push({ path: String(path), flags: typeof flags === 'number' ? flags : -1 });
      return actual.open(path, flags, mode);
    },
  };
});

// A name the check refuses although the file opens (as on a case-insensitive file system, where
// "Alias.jsonl" opens "alias.jsonl"): stood in for here by refusing one name.
vi.mock('../../../src/node/session-file/assert-own-session-file.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../src/node/session-file/assert-own-session-file.js')>();
  return {
    ...actual,
    assertOwnSessionFile: async (file: string, sessionId: string) => {
      if (file.endsWith('alias.jsonl')) throw new Error(`${file} is another session's name (stand-in)`);
      return actual.assertOwnSessionFile(file, sessionId);
    },
  };
});

const dir = tempDir('read-session-file-opens-');
const elsewhere = tempDir('read-session-file-opens-elsewhere-');
/** -1: opened by a mode string ('a+': follows links, creates). */
const followsLinks = (flags: number) => flags === -1 || (flags & constants.O_NOFOLLOW) === 0;

/** Descriptors of this process open on `file` (Linux). */
const openOn = (file: string) =>
  readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === file;
    } catch {
      return false;
    }
  }).length;

async function idsOf(file: string, sessionId: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const each of readSessionFile({ file, sessionId })) ids.push((each as unknown as { id: string }).id);
  return ids;
}

describe.skipIf(process.platform === 'win32')('readSessionFile opens nothing through a link before the check of its name passed', () => {
  writeFileSync(join(elsewhere, 'target.jsonl'), `${JSON.stringify({ $schemaVersion: 2, id: 'a' })}\n`);

  it('a regular file: opened once, without following a link', async () => {
    const file = join(dir, 'plain.jsonl');
    writeFileSync(file, `${JSON.stringify({ $schemaVersion: 2, id: 'p' })}\n`);
    opens.length = 0;
    expect(await idsOf(file, 'plain')).toEqual(['p']);
    expect(opens.filter((each) => each.path === file).map((each) => followsLinks(each.flags))).toEqual([false]);
  });

  it("a link to another session's name: refused, and never opened through the link", async () => {
    const file = join(dir, 'other.jsonl');
    symlinkSync(join(elsewhere, 'target.jsonl'), file);
    opens.length = 0;
    await expect(idsOf(file, 'other')).rejects.toThrow(/another session's name/);
    expect(opens.filter((each) => each.path === file).length).toBeGreaterThan(0);
    expect(opens.filter((each) => each.path === file && followsLinks(each.flags))).toEqual([]);
  });

  it.skipIf(process.platform !== 'linux')('a file that opens under a name the check refuses: closed again, nothing read', async () => {
    const file = join(dir, 'alias.jsonl');
    writeFileSync(file, `${JSON.stringify({ $schemaVersion: 2, id: 'a' })}\n`);
    await expect(idsOf(file, 'alias')).rejects.toThrow(/another session's name/);
    expect(openOn(file)).toBe(0);
  });

  it('a link to a file of the same name: opened through the link once the check let it through', async () => {
    const file = join(dir, 'target.jsonl');
    symlinkSync(join(elsewhere, 'target.jsonl'), file);
    opens.length = 0;
    expect(await idsOf(file, 'target')).toEqual(['a']);
    expect(opens.filter((each) => each.path === file).map((each) => followsLinks(each.flags))).toEqual([false, true]);
  });
});

const writerDir = tempDir('session-file-writer-opens-');
const writerElsewhere = tempDir('session-file-writer-opens-elsewhere-');
const creates = (flags: number) => flags === -1 || (flags & constants.O_CREAT) !== 0;
const line = (id: string, seq: number) => `${JSON.stringify({ $schemaVersion: 2, id, seq, kind: 'run-start', runId: 'r' })}\n`;

async function appendTo(file: string, sessionId: string): Promise<number> {
  const writer = await SessionFileWriter.open({ sessionId, file, fsync: false });
  try {
    await writer.append(Buffer.from(line(`${sessionId}-new`, writer.revision + 1)), writer.revision + 1, `${sessionId}-new`, []);
    return writer.revision;
  } finally {
    await writer.close();
  }
}

describe.skipIf(process.platform === 'win32')('a writer of an existing transcript opens it while its name is checked, never through a link before the check', () => {
  writeFileSync(join(writerElsewhere, 'target.jsonl'), line('a', 1));
  writeFileSync(join(writerElsewhere, 'other-target.jsonl'), line('a', 1));

  it('a regular file: opened once, without following a link or creating anything, and counted', async () => {
    const file = join(writerDir, 'plain.jsonl');
    writeFileSync(file, line('p', 1) + line('q', 2));
    opens.length = 0;
    expect(await appendTo(file, 'plain')).toBe(3);
    expect(opens.filter((each) => each.path === file).map((each) => [followsLinks(each.flags), creates(each.flags)])).toEqual([[false, false]]);
    expect(readFileSync(file, 'utf8').split('\n').filter(Boolean)).toHaveLength(3);
  });

  it("a link to another session's name: refused, never opened through the link, nothing left open", async () => {
    const file = join(writerDir, 'other.jsonl');
    symlinkSync(join(writerElsewhere, 'other-target.jsonl'), file);
    opens.length = 0;
    await expect(appendTo(file, 'other')).rejects.toThrow(/another session's name/);
    expect(opens.filter((each) => each.path === file && followsLinks(each.flags))).toEqual([]);
    if (process.platform === 'linux') expect(openOn(join(writerElsewhere, 'other-target.jsonl'))).toBe(0);
    expect(readFileSync(join(writerElsewhere, 'other-target.jsonl'), 'utf8')).toBe(line('a', 1));
  });

  it.skipIf(process.platform !== 'linux')("a file that opens under a name the check refuses: closed again, untouched", async () => {
    const file = join(writerDir, 'alias.jsonl');
    writeFileSync(file, line('a', 1));
    await expect(appendTo(file, 'alias')).rejects.toThrow(/another session's name/);
    expect(openOn(file)).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(line('a', 1));
  });

  it('a link to a file of the same name: opened through the link once the check let it through', async () => {
    const file = join(writerDir, 'target.jsonl');
    symlinkSync(join(writerElsewhere, 'target.jsonl'), file);
    opens.length = 0;
    expect(await appendTo(file, 'target')).toBe(2);
    // (The open made while the name is checked, then the writer's own open of a link: neither follows it; then, checked, through it.)
    expect(opens.filter((each) => each.path === file).map((each) => followsLinks(each.flags))).toEqual([false, false, true]);
  });

  it('nothing at the path: nothing created before the first append, and nothing left open', async () => {
    const file = join(writerDir, 'missing.jsonl');
    const writer = await SessionFileWriter.open({ sessionId: 'missing', file, fsync: false });
    expect(existsSync(file)).toBe(false);
    expect(writer.revision).toBe(0);
    await writer.close();
  });
});
