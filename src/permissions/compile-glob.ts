import { ConfigurationError } from '../errors/configuration-error.js';

// The one glob matcher of the library: permission rules, the Glob and Grep tools, .gitignore
// files and the Bash path analysis's glob expansion all compile globs here.

const MAX_ALTERNATIVES = 256;

/** Options of {@link compileGlob}. */
export interface CompileGlobOptions {
  /**
   * Expand `{a,b}` alternatives (rules and the Glob and Grep tools do; `.gitignore` and shell
   * words already brace-expanded do not).
   * @default true
   */
  braces?: boolean;
}

/** Finds the `}` closing the `{` at `open` (escapes skipped), or -1. */
function closingBrace(glob: string, open: number): number {
  let depth = 0;
  for (let index = open; index < glob.length; index += 1) {
    if (glob[index] === '\\') index += 1;
    else if (glob[index] === '{') depth += 1;
    else if (glob[index] === '}' && --depth === 0) return index;
  }
  return -1;
}

/** Splits the inside of a brace group at its top-level commas. */
function splitAlternatives(inner: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < inner.length; index += 1) {
    const char = inner[index];
    if (char === '\\') index += 1;
    else if (char === '{') depth += 1;
    else if (char === '}') depth -= 1;
    else if (char === ',' && depth === 0) {
      parts.push(inner.slice(start, index));
      start = index + 1;
    }
  }
  parts.push(inner.slice(start));
  return parts;
}

/**
 * Expands `{a,b}` groups (nested too) into plain globs: `src/{a,b}/*.ts` → `src/a/*.ts`,
 * `src/b/*.ts`. A `{` without a matching `}` or without a comma is literal, as in bash; `\{` is
 * always literal.
 * @throws ConfigurationError when the groups expand to more than 256 globs.
 */
export function expandBraces(glob: string): string[] {
  for (let open = 0; open < glob.length; open += 1) {
    if (glob[open] === '\\') {
      open += 1;
      continue;
    }
    if (glob[open] !== '{') continue;
    const close = closingBrace(glob, open);
    if (close === -1) return [glob];
    const alternatives = splitAlternatives(glob.slice(open + 1, close));
    if (alternatives.length < 2) continue;
    const head = glob.slice(0, open);
    const tails = expandBraces(glob.slice(close + 1));
    const expanded: string[] = [];
    for (const alternative of alternatives) {
      for (const middle of expandBraces(alternative)) {
        for (const tail of tails) expanded.push(head + middle + tail);
      }
      if (expanded.length > MAX_ALTERNATIVES) {
        throw new ConfigurationError(`Glob ${JSON.stringify(glob)} expands to more than ${MAX_ALTERNATIVES} alternatives; write fewer or simpler {a,b} groups.`);
      }
    }
    return expanded;
  }
  return [glob];
}

/** One element of a path segment pattern. */
type Token = { kind: 'char'; char: string } | { kind: 'any' } | { kind: 'star' } | { kind: 'class'; test: (char: string) => boolean };
/** A segment pattern, or `**` (any number of segments). */
type SegmentPattern = Token[] | 'globstar';

/** A compiled glob: `test(path)` runs in time linear in the path for each `*` (no regular-expression backtracking). */
export interface GlobMatcher {
  /** The glob as given. */
  readonly glob: string;
  /** Whether a `/`-separated path matches the whole glob. */
  test(path: string): boolean;
}

/**
 * A `[...]` bracket expression starting at `start`: `[abc]`, `[a-z]`, `[!abc]` / `[^abc]` (not
 * one of them), `]` first is literal, `\x` inside is `x`. `undefined` when there is no closing
 * `]` or the ranges are invalid (then `[` is literal, as in bash).
 */
function bracketExpression(segment: string, start: number): { token: Token; end: number } | undefined {
  let index = start + 1;
  let negated = false;
  if (segment[index] === '!' || segment[index] === '^') {
    negated = true;
    index++;
  }
  const members: string[] = [];
  const ranges: Array<[string, string]> = [];
  let first = true;
  while (index < segment.length && (segment[index] !== ']' || first)) {
    first = false;
    let char = segment[index]!;
    if (char === '\\' && index + 1 < segment.length) char = segment[++index]!;
    if (segment[index + 1] === '-' && index + 2 < segment.length && segment[index + 2] !== ']') {
      let end = segment[index + 2]!;
      index += 2;
      if (end === '\\' && index + 1 < segment.length) end = segment[++index]!;
      if (end < char) return undefined;
      ranges.push([char, end]);
    } else {
      members.push(char);
    }
    index++;
  }
  if (index >= segment.length) return undefined;
  const inside = (char: string) => members.includes(char) || ranges.some(([low, high]) => char >= low && char <= high);
  return { token: { kind: 'class', test: (char) => char !== '/' && inside(char) !== negated }, end: index + 1 };
}

