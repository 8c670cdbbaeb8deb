import fs from 'node:fs/promises';
import path from 'node:path';
import type { ResolvedPath } from './workspace-boundary.js';

// Characters HFS+ ignores in file names, which git also ignores when it protects `.git`.
const IGNORABLE = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;

/** True when one path segment names a git directory: `.git`, in any case, also with ignorable characters or trailing dots/spaces. */
export function isGitSegment(segment: string): boolean {
  return segment.replace(IGNORABLE, '').replace(/[. ]+$/, '').toLowerCase() === '.git';
}

/** True when an absolute path goes through (or is) a `.git` directory or file. */
export function hasGitSegment(absolutePath: string): boolean {
  return absolutePath.split(path.sep).some(isGitSegment);
}

/**
 * Why writing this path needs the host's answer even inside the workspace, or `undefined`:
 * - it is in a git directory (or is a `.git` file): git's configuration, hooks, `info/attributes`
 *   and `gitdir:` pointers decide which programs later git commands run, and the Bash tool lets
 *   read-only git commands run without asking;
 * - it is a regular file with more than one hard link: the write also changes the other names of
 *   the file, which may be outside the workspace (e.g. a package manager's store).
 */
export async function protectedWriteReason(toolName: string, resolved: ResolvedPath): Promise<string | undefined> {
  if (hasGitSegment(resolved.lexical) || hasGitSegment(resolved.real)) {
    return (
      `${toolName} changes ${resolved.real}, inside a git directory (.git). Git configuration, hooks and attributes there ` +
      'decide which programs later git commands run, so this is asked in every permission mode.'
    );
  }
  const stat = await fs.stat(resolved.real).catch(() => undefined);
  if (stat?.isFile() && stat.nlink > 1) {
    return (
      `${toolName} changes ${resolved.real}, which has ${stat.nlink} hard links: the other names of the same file ` +
      '(possibly outside the workspace) change too.'
    );
  }
  return undefined;
}
