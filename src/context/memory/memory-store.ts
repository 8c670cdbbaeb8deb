/** What kind of entry a memory path names. */
export type MemoryEntryKind = 'file' | 'directory';

/** One entry of a memory directory. */
export interface MemoryEntryInfo {
  /** The entry's name (no separators). */
  name: string;
  kind: MemoryEntryKind;
  /** Size in bytes: the file's length, or what the store reports for a directory. */
  size: number;
}

/**
 * Where the memory tool keeps its files. Paths are relative to the memory root, `/`-separated,
 * already checked by `parseMemoryPath` (`''` is the root); a store must still never reach outside
 * its root (e.g. through a symbolic link); it throws `MemoryAccessError` to refuse, which the
 * tool reports to the model. The core ships `memoryMemoryStore()`;
 * `agent-harness/node` ships `fileMemoryStore({ dir })`.
 */
export interface MemoryStore {
  /** What `path` is, or undefined when nothing is there. The root always exists. */
  stat(path: string): Promise<{ kind: MemoryEntryKind; size: number } | undefined>;
  /** The text of the file at `path`, or undefined when it is not a file. */
  readFile(path: string): Promise<string | undefined>;
  /** The entries directly inside the directory at `path` (none when it is not one). */
  list(path: string): Promise<MemoryEntryInfo[]>;
  /**
   * Writes the file at `path`, creating missing parent directories. With `exclusive`, an
   * existing entry is left alone and the answer is `exists`.
   * @returns `written`, `exists`, or `not-a-directory` when a parent is a file.
   */
  writeFile(path: string, text: string, options: { exclusive: boolean }): Promise<'written' | 'exists' | 'not-a-directory'>;
  /** Deletes the file or directory (with everything in it) at `path`; false when nothing was there. */
  delete(path: string): Promise<boolean>;
  /**
   * Moves the entry at `from` to `to`, creating missing parents of `to`.
   * @returns `renamed`, `missing` (nothing at `from`), `exists` (something at `to`) or
   *   `not-a-directory` (a parent of `to` is a file).
   */
  rename(from: string, to: string): Promise<'renamed' | 'missing' | 'exists' | 'not-a-directory'>;
}
