// fileLines reads a file in pieces and must give exactly the lines of the whole file decoded at
// once, wherever a piece ends: inside a multi-byte character, between the `\r` and `\n` of a
// `\r\n`, right after a lone `\r`, inside a line longer than a piece. The reference is the whole
// file decoded and split as readline splits it.
import fc from 'fast-check';
import { writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileLines, FILE_LINE_CHUNK_BYTES, FILE_READ_BYTES } from '../../../src/node/session-file/file-lines.js';
import { tempDirs } from '../../temp-dirs.js';

const tempDir = tempDirs();

const dir = tempDir('file-lines-');
let files = 0;

/** The lines of `bytes` decoded whole: split at \r\n, \n and a lone \r, nothing after a final break. */
function reference(bytes: Buffer): string[] {
  if (bytes.length === 0) return [];
  const lines = bytes.toString('utf8').split(/\r\n|\n|\r/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

async function linesOf(bytes: Buffer, chunkBytes?: number, size = bytes.length, readBytes?: number): Promise<{ lines: string[]; batches: number }> {
  const file = join(dir, `f${files++}`);
  writeFileSync(file, bytes);
  const handle = await open(file);
  try {
    const lines: string[] = [];
    let batches = 0;
    for await (const batch of fileLines(handle, size, chunkBytes, 0, readBytes ?? chunkBytes)) {
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
  it('gives the lines of the whole file for any content, any size of read and any size of piece decoded (property)', async () => {
    const part = fc.oneof(
      fc.constantFrom('\n', '\r\n', '\r', '\r\r\n', 'é', '😀', '中', '{"a":1}', ' ', ''),
      fc.string({ maxLength: 6 }),
      fc.uint8Array({ minLength: 1, maxLength: 3 }).map((bytes) => Buffer.from(bytes)),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(part, { maxLength: 40 }), fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 30 }), async (parts, chunkBytes, readBytes) => {
        const bytes = Buffer.concat(parts.map((value) => (typeof value === 'string' ? Buffer.from(value) : value)));
        expect((await linesOf(bytes, chunkBytes, bytes.length, readBytes)).lines).toEqual(reference(bytes));
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

  it('lines ended by a lone \\r come out with the read that ends them (not held until the end of the file)', async () => {
    const lines = Array.from({ length: 30 }, (_, index) => `line ${index}`);
    const bytes = Buffer.from(`${lines.join('\r')}\r`);
    const read = await linesOf(bytes, 4, bytes.length, 16);
    expect(read.lines).toEqual(lines);
    expect(read.batches).toBeGreaterThanOrEqual(Math.floor(bytes.length / 16) - 1);
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

  it('reads a large file in reads of 1 MiB decoded in pieces of 64 KiB (below V8\'s large-object size), and lines longer than a piece or a read whole', async () => {
    expect(FILE_LINE_CHUNK_BYTES).toBeLessThan(128 * 1024);
    expect(FILE_READ_BYTES).toBe(16 * FILE_LINE_CHUNK_BYTES);
    const long = 'x'.repeat(3 * FILE_LINE_CHUNK_BYTES + 17);
    const longer = 'y'.repeat(FILE_READ_BYTES + 5);
    const lines = Array.from({ length: 300 }, (_, index) => (index === 150 ? longer : index % 7 === 3 ? long : `{"line":${index},"text":"${'é'.repeat(index * 30)}"}`));
    const bytes = Buffer.from(`${lines.join('\n')}\n`);
    const file = join(dir, `f${files++}`);
    writeFileSync(file, bytes);
    const handle = await open(file);
    const reads: number[] = [];
    const read = handle.read.bind(handle) as (...args: unknown[]) => Promise<{ bytesRead: number }>;
    (handle as unknown as { read: unknown }).read = async (...args: unknown[]) => {
      const result = await read(...args);
      reads.push(result.bytesRead);
      return result;
    };
    try {
      const got: string[] = [];
      let batches = 0;
      for await (const batch of fileLines(handle, bytes.length)) {
        batches++;
        got.push(...batch);
      }
      expect(got).toEqual(lines);
      // Reads of 1 MiB (the last one shorter), one batch for each read that ended a line.
      expect(reads.length).toBe(Math.ceil(bytes.length / FILE_READ_BYTES));
      expect(reads.slice(0, -1).every((bytesRead) => bytesRead === FILE_READ_BYTES)).toBe(true);
      expect(batches).toBeGreaterThan(1);
      expect(batches).toBeLessThanOrEqual(reads.length);
    } finally {
      await handle.close();
    }
  });

  it('tells the last byte of the size given once it is read, and nothing when the file is cut shorter', async () => {
    const lastOf = async (bytes: Buffer, size: number, readBytes: number): Promise<number[]> => {
      const file = join(dir, `f${files++}`);
      writeFileSync(file, bytes);
      const handle = await open(file);
      const told: number[] = [];
      try {
        for await (const batch of fileLines(handle, size, 2, 0, readBytes, (byte) => told.push(byte))) expect(batch.length).toBeGreaterThan(0);
      } finally {
        await handle.close();
      }
      return told;
    };
    for (const readBytes of [1, 3, 64]) {
      expect(await lastOf(Buffer.from('one\ntwo\n'), 8, readBytes)).toEqual([0x0a]);
      expect(await lastOf(Buffer.from('one\ntw'), 6, readBytes)).toEqual([0x77]);
      expect(await lastOf(Buffer.from('one\ntwo\n'), 5, readBytes)).toEqual([0x74]);
      expect(await lastOf(Buffer.from('one\n'), 9, readBytes)).toEqual([]);
    }
  });

  it('an empty file, or a size of 0, gives no lines', async () => {
    expect((await linesOf(Buffer.alloc(0))).lines).toEqual([]);
    expect((await linesOf(Buffer.from('a\n'), undefined, 0)).lines).toEqual([]);
  });
});
