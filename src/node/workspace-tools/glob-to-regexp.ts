/** Options of {@link globToRegExp}. */
export interface GlobToRegExpOptions {
  /**
   * Expand `{a,b}` alternatives (the Glob and Grep tools do; `.gitignore` does not).
   * @default true
   */
  braces?: boolean;
}

const GLOB_META = /[*?[{]/;

/** True when the text contains glob syntax (`*`, `?`, `[`, `{`). */
export function hasGlobSyntax(text: string): boolean {
  return GLOB_META.test(text);
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}

/** Translates a `[...]` class starting at `start`; returns the regexp text and the index after it. */
function readClass(glob: string, start: number): { source: string; end: number } | undefined {
  let index = start + 1;
  let negated = false;
  if (glob[index] === '!' || glob[index] === '^') {
    negated = true;
    index++;
  }
  let body = '';
  if (glob[index] === ']') {
    body += '\\]';
    index++;
  }
  while (index < glob.length && glob[index] !== ']') {
    const c = glob[index]!;
    if (c === '\\' && index + 1 < glob.length) {
      body += `\\${glob[index + 1]}`;
      index += 2;
      continue;
    }
    body += c === '/' ? '' : c === '^' || c === '[' ? `\\${c}` : c;
    index++;
  }
  if (index >= glob.length) return undefined;
  return { source: `[${negated ? '^/' : ''}${body}]`, end: index + 1 };
}

function translate(glob: string, braces: boolean): string {
  let source = '';
  let index = 0;
  let braceDepth = 0;
  while (index < glob.length) {
    const c = glob[index]!;
    if (c === '*') {
      if (glob[index + 1] === '*') {
        const atStart = index === 0 || glob[index - 1] === '/';
        const atEnd = index + 2 === glob.length || glob[index + 2] === '/';
        if (atStart && atEnd) {
          // `**/` matches zero or more directories; a trailing `**` matches everything below.
          if (index + 2 === glob.length) source += '.*';
          else source += '(?:[^/]*/)*';
          index += index + 2 === glob.length ? 2 : 3;
          continue;
        }
      }
      source += '[^/]*';
      while (glob[index] === '*') index++;
      continue;
    }
    if (c === '?') source += '[^/]';
    else if (c === '[') {
      const cls = readClass(glob, index);
      if (cls) {
        source += cls.source;
        index = cls.end;
        continue;
      }
      source += '\\[';
    } else if (c === '\\' && index + 1 < glob.length) {
      source += escapeRegExp(glob[index + 1]!);
      index += 2;
      continue;
    } else if (braces && c === '{') {
      braceDepth++;
      source += '(?:';
    } else if (braces && c === '}' && braceDepth > 0) {
      braceDepth--;
      source += ')';
    } else if (braces && c === ',' && braceDepth > 0) source += '|';
    else source += escapeRegExp(c);
    index++;
  }
  if (braceDepth > 0) return translate(glob.replace(/[{}]/g, '\\$&'), braces);
  return source;
}

/**
 * Compiles a glob to a regular expression over `/`-separated relative paths: `*` and `?` stay
 * within one path segment, `**` spans directories, `[...]` is a character class and `{a,b}` are
 * alternatives. Dot files are matched like any other file.
 * @example globToRegExp('src/**\/*.{ts,tsx}').test('src/a/b.tsx') // true
 */
export function globToRegExp(glob: string, options: GlobToRegExpOptions = {}): RegExp {
  return new RegExp(`^${translate(glob, options.braces ?? true)}$`);
}

/**
 * Splits a glob into its leading literal directories and the rest, so a search can start
 * below them: `../lib/**\/*.ts` → `{ base: '../lib', pattern: '**\/*.ts' }`.
 */
export function splitGlobBase(glob: string): { base: string; pattern: string } {
  const absolute = glob.startsWith('/');
  const segments = glob.split('/').filter((segment, index) => segment !== '' || index === 0);
  const literal: string[] = [];
  while (segments.length > 1 && !hasGlobSyntax(segments[0]!) && !segments[0]!.includes('\\')) literal.push(segments.shift()!);
  const base = literal.join('/');
  return { base: absolute && base === '' ? '/' : base === '' ? '.' : base, pattern: segments.join('/') };
}
