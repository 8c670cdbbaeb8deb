import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { findInstructionImports } from '../context/instructions/find-instruction-imports.js';
import { ConfigurationError } from '../errors/configuration-error.js';

/** Options of {@link loadInstructions}. */
export interface LoadInstructionsOptions {
  /** The workspace directory: the search starts here and walks up. */
  cwd: string;
  /**
   * Where the walk up stops (included). Must contain `cwd`.
   * @default the filesystem root
   */
  root?: string;
  /**
   * The file names looked for in each directory, in this order.
   * @default ['AGENTS.md', 'CLAUDE.md']
   */
  fileNames?: readonly string[];
  /**
   * How many `@path` hops are followed from a file found by the walk.
   * @default 5
   */
  maxImportDepth?: number;
  /**
   * Directories imports may read from besides the tree of the file that starts the chain (e.g.
   * the user's home for `@~/...` imports). Anything else outside is skipped, with a warning.
   * @default []
   */
  allowImportsFrom?: readonly string[];
  /**
   * The largest part of one file that is read, in bytes; the rest is cut off with a note.
   * @default 65_536
   */
  maxFileBytes?: number;
}

/** One file that went into the instructions. */
export interface InstructionFile {
  /** The absolute path, as found (not resolved through links). */
  path: string;
  /** The path relative to `cwd`, as shown in `text`. */
  shownPath: string;
  /** The file's text as used (cut when over `maxFileBytes`). */
  content: string;
  /** The shown path of the file that imported it; undefined for a file found by the walk. */
  importedBy?: string;
  /** 0 for a file found by the walk, 1 for its imports, and so on. */
  depth: number;
}

/** What {@link loadInstructions} found. */
export interface LoadedInstructions {
  /** Every file in order, each under a heading naming it, ready for the system prompt; `''` when none. */
  text: string;
  /** The files, outermost directory first, each followed by its imports. */
  files: InstructionFile[];
  /** What was skipped and why: imports outside the allowed places, missing, cyclic, too deep, cut files. */
  warnings: string[];
}

// Non-blocking, so a FIFO planted under an instructions name never stalls the read.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * Reads the instructions a workspace carries (`AGENTS.md`, `CLAUDE.md`) for the host to put into
 * `system`: from `root` (the filesystem root by default) down to `cwd`, so the nearest file comes
 * last and speaks last. A file's `@path` imports (see `findInstructionImports`) follow it,
 * relative to the importing file, up to `maxImportDepth` hops; a file is included once, a cycle
 * is cut. No file is read from an unexpected place without saying so: a file or import whose real
 * path (links resolved) lies outside the directory of the file found by the walk (and outside
 * `allowImportsFrom`) is skipped, with a warning and a note in the text where it was imported.
 * @param options - see {@link LoadInstructionsOptions}.
 * @throws ConfigurationError when `cwd` is missing or outside `root`.
 * @example
 * const { text } = await loadInstructions({ cwd: process.cwd() });
 * const agent = createAgent({ model, system: `${basePrompt}\n\n${text}` });
 */
