import type { BigIntStats } from 'node:fs';
import type { ReadAt } from './prefetched-reads.js';
import type { ScanEnd } from './find-checkpoint-start.js';

/** The most transcripts whose scan a process keeps (the least recently scanned go first). */
export const MAX_SCANNED_TRANSCRIPTS = 256;

/** A scan with more candidates than this is not kept (each holds 1 KiB of its line). */
const MAX_KEPT_CANDIDATES = 64;

/**
 * Where the byte scans of transcripts (for a load from the last checkpoint) ended, by file: a
 * resume of a session this process read before scans only what was appended since, instead of the
 * whole file again. Kept per process, so a store (and an agent) made per request finds it.
 */
const scanned = new Map<string, { dev: bigint; ino: bigint; end: ScanEnd }>();

/**
 * Where a scan of `file` (open as `handle`, its status `stat`, `size` bytes to read) may go on
 * from: the end of the last scan of the same file (device and inode) when the file still holds, where
 * that scan ended, the last bytes it read there (one read of at most 256 bytes), and is no shorter.
 * Undefined otherwise: the file is scanned from its start. What a file rewritten before that end
 * with the same last bytes holds there is not looked at again.
 */
export async function scanEndOf(file: string, stat: BigIntStats, handle: ReadAt, size: number): Promise<ScanEnd | undefined> {
  const kept = scanned.get(file);
  if (kept === undefined || kept.dev !== stat.dev || kept.ino !== stat.ino || kept.end.size > size) return undefined;
  const { tail } = kept.end;
  const read = Buffer.alloc(tail.length);
  const { bytesRead } = await handle.read(read, 0, tail.length, kept.end.size - tail.length);
  if (bytesRead !== tail.length || !read.equals(tail)) {
    scanned.delete(file);
    return undefined;
  }
  return kept.end;
}

/** Keeps where a scan of `file` (its status `stat`) ended, within the bounds. */
export function keepScanEnd(file: string, stat: BigIntStats, end: ScanEnd): void {
  scanned.delete(file);
  if (end.candidates.length > MAX_KEPT_CANDIDATES) return;
  scanned.set(file, { dev: stat.dev, ino: stat.ino, end });
  for (const oldest of scanned.keys()) {
    if (scanned.size <= MAX_SCANNED_TRANSCRIPTS) break;
    scanned.delete(oldest);
  }
}

/** Forgets every scan kept (for tests). @internal */
export function forgetScanEnds(): void {
  scanned.clear();
}
