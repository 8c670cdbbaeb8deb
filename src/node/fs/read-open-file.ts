import type { FileHandle } from 'node:fs/promises';

/**
 * Reads an open regular file's first `size` bytes (its size when it was checked), however it
 * changes meanwhile: a file that grows while read, or that reported size 0 and grows for ever,
 * costs no more than `size` bytes (where `FileHandle.readFile` reads a size-0 file to its end).
 * A file that shrank gives fewer.
 */
export async function readOpenFile(handle: FileHandle, size: number): Promise<Buffer> {
  const buffer = Buffer.alloc(size);
  let position = 0;
  while (position < size) {
    const { bytesRead } = await handle.read(buffer, position, size - position, position);
    if (bytesRead === 0) break;
    position += bytesRead;
  }
  return position === size ? buffer : buffer.subarray(0, position);
}
