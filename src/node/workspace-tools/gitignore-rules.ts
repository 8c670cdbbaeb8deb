import path from 'node:path';
import { compileGlob, type GlobMatcher } from '../../permissions/compile-glob.js';

/** One line of a `.gitignore` file, compiled. */
interface GitignoreRule {
  matcher: GlobMatcher;
  negated: boolean;
  directoryOnly: boolean;
}

/** The rules of one `.gitignore` file and the directory they are relative to. */
export interface GitignoreFile {
  /** Absolute directory holding the `.gitignore`. */
  directory: string;
  rules: GitignoreRule[];
}

function parseLine(rawLine: string): GitignoreRule | undefined {
  let line = rawLine.replace(/\r$/, '');
  // Trailing spaces are dropped unless escaped with a backslash.
  line = line.replace(/(?<!\\)\s+$/, '');
  if (line === '' || line.startsWith('#')) return undefined;
  let negated = false;
  if (line.startsWith('!')) {
    negated = true;
    line = line.slice(1);
  } else if (line.startsWith('\\!') || line.startsWith('\\#')) {
    line = line.slice(1);
  }
  let directoryOnly = false;
  if (line.endsWith('/')) {
    directoryOnly = true;
    line = line.slice(0, -1);
  }
  if (line === '') return undefined;
  const anchored = line.includes('/');
  if (line.startsWith('/')) line = line.slice(1);
  // A pattern without a slash matches a name at any depth below the .gitignore.
  const matcher = compileGlob(anchored ? line : `**/${line}`, { braces: false });
  return { matcher, negated, directoryOnly };
}

/**
 * Compiles the text of a `.gitignore` file found in `directory`. Supports comments, `!`
 * negation, trailing `/` for directories, anchoring by a leading or inner `/`, `*`, `?`,
 * `[...]` and `**`. Not supported: `.git/info/exclude` and global excludes files.
 */
export function parseGitignore(directory: string, text: string): GitignoreFile {
  const rules = text.split('\n').map(parseLine).filter((rule): rule is GitignoreRule => rule !== undefined);
  return { directory, rules };
}

/**
 * Whether `absolutePath` is ignored by the given files, applied outermost first; within them the
 * last matching rule wins, as in git.
 */
export function isGitignored(files: readonly GitignoreFile[], absolutePath: string, isDirectory: boolean): boolean {
  let ignored = false;
  for (const file of files) {
    const relative = path.relative(file.directory, absolutePath);
    if (relative === '' || relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) continue;
    const posixRelative = relative.split(path.sep).join('/');
    for (const rule of file.rules) {
      if (rule.directoryOnly && !isDirectory) continue;
      if (rule.matcher.test(posixRelative)) ignored = !rule.negated;
    }
  }
  return ignored;
}
