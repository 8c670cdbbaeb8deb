import type { MemoryEntryInfo, MemoryStore } from './memory-store.js';
import { ConfigurationError } from '../../errors/configuration-error.js';
import { describeOptionValue } from '../../errors/describe-option-value.js';
import { MEMORY_ROOT, parseMemoryPath } from './memory-path.js';

const encoder = new TextEncoder();

/**
 * A {@link MemoryStore} in memory: the notes live as long as the object (one process). For
 * tests, and for hosts that persist `files()` themselves.
 * @param initial - files to start with, by relative path (e.g. `{ 'notes.md': '...' }`): each a
 * path the memory tool accepts (under `/memories`, without that prefix), its text a string.
 * @throws ConfigurationError naming a path the model could never reach (`..`, a leading slash,
 * a hidden name), a text that is not a string, or a file that is also another's directory.
 */
export function memoryMemoryStore(initial: Readonly<Record<string, string>> = {}): MemoryStore & { files(): Record<string, string> } {
  const files = new Map<string, string>();
  const directories = new Set<string>(['']);
  const parentOf = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
  const ancestors = (path: string) => {
    const list: string[] = [];
    for (let parent = parentOf(path); parent !== ''; parent = parentOf(parent)) list.push(parent);
    return list;
  };
  const within = (path: string, root: string) => root === '' || path === root || path.startsWith(`${root}/`);
  const makeParents = (path: string): boolean => {
    const missing = ancestors(path);
    if (missing.some((parent) => files.has(parent))) return false;
    for (const parent of missing) directories.add(parent);
    return true;
  };
  for (const [path, text] of checkedInitialFiles(initial)) {
    makeParents(path);
    files.set(path, text);
  }

  return {
    files: () => Object.fromEntries(files),
    async stat(path) {
      if (files.has(path)) return { kind: 'file', size: encoder.encode(files.get(path)!).length };
      return directories.has(path) ? { kind: 'directory', size: 0 } : undefined;
    },
    async readFile(path) {
      return files.get(path);
    },
    async list(path) {
      if (!directories.has(path)) return [];
      const entries: MemoryEntryInfo[] = [];
      for (const directory of directories) {
        if (directory !== '' && parentOf(directory) === path) entries.push({ name: directory.slice(directory.lastIndexOf('/') + 1), kind: 'directory', size: 0 });
      }
      for (const [file, text] of files) {
        if (parentOf(file) === path) entries.push({ name: file.slice(file.lastIndexOf('/') + 1), kind: 'file', size: encoder.encode(text).length });
      }
      return entries;
    },
    async writeFile(path, text, { exclusive }) {
      if (directories.has(path) || (exclusive && files.has(path))) return 'exists';
      if (!makeParents(path)) return 'not-a-directory';
      files.set(path, text);
      return 'written';
    },
    async delete(path) {
      if (files.delete(path)) return true;
      if (!directories.has(path) || path === '') return false;
      for (const file of [...files.keys()]) if (within(file, path)) files.delete(file);
      for (const directory of [...directories]) if (within(directory, path)) directories.delete(directory);
      return true;
    },
    async rename(from, to) {
      const isFile = files.has(from);
      if (!isFile && (!directories.has(from) || from === '')) return 'missing';
      if (files.has(to) || directories.has(to)) return 'exists';
      if (!makeParents(to)) return 'not-a-directory';
      if (isFile) {
        files.set(to, files.get(from)!);
        files.delete(from);
        return 'renamed';
      }
      const move = (path: string) => `${to}${path.slice(from.length)}`;
      for (const [file, text] of [...files]) if (within(file, from)) (files.delete(file), files.set(move(file), text));
      for (const directory of [...directories]) if (within(directory, from)) (directories.delete(directory), directories.add(move(directory)));
      return 'renamed';
    },
  };
}

/** The initial files of {@link memoryMemoryStore}, checked as the memory tool checks the model's paths. */
function checkedInitialFiles(initial: unknown): Array<[string, string]> {
  const owner = 'memoryMemoryStore';
  if (typeof initial !== 'object' || initial === null || Array.isArray(initial)) {
    throw new ConfigurationError(`${owner} takes its initial files as an object of texts by relative path, such as memoryMemoryStore({ 'notes.md': '# Notes' }); got ${describeOptionValue(initial)}.`);
  }
  const entries = Object.entries(initial as Record<string, unknown>);
  const paths = new Set(entries.map(([path]) => path));
  for (const [path, text] of entries) {
    const parsed = parseMemoryPath(`${MEMORY_ROOT}/${path}`);
    if ('problem' in parsed || parsed.relative !== path || path === '') {
      const why = 'problem' in parsed ? parsed.problem : 'it is not in the form the memory tool gives a store (no leading or trailing slash)';
      throw new ConfigurationError(`${owner}: the initial file ${JSON.stringify(path)} is not a path the memory tool could reach (${why}); give paths relative to ${MEMORY_ROOT}, such as "projects/notes.md".`);
    }
    if (typeof text !== 'string') throw new ConfigurationError(`${owner}: the initial file ${JSON.stringify(path)} must be a string of text, got ${describeOptionValue(text)}.`);
    for (let cut = path.lastIndexOf('/'); cut > 0; cut = path.lastIndexOf('/', cut - 1)) {
      const parent = path.slice(0, cut);
      if (paths.has(parent)) throw new ConfigurationError(`${owner}: ${JSON.stringify(parent)} is given as a file and as the directory of ${JSON.stringify(path)}; a path is one or the other.`);
    }
  }
  return entries as Array<[string, string]>;
}
