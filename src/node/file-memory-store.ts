import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir, realpath, rename, rm } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import type { MemoryEntryInfo, MemoryStore } from '../context/memory/memory-store.js';
import { ConfigurationError } from '../errors/configuration-error.js';
import { isLinkRefusal, readRegularFile } from './fs/read-regular-file.js';
import { writeFileAtomically } from './fs/write-file-atomically.js';
import { MemoryAccessError } from '../errors/memory-access-error.js';

/** Options of {@link fileMemoryStore}. */
export interface FileMemoryStoreOptions {
  /**
   * The directory that is `/memories`: every memory file lives under it and nothing is read or
   * written outside it. Created (mode 0700) by the first command that writes (reading one that
   * does not exist yet finds it empty and creates nothing). There is no default, so nothing lands
   * in a home directory unless the host points there.
   */
  dir: string;
}

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

function code(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? (error as NodeJS.ErrnoException).code : undefined;
}

/**
 * A {@link MemoryStore} backed by a directory. It never follows a symbolic link: every name on
 * the way to an entry is checked with `lstat`, files are opened with `O_NOFOLLOW` and must be
 * regular files, and a link found inside the directory (or the directory itself being a link) is
 * neither listed nor entered. Writes
 * replace files atomically (a temporary `.tmp-…` file, then a rename); files are created 0600.
 * @throws ConfigurationError when `dir` is missing, and (from its methods) when `dir` is not a
 *   real directory.
 * @example
 * const store = fileMemoryStore({ dir: path.join(process.cwd(), '.agent-memory') });
 */
