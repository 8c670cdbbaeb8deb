import type { FileHandle } from 'node:fs/promises';

/** Why {@link readUnsizedFile} gave up on a file. */
export type UnsizedFileRefusal = 'too-large' | 'would-block' | 'interrupted';

/**
 * Reads a regular file that reports size 0 to its end, but no further than `maxBytes`: procfs and
 * sysfs files (`/proc/<pid>/status`) report 0 and hold text. Some such files are streams whose
 * read waits for data (tracefs `trace_pipe`, `/proc/kmsg`): opened with `O_NONBLOCK` (as
 * `openCheckedFile` opens for reading) their read fails with `EAGAIN` instead of waiting, and the
 * file is given up (`would-block`) rather than failing the whole search. `signal` is checked
 * between chunks, so a file that trickles data for ever stops with the call.
 * @returns the bytes, or why it gave up.
 */
export async function readUnsizedFile(handle: FileHandle, maxBytes: number, signal?: AbortSignal): Promise<Buffer | UnsizedFileRefusal> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    if (signal?.aborted) return 'interrupted';
    const chunk = Buffer.alloc(64 * 1024);
    let bytesRead: number;
    try {
      ({ bytesRead } = await handle.read(chunk, 0, chunk.length, null));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException | null)?.code;
      if (code === 'EAGAIN' || code === 'EWOULDBLOCK') return 'would-block';
      throw error;
    }
    if (bytesRead === 0) return Buffer.concat(chunks, total);
    total += bytesRead;
    if (total > maxBytes) return 'too-large';
    chunks.push(chunk.subarray(0, bytesRead));
  }
}
