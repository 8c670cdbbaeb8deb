import { open, type FileHandle } from 'node:fs/promises';

/**
 * Makes a directory's entries durable (`fsync` of the directory): a new name, or a rename into
 * it, survives a crash of the machine. Not every platform can open a directory (Windows refuses),
 * so best effort: the file's own data is synced either way.
 */
export async function syncDirectory(directory: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(directory, 'r');
    await handle.sync();
  } catch {
    // Refused: nothing more can be done here.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
