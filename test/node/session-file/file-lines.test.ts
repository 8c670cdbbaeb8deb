// fileLines reads a file in pieces and must give exactly the lines of the whole file decoded at
// once, wherever a piece ends: inside a multi-byte character, between the `\r` and `\n` of a
// `\r\n`, right after a lone `\r`, inside a line longer than a piece. The reference is the whole
// file decoded and split as readline splits it.
import fc from 'fast-check';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileLines, FILE_LINE_CHUNK_BYTES } from '../../../src/node/session-file/file-lines.js';

const dir = mkdtempSync(join(tmpdir(), 'file-lines-'));
let files = 0;

/** The lines of `bytes` decoded whole: split at \r\n, \n and a lone \r, nothing after a final break. */
function reference(bytes: Buffer): string[] {
  if (bytes.length === 0) return [];
  const lines = bytes.toString('utf8').split(/\r\n|\n|\r/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

async function linesOf(bytes: Buffer, chunkBytes?: number, size = bytes.length): Promise<{ lines: string[]; batches: number }> {
  const file = join(dir, `f${files++}`);
  writeFileSync(file, bytes);
  const handle = await open(file);
  try {
    const lines: string[] = [];
    let batches = 0;
    for await (const batch of fileLines(handle, size, chunkBytes)) {
      expect(batch.length).toBeGreaterThan(0);
      batches++;
      lines.push(...batch);
    }
    return { lines, batches };
  } finally {
    await handle.close();
  }
}

describe('fileLines', () => {
  it('gives the lines of the whole file for any content and any size of read (property)', async () => {
    const part = fc.oneof(
      fc.constantFrom('\n', '\r\n', '\r', '\r\r\n', 'é', '😀', '中', '{"a":1}', ' ', ''),
      fc.string({ maxLength: 6 }),
      fc.uint8Array({ minLength: 1, maxLength: 3 }).map((bytes) => Buffer.from(bytes)),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(part, { maxLength: 40 }), fc.integer({ min: 1, max: 9 }), async (parts, chunkBytes) => {
        const bytes = Buffer.concat(parts.map((value) => (typeof value === 'string' ? Buffer.from(value) : value)));
        expect((await linesOf(bytes, chunkBytes)).lines).toEqual(reference(bytes));
      }),
      { numRuns: 300 },
    );
  });

  it('a \\r\\n split between two reads is one line break; a lone \\r at the end of a read is one too', async () => {
    expect((await linesOf(Buffer.from('ab\r\ncd\r\n'), 3)).lines).toEqual(['ab', 'cd']);
    expect((await linesOf(Buffer.from('ab\rcd\r'), 3)).lines).toEqual(['ab', 'cd']);
    expect((await linesOf(Buffer.from('ab\r'), 3)).lines).toEqual(['ab']);
    expect((await linesOf(Buffer.from('\n\r\n'), 1)).lines).toEqual(['', '']);
  });

  it('a character split between two reads is decoded whole; an incomplete one at the end is U+FFFD', async () => {
    const text = '😀é中\n';
    for (let chunk = 1; chunk <= 4; chunk++) expect((await linesOf(Buffer.from(text), chunk)).lines).toEqual(['😀é中']);
    expect((await linesOf(Buffer.from([0x61, 0xf0, 0x9f]), 2)).lines).toEqual(['a\uFFFD']);
  });

  it('reads only the size it is given (what a later append added is not read)', async () => {
    expect((await linesOf(Buffer.from('one\ntwo\nthree\n'), 4, 8)).lines).toEqual(['one', 'two']);
    // A file cut shorter than the size given ends early, without error.
    expect((await linesOf(Buffer.from('one\ntw'), 4, 100)).lines).toEqual(['one', 'tw']);
  });

  it('reads a large file in pieces of 64 KiB (decoded pieces stay below V8\'s large-object size) and lines longer than a piece whole', async () => {
    expect(FILE_LINE_CHUNK_BYTES).toBeLessThan(128 * 1024);
    const long = 'x'.repeat(3 * FILE_LINE_CHUNK_BYTES + 17);
    const lines = Array.from({ length: 40 }, (_, index) => (index % 7 === 3 ? long : `{"line":${index},"text":"${'é'.repeat(index * 300)}"}`));
    const bytes = Buffer.from(`${lines.join('\n')}\n`);
    const read = await linesOf(bytes);
    expect(read.lines).toEqual(lines);
    // One batch per read that ended at least one line.
    expect(read.batches).toBeGreaterThan(1);
    expect(read.batches).toBeLessThanOrEqual(Math.ceil(bytes.length / FILE_LINE_CHUNK_BYTES));
  });

  it('an empty file, or a size of 0, gives no lines', async () => {
    expect((await linesOf(Buffer.alloc(0))).lines).toEqual([]);
    expect((await linesOf(Buffer.from('a\n'), undefined, 0)).lines).toEqual([]);
  });
});
