import { constants, mkdtempSync, readdirSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import type * as FsPromises from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { readSessionFile } from '../../../src/node/session-file/read-session-file.js';

// The transcript's name is checked while it opens: what it opens before the check passed is seen here.
const opens = vi.hoisted(() => [] as Array<{ path: string; flags: number }>);
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof FsPromises>();
  return {
    ...actual,
    open: (path: string, flags: number, mode?: number) => {
      opens.push({ path: String(path), flags });
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

const dir = mkdtempSync(join(tmpdir(), 'read-session-file-opens-'));
const elsewhere = mkdtempSync(join(tmpdir(), 'read-session-file-opens-elsewhere-'));
const followsLinks = (flags: number) => (flags & constants.O_NOFOLLOW) === 0;

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
    const open = readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`) === file;
      } catch {
        return false;
      }
    });
    expect(open).toEqual([]);
  });

  it('a link to a file of the same name: opened through the link once the check let it through', async () => {
    const file = join(dir, 'target.jsonl');
    symlinkSync(join(elsewhere, 'target.jsonl'), file);
    opens.length = 0;
    expect(await idsOf(file, 'target')).toEqual(['a']);
    expect(opens.filter((each) => each.path === file).map((each) => followsLinks(each.flags))).toEqual([false, true]);
  });
});
