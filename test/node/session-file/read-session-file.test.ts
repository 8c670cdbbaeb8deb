import { readdirSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSessionFile } from '../../../src/node/session-file/read-session-file.js';
import type { SessionStoreWarning } from '../../../src/session/session-store.js';
import type { SessionEntry } from '../../../src/state/entries.js';
import { createSessionState } from '../../../src/state/session-state.js';
import { entryMaker } from '../../../src/testing/store-conformance/conformance-entries.js';
import { tempDirs } from '../../temp-dirs.js';

const tempDir = tempDirs();

const dir = tempDir('read-session-file-');
const entry = (id: string, text = id) => JSON.stringify({ $schemaVersion: 2, id, text });
// Enough valid lines in front to push a file past the size read in one go (256 KiB), so that the
// same content is read both ways: whole, and streamed through a line reader.
const PADDING = Array.from({ length: 300 }, (_, index) => entry(`pad-${index}`, 'x'.repeat(1000)));

async function read(content: string | Buffer): Promise<{ ids: string[]; texts: string[]; warnings: SessionStoreWarning[] }> {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(file, content);
  const warnings: SessionStoreWarning[] = [];
  const ids: string[] = [];
  const texts: string[] = [];
  for await (const read of readSessionFile({ file, sessionId: 's', onWarning: (warning) => warnings.push(warning) })) {
    const { id, text } = read as unknown as { id: string; text: string };
    ids.push(id);
    texts.push(text);
  }
  return { ids, texts, warnings };
}

/** Reads `content` alone (whole) and behind the padding (streamed): the two must agree. */
async function bothWays(content: string | Buffer) {
  const small = await read(content);
  const padded = Buffer.concat([Buffer.from(PADDING.join('\n') + '\n'), Buffer.from(content)]);
  expect(padded.length).toBeGreaterThan(256 * 1024);
  const large = await read(padded);
  expect(large.ids.slice(0, PADDING.length)).toEqual(PADDING.map((_, index) => `pad-${index}`));
  expect({ ids: large.ids.slice(PADDING.length), texts: large.texts.slice(PADDING.length) }).toEqual({ ids: small.ids, texts: small.texts });
  expect(large.warnings.map((warning) => ({ ...warning, line: warning.line! - PADDING.length, message: warning.message.replace(/line \d+/g, 'line N').replace(/\(\d+\)/g, '(N)').replace(/[^ ]*\.jsonl/, 'FILE') })))
    .toEqual(small.warnings.map((warning) => ({ ...warning, message: warning.message.replace(/line \d+/g, 'line N').replace(/\(\d+\)/g, '(N)').replace(/[^ ]*\.jsonl/, 'FILE') })));
  return small;
}

describe('readSessionFile reads a small file whole and a large one streamed, with the same result', () => {
  it('lines ending in \\n, \\r\\n or a lone \\r, and blank lines', async () => {
    const result = await bothWays(`${entry('a')}\r\n\n${entry('b')}\r${entry('c')}\n   \n${entry('d')}\n`);
    expect(result.ids).toEqual(['a', 'b', 'c', 'd']);
    expect(result.warnings).toEqual([]);
  });

  it('a byte order mark at the start of the file (an editor saved it)', async () => {
    expect((await read(`\uFEFF${entry('a')}\n${entry('b')}\n`)).ids).toEqual(['a', 'b']);
    expect((await read(`\uFEFF${PADDING.join('\n')}\n${entry('b')}\n`)).ids.slice(0, 1)).toEqual(['pad-0']);
  });

  it('a complete last line without its newline is kept; one cut short is skipped with a warning that says so', async () => {
    expect((await bothWays(`${entry('a')}\n${entry('b')}`)).ids).toEqual(['a', 'b']);
    const torn = await bothWays(`${entry('a')}\n${entry('b').slice(0, 10)}`);
    expect(torn.ids).toEqual(['a']);
    expect(torn.warnings).toMatchObject([{ line: 2, message: expect.stringContaining('cut short') }]);
  });

  it('damage in the middle is skipped with its line number; non-ASCII text and invalid UTF-8 bytes decode alike', async () => {
    const damaged = await bothWays(`${entry('a', 'é 😀 中')}\nnot json\n[1]\n${entry('b')}\n`);
    expect(damaged.ids).toEqual(['a', 'b']);
    expect(damaged.texts[0]).toBe('é 😀 中');
    expect(damaged.warnings.map((warning) => warning.line)).toEqual([2, 3]);
    const invalid = await bothWays(Buffer.concat([Buffer.from(`${entry('a')}\n{"$schemaVersion":2,"id":"b","text":"`), Buffer.from([0xff, 0xfe]), Buffer.from('"}\n')]));
    expect(invalid.ids).toEqual(['a', 'b']);
    expect(invalid.texts[1]).toBe('\uFFFD\uFFFD');
  });

  it('yields nothing for a file that is empty or holds only line breaks', async () => {
    expect((await read('')).ids).toEqual([]);
    expect((await read('\n\r\n')).ids).toEqual([]);
  });
});

