import fs from 'node:fs/promises';
import { compileGlob, hasGlobSyntax } from '../../permissions/compile-glob.js';

/** Bash brace expansion of comma lists (`a.{ts,js}`); `undefined` for sequences like `{1..9}` or too many. */
export function expandBraces(word: string, limit: number): string[] | undefined {
  if (/\{[^{}]*\.\.[^{}]*\}/.test(word)) return undefined;
  const match = /\{([^{}]*,[^{}]*)\}/.exec(word);
  if (!match) return [word];
  const out: string[] = [];
  for (const part of match[1]!.split(',')) {
    const expanded = expandBraces(word.slice(0, match.index) + part + word.slice(match.index + match[0].length), limit);
    if (!expanded) return undefined;
    out.push(...expanded);
    if (out.length > limit) return undefined;
  }
  return out;
}

const join = (directory: string, name: string) => (directory.endsWith('/') ? directory + name : `${directory}/${name}`);

/**
 * Expands a glob the way the shell would, but as a superset: quoted glob characters and dot
 * files are matched too, and a segment starting with `.` also matches `.` and `..` (as in dash,
 * or bash before 5.2). Paths are joined without normalizing, so `..` after a symbolic link
 * keeps its physical meaning. A pattern matching nothing stays as it is (as in bash).
 * @returns the paths, or `undefined` when there are more than `limit`.
 */
export async function expandGlob(absolutePattern: string, limit: number): Promise<string[] | undefined> {
  const [root, ...segments] = absolutePattern.split('/');
  let current = [root === '' ? '/' : root!];
  for (const segment of segments) {
    if (segment === '') continue;
    if (!hasGlobSyntax(segment)) {
      current = current.map((directory) => join(directory, segment));
      continue;
    }
    const matcher = compileGlob(segment, { braces: false });
    const next: string[] = [];
    for (const directory of current) {
      const names = await fs.readdir(directory).catch(() => [] as string[]);
      if (segment.startsWith('.')) names.push('.', '..');
      for (const name of names) if (matcher.test(name)) next.push(join(directory, name));
      if (next.length > limit) return undefined;
    }
    current = next;
  }
  return current.length > 0 ? current : [absolutePattern];
}
