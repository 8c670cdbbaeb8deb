import { describe, expect, it } from 'vitest';
import { prefetchedReads, type ReadAt } from '../../../src/node/session-file/prefetched-reads.js';

/** A file of `content` read through positioned reads, counting them. */
function fileOf(content: Buffer): ReadAt & { reads: Array<[number, number]> } {
  const reads: Array<[number, number]> = [];
  return {
    reads,
    async read(buffer, offset, length, position) {
      reads.push([position, length]);
      const bytes = content.subarray(position, position + length);
      bytes.copy(buffer, offset);
      return { bytesRead: bytes.length };
    },
  };
}

async function readAt(reads: ReadAt, position: number, length: number): Promise<string> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await reads.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead).toString();
}

describe('prefetchedReads', () => {
  const content = Buffer.from('0123456789abcdefghij');

  it('gives what the bytes hold without reading the file, and reads only the rest of a read past them', async () => {
    const file = fileOf(content);
    const reads = prefetchedReads(content.subarray(0, 8), file);
    expect(await readAt(reads, 0, 8)).toBe('01234567');
    expect(await readAt(reads, 3, 4)).toBe('3456');
    expect(file.reads).toEqual([]);
    expect(await readAt(reads, 5, 10)).toBe('56789abcde');
    expect(file.reads).toEqual([[8, 7]]);
    expect(await readAt(reads, 12, 4)).toBe('cdef');
    expect(await readAt(reads, 18, 10)).toBe('ij');
    expect(await readAt(reads, 25, 3)).toBe('');
    expect(file.reads).toEqual([[8, 7], [12, 4], [18, 10], [25, 3]]);
  });

  it('writes at the offset it is given', async () => {
    const reads = prefetchedReads(content.subarray(0, 4), fileOf(content));
    const buffer = Buffer.from('..........');
    const { bytesRead } = await reads.read(buffer, 3, 6, 1);
    expect(bytesRead).toBe(6);
    expect(buffer.toString()).toBe('...123456.');
  });

  it('without a file, a read ends where the bytes end, as the file would', async () => {
    const reads = prefetchedReads(content.subarray(0, 8), undefined);
    expect(await readAt(reads, 6, 5)).toBe('67');
    expect(await readAt(reads, 8, 5)).toBe('');
    expect(await readAt(reads, 30, 5)).toBe('');
  });
});