describe('readSessionFile from a checkpoint: the lines after its line break, whatever the break', () => {
  it('gives the checkpoint (parsed to pick it) and every line after it, with \\n, \\r\\n and lone \\r breaks, and when nothing follows it', async () => {
    const make = entryMaker('s');
    const checkpoint = () => make.next({ kind: 'checkpoint', state: createSessionState({ sessionId: 's' }), reason: 'compaction' });
    const entries = [checkpoint(), make.userText('x'.repeat(300_000)), make.userText('one'), checkpoint(), make.userText('two'), make.userText('three')];
    for (const lineBreak of ['\n', '\r\n', '\r']) {
      for (const count of [entries.length, 4]) {
        const file = join(dir, `${Math.random().toString(36).slice(2)}.jsonl`);
        const last = count === 4 ? '' : lineBreak;
        writeFileSync(file, entries.slice(0, count).map((each) => JSON.stringify(each)).join(lineBreak) + last);
        const loaded: SessionEntry[] = [];
        for await (const each of readSessionFile({ file, sessionId: 's', fromCheckpoint: {} })) loaded.push(each);
        expect(loaded).toEqual(entries.slice(3, count));
      }
    }
  });
});

describe('readSessionFile reads the first 64 KiB with the file status, and the rest after', () => {
  const PREFETCH = 64 * 1024;

  /** Lines of `size` bytes in all (each line ended by \n), one of them across byte 65,536 when `across`. */
  function fileOf(size: number): { content: string; ids: string[] } {
    const ids: string[] = [];
    let content = '';
    for (let index = 0; ; index++) {
      const id = `e${index}`;
      const line = `${entry(id, 'y'.repeat(997))}\n`;
      if (content.length + line.length > size) {
        // The last line fills the file to `size` exactly (its text as long as that takes).
        const rest = size - content.length;
        const bare = `${entry(id, '')}\n`.length;
        if (rest >= bare) {
          content += `${entry(id, 'z'.repeat(rest - bare))}\n`;
          ids.push(id);
        } else content += '\n'.repeat(rest);
        return { content, ids };
      }
      content += line;
      ids.push(id);
    }
  }

  it('every line of a file of 64 KiB and a byte either side, with a line across the 64 KiB mark, and beyond', async () => {
    for (const size of [PREFETCH - 1, PREFETCH, PREFETCH + 1, PREFETCH + 500, 3 * PREFETCH + 7]) {
      const { content, ids } = fileOf(size);
      expect(Buffer.byteLength(content)).toBe(size);
      const result = await read(content);
      expect(result.ids).toEqual(ids);
      expect(result.warnings).toEqual([]);
    }
    // Without the last newline: the file's last byte (past the mark) is still read.
    for (const size of [PREFETCH + 1, PREFETCH + 2]) {
      const { content, ids } = fileOf(size + 1);
      expect((await read(content.slice(0, -1))).ids).toEqual(ids);
    }
    // A line across the mark that is cut short (a crash mid-write) is still told apart from a whole one.
    const { content } = fileOf(PREFETCH + 300);
    const torn = content.slice(0, PREFETCH + 10);
    const result = await read(torn);
    expect(result.warnings).toMatchObject([{ message: expect.stringContaining('cut short') }]);
    expect(result.ids.length).toBe(content.slice(0, PREFETCH + 10).split('\n').length - 1);
  });

  it.skipIf(process.platform !== 'linux')('leaves no descriptor of the file open, read to its end or left after its first entries', async () => {
    const openOn = (file: string) => readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`) === file;
      } catch {
        return false;
      }
    }).length;
    for (const size of [1000, 3 * PREFETCH]) {
      const file = join(dir, `fds-${size}.jsonl`);
      writeFileSync(file, fileOf(size).content);
      let read = 0;
      for await (const _ of readSessionFile({ file, sessionId: 's' })) read++;
      expect(read).toBeGreaterThan(0);
      expect(openOn(file)).toBe(0);
      for await (const _ of readSessionFile({ file, sessionId: 's' })) break;
      expect(openOn(file)).toBe(0);
    }
  });

  it.skipIf(process.platform === 'win32')('reads through a link to a file of the same name elsewhere; refuses one to another name', async () => {
    const elsewhere = tempDir('read-session-file-elsewhere-');
    writeFileSync(join(elsewhere, 'linked.jsonl'), `${entry('a')}\n${entry('b')}\n`);
    const file = join(dir, 'linked.jsonl');
    symlinkSync(join(elsewhere, 'linked.jsonl'), file);
    const ids: string[] = [];
    for await (const each of readSessionFile({ file, sessionId: 'linked' })) ids.push((each as unknown as { id: string }).id);
    expect(ids).toEqual(['a', 'b']);
    const other = join(dir, 'other.jsonl');
    symlinkSync(join(elsewhere, 'linked.jsonl'), other);
    await expect(async () => {
      for await (const _ of readSessionFile({ file: other, sessionId: 'other' })) void _;
    }).rejects.toThrow(/another session's name/);
  });
});

describe('readSessionFile while another writer appends', () => {
  it('a last line cut short where the load began, that another writer finishes as it reads, is left out without a warning; one that stays cut short is reported', async () => {
    for (const padded of [false, true]) {
      for (const finished of [true, false]) {
        const file = join(dir, `writing-${padded}-${finished}.jsonl`);
        const before = padded ? PADDING.join('\n') + '\n' : '';
        writeFileSync(file, `${before}${entry('done')}\n${entry('writing').slice(0, 20)}`);
        const ids: string[] = [];
        const warnings: SessionStoreWarning[] = [];
        for await (const each of readSessionFile({ file, sessionId: 's', onWarning: (warning) => warnings.push(warning) })) {
          const { id } = each as unknown as { id: string };
          ids.push(id);
          // The writer finishes its line once the load has read past the entries before it.
          if (id === 'done' && finished) await appendFile(file, `${entry('writing').slice(20)}\n`);
        }
        const label = `${padded ? 'read in pieces' : 'read whole'}, ${finished ? 'finished meanwhile' : 'still cut short'}`;
        expect(ids.at(-1), label).toBe('done');
        if (finished) expect(warnings, label).toEqual([]);
        else expect(warnings, label).toMatchObject([{ message: expect.stringContaining('cut short') }]);
      }
    }
  });

  it('every load gives whole entries, a prefix of what was appended, while the file grows past the first 64 KiB read', async () => {
    const file = join(dir, 'growing.jsonl');
    writeFileSync(file, '');
    const written: string[] = [];
    let appending = true;
    const appender = (async () => {
      for (let index = 0; index < 400; index++) {
        const id = `g${index}`;
        written.push(id);
        // Lines of 50 to 1,500 bytes, one write each (as the store appends).
        await appendFile(file, `${entry(id, 'w'.repeat(50 + ((index * 397) % 1450)))}\n`);
      }
      appending = false;
    })();
    let loads = 0;
    while (appending || loads < 3) {
      const ids: string[] = [];
      const warnings: SessionStoreWarning[] = [];
      for await (const each of readSessionFile({ file, sessionId: 's', onWarning: (warning) => warnings.push(warning) })) ids.push((each as unknown as { id: string }).id);
      expect(warnings).toEqual([]);
      expect(ids).toEqual(written.slice(0, ids.length));
      loads++;
    }
    await appender;
    expect(statSync(file).size).toBeGreaterThan(3 * 64 * 1024);
    expect(loads).toBeGreaterThan(3);
  });
});
