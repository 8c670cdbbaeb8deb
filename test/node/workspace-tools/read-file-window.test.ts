// Read of a huge file kept burning CPU after an interrupt and hashed the whole file after it had
// decided the file was binary (issue 10): stop on abort, never read more than needed.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FileHandle } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { workspaceTools } from '../../../src/node/workspace-tools.js';
import { readFileWindow } from '../../../src/node/workspace-tools/read-file-window.js';
import { callTool, fakeAgent, makeTempDir, toolNamed } from './helpers.js';

/** A file handle over `size` bytes made by `byteAt`, counting the reads. */
function fakeHandle(size: number, byteAt: (position: number) => number, onRead?: (reads: number) => void) {
  let reads = 0;
  const handle = {
    read: async (buffer: Buffer, offset: number, length: number, position: number) => {
      reads++;
      onRead?.(reads);
      const bytesRead = Math.max(0, Math.min(length, size - position));
      for (let index = 0; index < bytesRead; index++) buffer[offset + index] = byteAt(position + index);
      return { bytesRead, buffer };
    },
  } as unknown as FileHandle;
  return { handle, reads: () => reads };
}

const options = { startLine: 1, maxLines: 10, maxBytes: 1000, maxLineChars: 100, maxImageBytes: 1_000_000 };
const GIB = 1024 ** 3;

describe('readFileWindow reads no more than needed', () => {
  it('a binary file of 4 GiB: one chunk, no hash', async () => {
    const { handle, reads } = fakeHandle(4 * GIB, () => 0);
    const window = await readFileWindow(handle, options);
    expect(window.binary).toBe(true);
    expect(window.sha256).toBeUndefined();
    expect(reads()).toBe(1);
  });

  it('an image larger than the limit stops right after the limit', async () => {
    const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
    const { handle, reads } = fakeHandle(GIB, (position) => png[position] ?? 7);
    const window = await readFileWindow(handle, { ...options, maxImageBytes: 200_000 });
    expect(window.image).toEqual({ mediaType: 'image/png', data: undefined });
    expect(window.sha256).toBeUndefined();
    expect(reads()).toBeLessThanOrEqual(5);
  });

  it('an abort stops a huge text file between chunks', async () => {
    const controller = new AbortController();
    const { handle, reads } = fakeHandle(GIB, (position) => (position % 80 === 79 ? 10 : 97), (count) => {
      if (count === 3) controller.abort(new Error('interrupted by the test'));
    });
    await expect(readFileWindow(handle, { ...options, signal: controller.signal })).rejects.toThrow('interrupted by the test');
    expect(reads()).toBe(3);
  });

  it('a small text file is still read whole and hashed', async () => {
    const text = 'one\ntwo\n';
    const { handle } = fakeHandle(text.length, (position) => text.charCodeAt(position));
    const window = await readFileWindow(handle, options);
    expect(window.lines).toEqual(['one', 'two']);
    expect(window.sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('the Read tool', () => {
  let work: string;
  beforeAll(async () => {
    work = await makeTempDir('ws-read-huge-');
    // A sparse 2 GiB file: reading it whole would take seconds; its first chunk says "binary".
    const sparse = await fs.open(path.join(work, 'disk.img'), 'w');
    await sparse.truncate(2 * GIB);
    await sparse.close();
    await fs.writeFile(path.join(work, 'text.txt'), 'line\n'.repeat(1000));
  });
  afterAll(async () => {
    await fs.rm(work, { recursive: true, force: true });
  });

  it('refuses a huge binary file at once and records no read', async () => {
    const read = toolNamed(workspaceTools({ cwd: work }), 'Read');
    const agent = fakeAgent();
    // What the tool reads, counted at the file handle (every file read goes through `read`).
    const probe = await fs.open(path.join(work, 'text.txt'), 'r');
    const prototype = Object.getPrototypeOf(probe) as FileHandle;
    await probe.close();
    const read_ = vi.spyOn(prototype, 'read');
    let bytes = 0;
    let reads = 0;
    try {
      const result = await callTool(read, { file_path: 'disk.img' }, { agent });
      expect(result.text).toMatch(/is a binary file/);
      reads = read_.mock.results.length;
      for (const call of read_.mock.results) bytes += ((await call.value) as { bytesRead: number }).bytesRead;
    } finally {
      read_.mockRestore();
    }
    expect(reads).toBeGreaterThan(0);
    expect(bytes).toBeLessThanOrEqual(1024 * 1024);
    expect([...agent.state.keys()].some((key) => key.startsWith('workspace.read:'))).toBe(false);
  });

  it('an interrupted read returns an error, not content', async () => {
    const read = toolNamed(workspaceTools({ cwd: work }), 'Read');
    const controller = new AbortController();
    controller.abort();
    const result = await callTool(read, { file_path: 'text.txt' }, { signal: controller.signal });
    expect(result).toMatchObject({ isError: true, text: 'Reading text.txt was interrupted.' });
  });
});

/** A handle over `text` whose reads return at most `most` bytes (as procfs and sysfs answer), counting the reads. */
function shortReadsHandle(text: string, most: number) {
  const bytes = Buffer.from(text);
  let reads = 0;
  const handle = {
    read: async (buffer: Buffer, offset: number, length: number, position: number) => {
      reads++;
      const bytesRead = Math.max(0, Math.min(length, most, bytes.length - position));
      bytes.copy(buffer, offset, position, position + bytesRead);
      return { bytesRead, buffer };
    },
  } as unknown as FileHandle;
  return { handle, reads: () => reads };
}

describe('readFileWindow and the size known when the file was opened', () => {
  const text = Array.from({ length: 8 }, (_, index) => `line ${index + 1}`).join('\n');
  const whole = { ...options, maxLines: 100 };

  it('a short read past the known size is the end: no read only to find nothing', async () => {
    const known = fakeHandle(text.length, (position) => text.charCodeAt(position));
    const window = await readFileWindow(known.handle, { ...whole, knownSize: text.length });
    expect(known.reads()).toBe(1);
    const unknown = fakeHandle(text.length, (position) => text.charCodeAt(position));
    expect(await readFileWindow(unknown.handle, whole)).toEqual(window);
    expect(unknown.reads()).toBe(2);
    expect(window.lines).toHaveLength(8);
    expect(window.sha256).toBeDefined();
  });

  it('short reads before the known size (a file system answering in pieces) go on to the end, and the hash is of it all', async () => {
    const { handle, reads } = shortReadsHandle(text, 10);
    const window = await readFileWindow(handle, { ...whole, knownSize: text.length });
    expect(window.lines.join('\n')).toBe(text);
    expect(reads()).toBe(Math.ceil(text.length / 10));
    const { handle: plain } = shortReadsHandle(text, 1_000);
    expect((await readFileWindow(plain, whole)).sha256).toBe(window.sha256);
  });

  it('a size of 0 (procfs, sysfs) reads until a read returns nothing, whatever the reads return', async () => {
    const { handle, reads } = shortReadsHandle(text, 10);
    const window = await readFileWindow(handle, { ...whole, knownSize: 0 });
    expect(window.lines.join('\n')).toBe(text);
    expect(reads()).toBe(Math.ceil(text.length / 10) + 1);
  });

  it('a file that grew after it was opened is read to the end of what it holds at the read', async () => {
    const grown = `${text}\nline 9`;
    const { handle } = shortReadsHandle(grown, 1_000);
    const window = await readFileWindow(handle, { ...whole, knownSize: text.length });
    expect(window.lines.at(-1)).toBe('line 9');
  });
});