/** Tokens of one path segment (no `/`): `*`, `?`, `[...]`, `\x`, literal characters. */
function segmentTokens(segment: string, literalBrackets: boolean): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  while (index < segment.length) {
    const c = segment[index]!;
    if (c === '*') {
      if (tokens[tokens.length - 1]?.kind !== 'star') tokens.push({ kind: 'star' });
      index++;
    } else if (c === '?') {
      tokens.push({ kind: 'any' });
      index++;
    } else if (c === '[' && !literalBrackets) {
      const bracket = bracketExpression(segment, index);
      tokens.push(bracket ? bracket.token : { kind: 'char', char: '[' });
      index = bracket ? bracket.end : index + 1;
    } else if (c === '\\' && index + 1 < segment.length) {
      tokens.push({ kind: 'char', char: segment[index + 1]! });
      index += 2;
    } else {
      tokens.push({ kind: 'char', char: c });
      index++;
    }
  }
  return tokens;
}

const matchesOne = (token: Token, char: string) =>
  token.kind === 'char' ? token.char === char : token.kind === 'any' ? char !== '/' : token.kind === 'class' ? token.test(char) : false;

/**
 * Wildcard matching with backtracking only to the last star (O(patterns × items)): used for the
 * characters of a segment (`*`) and, one level up, for the segments of a path (`**`).
 */
function wildcardMatch<P, T>(patterns: readonly P[], items: ArrayLike<T>, isStar: (pattern: P) => boolean, matchesOne: (pattern: P, item: T) => boolean): boolean {
  let p = 0;
  let i = 0;
  let starPattern = -1;
  let starItem = 0;
  while (i < items.length) {
    if (p < patterns.length && isStar(patterns[p]!)) {
      starPattern = p++;
      starItem = i;
    } else if (p < patterns.length && matchesOne(patterns[p]!, items[i]!)) {
      p++;
      i++;
    } else if (starPattern !== -1) {
      p = starPattern + 1;
      i = ++starItem;
    } else {
      return false;
    }
  }
  while (p < patterns.length && isStar(patterns[p]!)) p++;
  return p === patterns.length;
}

const matchSegment = (tokens: Token[], text: string) => wildcardMatch(tokens, text, (token) => token.kind === 'star', matchesOne);
const matchSegments = (patterns: SegmentPattern[], segments: string[]) =>
  wildcardMatch(patterns, segments, (pattern) => pattern === 'globstar', (pattern, segment) => pattern !== 'globstar' && matchSegment(pattern, segment));

/** Segment patterns of a brace-free glob: a trailing `**` (after something) needs one segment at least, as `src/**` does not match `src`. */
function segmentPatterns(glob: string, literalBrackets: boolean): SegmentPattern[] {
  const parts = glob.split('/').filter((part, index, all) => !(part === '**' && all[index - 1] === '**'));
  const patterns: SegmentPattern[] = [];
  parts.forEach((part, index) => {
    if (part !== '**') patterns.push(segmentTokens(part, literalBrackets));
    else if (index === parts.length - 1 && index > 0) patterns.push([{ kind: 'star' }], 'globstar');
    else patterns.push('globstar');
  });
  return patterns;
}

/**
 * Compiles a path glob into a matcher of whole paths with `/` separators: `*` is any run of
 * characters except `/`, `?` one such character, `[abc]` / `[a-z]` / `[!abc]` a bracket
 * expression, `\x` a literal `x`, `**` as a whole segment any number of directories (`src/**` is
 * everything under `src`, `**\/*.md` every Markdown file), `{a,b}` alternatives. Dot files are
 * matched like any other. A glob with bracket expressions also matches its own text literally,
 * so `src/[id]/**` covers a folder really named `[id]` (a Next.js route) and a deny rule written
 * that way cannot be slipped past. Matching never backtracks beyond the last `*` (no ReDoS).
 * @throws ConfigurationError when braces expand to more than 256 alternatives.
 * @example
 * compileGlob('docs/{guide,api}/**').test('docs/api/x/y.md'); // true
 */
export function compileGlob(glob: string, options: CompileGlobOptions = {}): GlobMatcher {
  const alternatives = (options.braces ?? true) ? expandBraces(glob) : [glob];
  const compiled = alternatives.map((alternative) => segmentPatterns(alternative, false));
  if (alternatives.some((alternative) => alternative.includes('['))) {
    compiled.push(...alternatives.map((alternative) => segmentPatterns(alternative, true)));
  }
  return {
    glob,
    test: (path: string) => {
      const segments = path.split('/');
      return compiled.some((patterns) => matchSegments(patterns, segments));
    },
  };
}

/** True when the text contains glob syntax (`*`, `?`, `[`, `{`). */
export function hasGlobSyntax(text: string): boolean {
  return /[*?[{]/.test(text);
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
