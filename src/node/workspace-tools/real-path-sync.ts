import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';

const MAX_LINK_DEPTH = 40;

/**
 * The real path of a path that may not exist yet: its nearest existing ancestor's, joined with the
 * rest, a dangling link followed to where a write through it would land (the synchronous
 * `resolveRealPath`).
 */
export function realPathSync(absolutePath: string, depth = 0): string {
  if (depth > MAX_LINK_DEPTH) return absolutePath;
  try {
    return existingRealPath(absolutePath);
  } catch {
    // Missing: resolve the parent, then follow a dangling link where a write would land.
  }
  const parent = path.dirname(absolutePath);
  if (parent === absolutePath) return absolutePath;
  const candidate = path.join(realPathSync(parent, depth), path.basename(absolutePath));
  try {
    if (lstatSync(candidate).isSymbolicLink()) return realPathSync(path.resolve(path.dirname(candidate), readlinkSync(candidate)), depth + 1);
  } catch {
    // does not exist
  }
  return candidate;
}

/**
 * The real path of an existing path, from the C library's `realpath` (about half the time of
 * Node's own walk: a Bash tool judges every `PATH` directory), or from Node's walk where the
 * native call cannot answer (musl without /proc).
 * @throws the walk's error (`ENOENT`, …) when the path does not exist.
 */
export function existingRealPath(absolutePath: string): string {
  try {
    return realpathSync.native(absolutePath);
  } catch {
    return realpathSync(absolutePath);
  }
}
