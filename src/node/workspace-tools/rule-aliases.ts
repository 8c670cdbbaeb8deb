import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { WorkspaceBoundary } from './workspace-boundary.js';

const MAX_LINK_DEPTH = 40;

/** The real path of a path that may not exist yet: its nearest existing ancestor's, joined with the rest. */
function realPathSync(absolutePath: string, depth = 0): string {
  if (depth > MAX_LINK_DEPTH) return absolutePath;
  try {
    return realpathSync(absolutePath);
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
 * The other spellings of a path argument for deny and ask rules: its real path, absolute and
 * relative to each workspace root it lies in. So `Write(secrets/**)` also holds for
 * `alias/new.txt` when `alias` links to `secrets`, and for absolute paths when the agent has no `cwd`.
 */
export function ruleAliases(boundary: WorkspaceBoundary, value: string): string[] {
  const real = realPathSync(path.resolve(boundary.cwd, value));
  const aliases = [real];
  for (const root of boundary.roots) {
    const relative = path.relative(root, real);
    if (relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative)) aliases.push(relative.split(path.sep).join('/'));
  }
  return aliases;
}