export function fileMemoryStore(options: FileMemoryStoreOptions): MemoryStore {
  if (typeof options?.dir !== 'string' || options.dir.length === 0) {
    throw new ConfigurationError('fileMemoryStore needs `dir`, the directory that holds /memories, e.g. fileMemoryStore({ dir: "./.memory" }).');
  }
  const root = resolve(options.dir);
  let ready: Promise<string> | undefined;
  // The directory itself may not be a link either: one planted in a workspace could point anywhere.
  const checkedRoot = async (): Promise<string> => {
    const info = await lstat(root);
    if (!info.isDirectory()) throw new ConfigurationError(`fileMemoryStore: ${root} is not a directory (a symbolic link or a file); point dir at a real directory.`);
    return realpath(root);
  };
  const remembered = (checking: Promise<string>): Promise<string> =>
    (ready = checking.catch((error: unknown) => {
      ready = undefined;
      throw error;
    }));
  /**
   * The real path of the directory, checked. A write creates it (mode 0700) first; a read does
   * not — `view` only reads, and runs in plan mode — and gets undefined while it does not exist.
   */
  async function rootReal(create: true): Promise<string>;
  async function rootReal(create: false): Promise<string | undefined>;
  async function rootReal(create: boolean): Promise<string | undefined> {
    if (ready) return ready;
    if (create) return remembered(mkdir(root, { recursive: true, mode: 0o700 }).then(checkedRoot));
    try {
      await lstat(root);
    } catch (error) {
      if (code(error) === 'ENOENT' || code(error) === 'ENOTDIR') return undefined;
      throw error;
    }
    return remembered(checkedRoot());
  }

  /**
   * The absolute path of a relative memory path, after checking that no name on the way is a
   * link (the last one too, unless it does not exist yet).
   * @returns the path, or undefined when a name on the way is missing (`missing: true`) or a file.
   */
  async function locate(relative: string, create = false): Promise<{ path: string; exists: boolean; blockedByFile: boolean }> {
    const names = relative === '' ? [] : relative.split('/');
    const base = create ? await rootReal(true) : await rootReal(false);
    // Not created yet: nothing is in it (the root itself reads as an empty directory, see stat).
    if (base === undefined) return { path: join(root, ...names), exists: false, blockedByFile: false };
    let current = base;
    for (let index = 0; index < names.length; index++) {
      current = join(current, names[index]!);
      let info;
      try {
        info = await lstat(current);
      } catch (error) {
        if (code(error) === 'ENOENT' || code(error) === 'ENOTDIR') return { path: join(base, ...names), exists: false, blockedByFile: code(error) === 'ENOTDIR' };
        throw error;
      }
      if (info.isSymbolicLink()) throw new MemoryAccessError(`/memories/${names.slice(0, index + 1).join('/')} is a symbolic link; the memory store does not follow links.`);
      const last = index === names.length - 1;
      if (!last && !info.isDirectory()) return { path: join(base, ...names), exists: false, blockedByFile: true };
    }
    if (current !== base && !current.startsWith(base + sep)) throw new MemoryAccessError('The path leaves the memory directory.');
    return { path: current, exists: true, blockedByFile: false };
  }

  async function makeParents(relative: string): Promise<boolean> {
    const names = relative.split('/').slice(0, -1);
    let current = await rootReal(true);
    for (const name of names) {
      current = join(current, name);
      try {
        await mkdir(current, { mode: 0o700 });
      } catch (error) {
        if (code(error) !== 'EEXIST') throw error;
        const info = await lstat(current);
        if (info.isSymbolicLink()) throw new MemoryAccessError(`A directory on the way to /memories/${relative} is a symbolic link; the memory store does not follow links.`);
        if (!info.isDirectory()) return false;
      }
    }
    return true;
  }

  async function readRegular(path: string): Promise<string | undefined> {
    try {
      return await readRegularFile(path);
    } catch (error) {
      if (isLinkRefusal(error)) throw new MemoryAccessError('The file is a symbolic link; the memory store does not follow links.');
      throw error;
    }
  }

  const writeAtomically = (path: string, text: string) => writeFileAtomically(path, text, { mode: 0o600 });

  return {
    async stat(relative) {
      const place = await locate(relative);
      // The root always exists for the memory tool, even before anything created the directory.
      if (!place.exists) return relative === '' ? { kind: 'directory', size: 0 } : undefined;
      const info = await lstat(place.path);
      if (info.isDirectory()) return { kind: 'directory', size: info.size };
      return info.isFile() ? { kind: 'file', size: info.size } : undefined;
    },
    async readFile(relative) {
      const place = await locate(relative);
      return place.exists ? readRegular(place.path) : undefined;
    },
    async list(relative) {
      const place = await locate(relative);
      if (!place.exists) return [];
      let names: string[];
      try {
        names = await readdir(place.path);
      } catch (error) {
        if (code(error) === 'ENOTDIR') return [];
        throw error;
      }
      const entries: MemoryEntryInfo[] = [];
      for (const name of names) {
        if (name.startsWith('.')) continue;
        const info = await lstat(join(place.path, name)).catch(() => undefined);
        // Links and special files are not memory entries: never listed, never entered.
        if (info?.isDirectory()) entries.push({ name, kind: 'directory', size: info.size });
        else if (info?.isFile()) entries.push({ name, kind: 'file', size: info.size });
      }
      return entries;
    },
    async writeFile(relative, text, { exclusive }) {
      const place = await locate(relative, true);
      if (place.blockedByFile) return 'not-a-directory';
      if (place.exists) {
        if (exclusive || !(await lstat(place.path)).isFile()) return 'exists';
        await writeAtomically(place.path, text);
        return 'written';
      }
      if (!(await makeParents(relative))) return 'not-a-directory';
      if (exclusive) {
        let handle;
        try {
          handle = await open(place.path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o600);
        } catch (error) {
          if (code(error) === 'EEXIST') return 'exists';
          throw error;
        }
        try {
          await handle.writeFile(text, 'utf8');
          await handle.sync();
        } finally {
          await handle.close();
        }
        return 'written';
      }
      await writeAtomically(place.path, text);
      return 'written';
    },
    async delete(relative) {
      if (relative === '') return false;
      const place = await locate(relative);
      if (!place.exists) return false;
      // rm removes links inside without following them; the target itself was checked above.
      await rm(place.path, { recursive: true, force: false });
      return true;
    },
    async rename(from, to) {
      const source = await locate(from);
      if (!source.exists) return 'missing';
      const target = await locate(to, true);
      if (target.blockedByFile) return 'not-a-directory';
      if (target.exists) return 'exists';
      if (!(await makeParents(to))) return 'not-a-directory';
      await rename(source.path, target.path);
      return 'renamed';
    },
  };
}