export async function loadInstructions(options: LoadInstructionsOptions): Promise<LoadedInstructions> {
  if (typeof options?.cwd !== 'string' || options.cwd === '') {
    throw new ConfigurationError('loadInstructions needs `cwd`, the workspace directory to start from, e.g. loadInstructions({ cwd: process.cwd() }).');
  }
  const cwd = resolve(options.cwd);
  const root = resolve(options.root ?? resolve(cwd, '/'));
  if (cwd !== root && !cwd.startsWith(root.endsWith(sep) ? root : root + sep)) {
    throw new ConfigurationError(`loadInstructions: cwd ${cwd} is not inside root ${root}; pass a root that contains the workspace.`);
  }
  const fileNames = options.fileNames ?? ['AGENTS.md', 'CLAUDE.md'];
  const maxDepth = options.maxImportDepth ?? 5;
  const maxBytes = options.maxFileBytes ?? 65_536;
  const extraPlaces = await Promise.all((options.allowImportsFrom ?? []).map((place) => realpath(resolve(place)).catch(() => resolve(place))));
  const files: InstructionFile[] = [];
  const warnings: string[] = [];
  const included = new Set<string>();
  const shown = (path: string) => relative(cwd, path) || '.';

  const directories: string[] = [];
  for (let directory = cwd; ; directory = dirname(directory)) {
    directories.unshift(directory);
    if (directory === root || dirname(directory) === directory) break;
  }

  /** Adds a file and then its imports; returns a note for the importer when it was skipped. */
  async function include(path: string, place: string, depth: number, chain: readonly string[], importedBy: string | undefined): Promise<string | undefined> {
    const real = await realpath(path).catch(() => undefined);
    if (real === undefined) return skip(`${shown(path)} does not exist`, importedBy);
    if (!isWithin(real, place) && !extraPlaces.some((extra) => isWithin(real, extra))) {
      return skip(`${shown(path)} is outside ${shown(place)}${real !== path ? ` (it leads to ${real})` : ''}; allow it with allowImportsFrom`, importedBy);
    }
    if (chain.includes(real)) return skip(`${shown(path)} imports itself through a cycle (${[...chain, real].map((entry) => shown(entry)).join(' → ')})`, importedBy);
    if (included.has(real)) return undefined;
    const read = await readText(real, maxBytes);
    if (typeof read !== 'string' && 'problem' in read) return skip(`${shown(path)} ${read.problem}`, importedBy);
    included.add(real);
    const { text, cut } = typeof read === 'string' ? { text: read, cut: false } : read;
    if (cut) warnings.push(`${shown(path)} is longer than ${maxBytes} bytes; only the beginning is used.`);
    const notes: string[] = cut ? [`[${shown(path)} is cut here: it is longer than ${maxBytes} bytes.]`] : [];
    const file: InstructionFile = { path, shownPath: shown(path), content: text, depth, ...(importedBy ? { importedBy } : {}) };
    files.push(file);
    for (const found of findInstructionImports(text)) {
      if (depth >= maxDepth) {
        notes.push(skipNote(found.path, `more than ${maxDepth} imports deep`));
        warnings.push(`${file.shownPath}: the import @${found.path} is more than ${maxDepth} imports deep and was not loaded.`);
        continue;
      }
      const target = found.path.startsWith('~/') ? join(homedir(), found.path.slice(2)) : isAbsolute(found.path) ? found.path : resolve(dirname(path), found.path);
      const note = await include(target, place, depth + 1, [...chain, real], file.shownPath);
      if (note) notes.push(skipNote(found.path, note));
    }
    if (notes.length > 0) file.content = `${file.content}\n\n${notes.join('\n')}`;
    return undefined;
  }

  function skip(reason: string, importedBy: string | undefined): string | undefined {
    warnings.push(importedBy ? `${importedBy}: an import was not loaded: ${reason}.` : `${reason}; it was not loaded.`);
    return importedBy ? reason : undefined;
  }

  for (const directory of directories) {
    for (const name of fileNames) {
      const path = join(directory, name);
      if ((await realpath(path).catch(() => undefined)) === undefined) continue;
      await include(path, await realpath(directory).catch(() => directory), 0, [], undefined);
    }
  }
  const text = files
    .map((file) => `# Instructions from ${file.shownPath}${file.importedBy ? ` (imported by ${file.importedBy})` : ''}\n\n${file.content.trim()}`)
    .join('\n\n');
  return { text, files, warnings };
}

function skipNote(path: string, reason: string): string {
  return `[The import @${path} was not loaded: ${reason}.]`;
}

function isWithin(path: string, place: string): boolean {
  return path === place || path.startsWith(place.endsWith(sep) ? place : place + sep);
}

/** Reads a regular file's text, at most `maxBytes` (a FIFO or device is refused, never waited on). */
async function readText(path: string, maxBytes: number): Promise<string | { text: string; cut: true } | { problem: string }> {
  let handle;
  try {
    handle = await open(path, READ_FLAGS);
  } catch (error) {
    return { problem: `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { problem: 'is not a regular file' };
    const buffer = Buffer.alloc(Math.min(info.size, maxBytes));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, bytesRead).toString('utf8');
    return info.size > maxBytes ? { text: text.replace(/\uFFFD$/, ''), cut: true } : text;
  } finally {
    await handle.close();
  }
}
