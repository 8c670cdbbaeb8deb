/** What the transcript readers need of a file: positioned reads, as `FileHandle.read` makes them. */
export interface ReadAt {
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
}

/**
 * Reads of a file whose first bytes were read already (`bytes`, from position 0): what they hold
 * is copied from them, and only the rest of a read goes to `handle`. Without a handle (the file
 * was closed once `bytes` held all of it that is read), a read ends where `bytes` end, as the
 * file would have ended.
 */
export function prefetchedReads(bytes: Buffer, handle: ReadAt | undefined): ReadAt {
  return {
    async read(buffer, offset, length, position) {
      const held = Math.max(0, Math.min(length, bytes.length - position));
      if (held > 0) bytes.copy(buffer, offset, position, position + held);
      if (held === length || handle === undefined) return { bytesRead: held };
      const { bytesRead } = await handle.read(buffer, offset + held, length - held, position + held);
      return { bytesRead: held + bytesRead };
    },
  };
}
