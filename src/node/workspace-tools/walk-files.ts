import type { Dirent } from 'node:fs';
import path from 'node:path';
import { isGitignored, parseGitignore, type GitignoreFile } from './gitignore-rules.js';
import type { SearchBudget } from './search-budget.js';
import { listDirectory } from './list-directory.js';
import { readRegularFile } from '../fs/read-regular-file.js';

/** A file found by {@link walkFiles}. */
export interface WalkedFile {
  /** Absolute path. */
  absolutePath: string;
  /** Path relative to the walk's root, with `/` separators. */
  relativePath: string;
  /** The entry is a symbolic link (never followed). */
  isSymbolicLink: boolean;
}

/** Options of {@link walkFiles}. */
export interface WalkFilesOptions {
  /** The directory to walk (already resolved and authorized). */
  root: string;
  /**
   * The outermost directory whose `.gitignore` files apply (the workspace root holding `root`);
   * `.gitignore` files between it and `root` are read too.
   * @default root
   */
  ignoreRoot?: string;
  /** Stops the walk when aborted. */
  signal?: AbortSignal;
  /**
   * Bounds the walk: every directory entry read is counted, and the walk ends (without an error)
   * once the budget is spent; `budget.exhausted` tells the caller its result is partial.
   * @default unbounded
   */
  budget?: SearchBudget;
  /**
   * Called for each entry whose name is not valid UTF-8: it is left out (a directory's files
   * too), since no path string names it (its name decodes to U+FFFD).
   */
  onUnnameable?: (relativePath: string) => void;
  /**
   * Called for each directory that could not be listed (its files are left out): `reason` is the
   * error's code (`EACCES`), or `changed` for one that was no longer the directory found (swapped
   * for a symbolic link meanwhile). One removed meanwhile is passed over silently.
   */
  onUnreadable?: (relativePath: string, reason: string) => void;
}

/** Directory names never descended into. */
export const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set(['.git', 'node_modules']);

async function readGitignore(directory: string): Promise<GitignoreFile | undefined> {
  // Not through a link, nor waiting on a FIFO swapped in after the listing (readRegularFile).
  try {
    const text = await readRegularFile(path.join(directory, '.gitignore'));
    return text === undefined ? undefined : parseGitignore(directory, text);
  } catch {
    return undefined;
  }
}

async function ancestorGitignores(root: string, ignoreRoot: string): Promise<GitignoreFile[]> {
  const relative = path.relative(ignoreRoot, root);
  if (relative === '' || relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) return [];
  const files: GitignoreFile[] = [];
  let directory = ignoreRoot;
  for (const segment of relative.split(path.sep).slice(0, -1)) {
    const file = await readGitignore(directory);
    if (file) files.push(file);
    directory = path.join(directory, segment);
  }
  const parent = await readGitignore(directory);
  if (parent) files.push(parent);
  return files;
}

/**
 * Lists the files below `root`, directory by directory in name order (a directory's files
 * before its subdirectories'), without following symbolic links,
 * skipping `.git` and `node_modules` directories and whatever the `.gitignore` files of `root`,
 * its subdirectories and its ancestors up to `ignoreRoot` exclude. Directories that cannot be
 * listed (or are no longer the directory found, see `listDirectory`) are skipped and reported to
 * `onUnreadable`. With a `budget`, stops early once it is spent.
 */
export async function* walkFiles(options: WalkFilesOptions): AsyncGenerator<WalkedFile> {
  const { root, signal, budget } = options;
  const inherited = await ancestorGitignores(root, options.ignoreRoot ?? root);
  const stack: Array<{ directory: string; relative: string; ignores: GitignoreFile[] }> = [
    { directory: root, relative: '', ignores: inherited },
  ];
  while (stack.length > 0) {
    signal?.throwIfAborted();
    const { directory, relative, ignores: parentIgnores } = stack.pop()!;
    const listing = await listDirectory(directory);
    if (!listing.ok) {
      if (listing.reason !== 'gone') options.onUnreadable?.(relative === '' ? '.' : relative, listing.reason);
      continue;
    }
    const raw = listing.entries;
    const entries: Array<{ name: string; entry: Dirent<Buffer> }> = [];
    for (const entry of raw) {
      const name = entry.name.toString('utf8');
      // Not valid UTF-8: the decoded name names another file (or none). A real U+FFFD round-trips.
      if (name.includes('\uFFFD') && !Buffer.from(name, 'utf8').equals(entry.name)) {
        if (budget && !budget.visit()) return;
        options.onUnnameable?.(relative === '' ? name : `${relative}/${name}`);
        continue;
      }
      entries.push({ name, entry });
    }
    const own = entries.some(({ name }) => name === '.gitignore') ? await readGitignore(directory) : undefined;
    const ignores = own ? [...parentIgnores, own] : parentIgnores;
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirectories: typeof stack = [];
    for (const { name, entry } of entries) {
      if (budget && !budget.visit()) return;
      const absolutePath = path.join(directory, name);
      const relativePath = relative === '' ? name : `${relative}/${name}`;
      if (entry.isDirectory()) {
        if (SKIPPED_DIRECTORIES.has(name) || isGitignored(ignores, absolutePath, true)) continue;
        subdirectories.push({ directory: absolutePath, relative: relativePath, ignores });
      } else if (entry.isFile() || entry.isSymbolicLink()) {
        if (isGitignored(ignores, absolutePath, false)) continue;
        yield { absolutePath, relativePath, isSymbolicLink: entry.isSymbolicLink() };
      }
    }
    for (let index = subdirectories.length - 1; index >= 0; index--) stack.push(subdirectories[index]!);
  }
}
