import fs from 'node:fs/promises';
import path from 'node:path';
import { resolveRealPath } from './workspace-boundary.js';

/** A place git reads a repository's contents from. */
export interface GitRepositoryPlace {
  /** What git reads there: `top` (of a working tree), `git directory`, `common git directory` or `alternate object store`. */
  what: string;
  /** Real path (symbolic links resolved). */
  path: string;
}

/** The outcome of {@link gitRepositoryPlaces}. */
export interface GitRepositoryPlaces {
  /** Every place git may read the repository from: working tree tops, git directories, object stores. */
  places: GitRepositoryPlace[];
  /** Why the places could not all be known (git may read elsewhere too), when that is so. */
  unchecked?: string;
  /**
   * Set when `unchecked` is only about the repository's configuration (`core.worktree`, an
   * include): its git and common directories are all in `places`.
   */
  directoriesKnown?: true;
}

/** Largest `.git` file, `commondir` or `alternates` file read; longer ones are not checked. */
const MAX_POINTER_BYTES = 16 * 1024;
/** Nested alternates git follows (its own limit is 5). */
const MAX_ALTERNATE_DEPTH = 5;

async function readSmall(file: string): Promise<string | undefined> {
  const handle = await fs.open(file, 'r').catch(() => undefined);
  if (handle === undefined) return undefined;
  try {
    const buffer = Buffer.alloc(MAX_POINTER_BYTES + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (bytesRead > MAX_POINTER_BYTES) throw new UncheckedGitRepository(`${file} is larger than ${MAX_POINTER_BYTES} bytes`);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

class UncheckedGitRepository extends Error {
  constructor(
    message: string,
    readonly directoriesKnown = false,
  ) {
    super(message);
  }
}

const exists = (file: string) => fs.lstat(file).then(() => true, () => false);

/** Whether git would take `gitDir` for a repository (`HEAD` a ref or an object id, `objects` and `refs` in the common directory); git skips a `.git` directory that is not one and looks further up. */
async function isGitDirectory(gitDir: string, commonDir: string): Promise<boolean> {
  const head = path.join(gitDir, 'HEAD');
  const link = await fs.readlink(head).catch(() => undefined);
  const headText = link === undefined ? await readSmall(head) : `ref: ${link}`;
  if (headText === undefined || !/^(ref: refs\/|[0-9a-f]{40}\s*$|[0-9a-f]{64}\s*$)/.test(headText)) return false;
  return (await exists(path.join(commonDir, 'objects'))) && (await exists(path.join(commonDir, 'refs')));
}

/** Where a `.git` entry leads: the entry itself (links followed) or, for a `.git` file, its `gitdir:` line, relative to the file's folder. */
async function gitDirectoryOf(top: string, dotGit: string): Promise<{ gitDir: string; isFile: boolean } | undefined> {
  const stat = await fs.stat(dotGit).catch(() => undefined);
  if (stat === undefined) return { gitDir: await resolveRealPath(dotGit), isFile: false };
  if (stat.isDirectory()) return { gitDir: await fs.realpath(dotGit), isFile: false };
  if (!stat.isFile()) return undefined;
  const text = await readSmall(dotGit);
  const match = text === undefined ? null : /^gitdir: *(.*?)[\r\n]*$/.exec(text.split('\n')[0]!);
  // git stops with "invalid gitfile format" there: it reads nothing.
  if (match === null || match[1] === '') return undefined;
  return { gitDir: await resolveRealPath(path.resolve(top, match[1]!)), isFile: true };
}

/** A path named in a pointer file, relative to `base`; git's quoted form (a leading `"`) is not decoded, so it is not checked. */
async function pointedTo(line: string, base: string, file: string): Promise<string> {
  if (line.startsWith('"')) throw new UncheckedGitRepository(`${file} names a quoted path`);
  return resolveRealPath(path.resolve(base, line));
}

/** The object stores named (also nested) in `objects/info/alternates`. */
async function alternates(objectsDir: string, depth: number, out: GitRepositoryPlace[]): Promise<void> {
  const file = path.join(objectsDir, 'info', 'alternates');
  const text = await readSmall(file);
  if (text === undefined) return;
  if (depth >= MAX_ALTERNATE_DEPTH) throw new UncheckedGitRepository(`${file} nests alternates deeper than ${MAX_ALTERNATE_DEPTH} levels`);
  for (const line of text.split('\n').map((entry) => entry.trim())) {
    if (line === '' || line.startsWith('#')) continue;
    const store = await pointedTo(line, objectsDir, file);
    out.push({ what: 'alternate object store', path: store });
    await alternates(store, depth + 1, out);
  }
}

/**
 * Throws when a configuration file of the repository may move its working tree (`core.worktree`)
 * or pull in other files (`[include]`, `[includeIf]`): where git then reads is not known here.
 */
async function checkConfiguration(directory: string): Promise<void> {
  for (const name of ['config', 'config.worktree']) {
    const file = path.join(directory, name);
    const text = await readSmall(file);
    if (text !== undefined && /^\s*(\[\s*include|worktree\s*=)/im.test(text)) {
      throw new UncheckedGitRepository(`${file} sets core.worktree or includes other configuration files`, true);
    }
  }
}

/**
 * Every place git reads the repository from when it runs in `directory` (a real path), found the
 * way git discovers a repository: the nearest folder with a `.git` entry; a `.git` symbolic link
 * is followed, a `.git` file's `gitdir:` line is read (relative to the file's folder); then the
 * git directory's `commondir` (a linked worktree's main repository) and the object stores named in
 * `objects/info/alternates`. A `.git` directory that is not a repository is skipped, as git skips
 * it, and the search goes on upwards — its places are kept, so a wrong guess only asks more.
 * A configuration that sets `core.worktree` or includes other files, or a pointer in a form not
 * decoded here, makes the result `unchecked`.
 * @param directory - the real path of the directory git runs in.
 * @returns an empty `places` list when no repository is found.
 */
export async function gitRepositoryPlaces(directory: string): Promise<GitRepositoryPlaces> {
  const places: GitRepositoryPlace[] = [];
  try {
    for (let current = directory; ; ) {
      const dotGit = path.join(current, '.git');
      if (await exists(dotGit)) {
        places.push({ what: 'top', path: current });
        const found = await gitDirectoryOf(current, dotGit);
        if (found !== undefined) {
          const { gitDir, isFile } = found;
          places.push({ what: 'git directory', path: gitDir });
          const common = (await readSmall(path.join(gitDir, 'commondir')))?.split('\n')[0]!.trim();
          const commonDir = common ? await pointedTo(common, gitDir, path.join(gitDir, 'commondir')) : gitDir;
          if (commonDir !== gitDir) places.push({ what: 'common git directory', path: commonDir });
          await alternates(path.join(commonDir, 'objects'), 0, places);
          await checkConfiguration(gitDir);
          if (commonDir !== gitDir) await checkConfiguration(commonDir);
          // A `.git` file ends the search (git uses it or stops); a `.git` directory only when it is a repository.
          if (isFile || (await isGitDirectory(gitDir, commonDir))) return { places };
        } else {
          return { places };
        }
      }
      const parent = path.dirname(current);
      if (parent === current) return { places };
      current = parent;
    }
  } catch (error) {
    const reason = error instanceof UncheckedGitRepository ? error.message : `a file of the repository could not be read (${error instanceof Error ? error.message : String(error)})`;
    return { places, unchecked: reason, ...(error instanceof UncheckedGitRepository && error.directoriesKnown ? { directoriesKnown: true as const } : {}) };
  }
}
