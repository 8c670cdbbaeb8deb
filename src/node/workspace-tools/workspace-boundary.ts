import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** A path as the tools see it: where it points once symbolic links are resolved. */
export interface ResolvedPath {
  /** The path as given by the model. */
  input: string;
  /** Absolute and normalized, symbolic links not resolved. */
  lexical: string;
  /** Where the path really leads: symbolic links resolved, up to the nearest existing ancestor. */
  real: string;
  /** `real` is inside the workspace (the working directory or an additional directory). */
  inside: boolean;
  /** `real` may be written without the outside-the-workspace question: inside the workspace and not in a read-only directory there (see {@link WorkspaceBoundary.readOnlyDirectoryOf}). */
  writable: boolean;
  /** `real` may be read without asking: inside the workspace or a read-only directory. */
  readable: boolean;
}

const MAX_LINK_DEPTH = 40;

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? (error as NodeJS.ErrnoException).code : undefined;
}

/**
 * Resolves symbolic links as far as the path exists: the real path of the nearest existing
 * ancestor, joined with the rest. A dangling symbolic link is followed to where a write through
 * it would land.
 */
export async function resolveRealPath(absolutePath: string, depth = 0): Promise<string> {
  if (depth > MAX_LINK_DEPTH) throw Object.assign(new Error(`Too many levels of symbolic links: ${absolutePath}`), { code: 'ELOOP' });
  try {
    return await fs.realpath(absolutePath);
  } catch (error) {
    const code = errorCode(error);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
  }
  const parent = path.dirname(absolutePath);
  if (parent === absolutePath) return absolutePath;
  const realParent = await resolveRealPath(parent, depth);
  const candidate = path.join(realParent, path.basename(absolutePath));
  let isLink = false;
  try {
    isLink = (await fs.lstat(candidate)).isSymbolicLink();
  } catch {
    // does not exist (or the parent is not a directory): the real path is the candidate itself
  }
  if (!isLink) return candidate;
  const target = await fs.readlink(candidate);
  return resolveRealPath(path.resolve(realParent, target), depth + 1);
}

/**
 * The workspace: the working directory and the additional directories, by real path. Decides
 * whether a path the model names is inside it.
 */
export class WorkspaceBoundary {
  /** Real path of the working directory. */
  readonly cwd: string;
  /** Real paths of every workspace root, the working directory first. */
  readonly roots: readonly string[];
  /** Real paths of directories that may be read, not written, without asking. */
  readonly readRoots: readonly string[];

  constructor(options: { cwd: string; roots: readonly string[]; readRoots?: readonly string[] }) {
    this.cwd = options.cwd;
    this.roots = options.roots;
    this.readRoots = options.readRoots ?? [];
  }

  /** True when the real path is one of the roots or below one. */
  contains(realPath: string): boolean {
    return this.roots.some((root) => isWithin(root, realPath));
  }

  /** True when the real path may be read without asking: inside the workspace or a read-only directory. */
  isReadable(realPath: string): boolean {
    return this.contains(realPath) || this.readRoots.some((root) => isWithin(root, realPath));
  }

  /**
   * The read-only directory that governs a real path inside the workspace, if any: the deepest
   * read-only directory holding it, when no workspace root holding it lies deeper (a workspace
   * below a read-only directory stays writable; a read-only folder of the workspace does not).
   */
  readOnlyDirectoryOf(realPath: string): string | undefined {
    const root = deepestHolder(this.roots, realPath);
    const readRoot = deepestHolder(this.readRoots, realPath);
    return root !== undefined && readRoot !== undefined && readRoot.length >= root.length ? readRoot : undefined;
  }

  /** The workspace root holding this real path, if any. */
  rootOf(realPath: string): string | undefined {
    return this.roots.find((root) => isWithin(root, realPath));
  }

  /** Absolute, normalized form of a model-supplied path (`~` is the home directory). */
  lexical(input: string): string {
    const expanded = input === '~' ? os.homedir() : input.startsWith('~/') ? path.join(os.homedir(), input.slice(2)) : input;
    return path.resolve(this.cwd, expanded);
  }

  /** Resolves a model-supplied path relative to the working directory and checks it. */
  async resolve(input: string): Promise<ResolvedPath> {
    const lexical = this.lexical(input);
    const real = await resolveRealPath(lexical);
    const inside = this.contains(real);
    return { input, lexical, real, inside, writable: inside && this.readOnlyDirectoryOf(real) === undefined, readable: this.isReadable(real) };
  }

  /** A path for the model to read: relative to the working directory when inside it, else absolute. */
  display(absolutePath: string): string {
    if (!isWithin(this.cwd, absolutePath)) return absolutePath;
    return path.relative(this.cwd, absolutePath) || '.';
  }
}

/** The deepest of `directories` that holds `realPath`. */
function deepestHolder(directories: readonly string[], realPath: string): string | undefined {
  let deepest: string | undefined;
  for (const directory of directories) if (isWithin(directory, realPath) && (deepest === undefined || directory.length > deepest.length)) deepest = directory;
  return deepest;
}

/** True when `child` is `parent` or below it (both absolute and normalized). */
export function isWithin(parent: string, child: string): boolean {
  if (child === parent) return true;
  const prefix = parent.endsWith(path.sep) ? parent : parent + path.sep;
  return child.startsWith(prefix);
}
