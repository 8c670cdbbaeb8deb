import { ConfigurationError } from '../errors/configuration-error.js';

const MAX_ALTERNATIVES = 256;

/** Finds the `}` closing the `{` at `open`, or -1. */
function closingBrace(glob: string, open: number): number {
  let depth = 0;
  for (let index = open; index < glob.length; index += 1) {
    if (glob[index] === '{') depth += 1;
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
    if (char === '{') depth += 1;
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
 * `src/b/*.ts`. A `{` without a matching `}` or without a comma is literal.
 */
export function expandBraces(glob: string): string[] {
  for (let open = glob.indexOf('{'); open !== -1; open = glob.indexOf('{', open + 1)) {
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
    }
    if (expanded.length > MAX_ALTERNATIVES) {
      throw new ConfigurationError(`Glob ${JSON.stringify(glob)} expands to more than ${MAX_ALTERNATIVES} alternatives; write fewer or simpler {a,b} groups.`);
    }
    return expanded;
  }
  return [glob];
}

const SPECIAL = /[.+^$()|[\]\\{}]/g;

/** Converts one path segment (no `/`) with `*` and `?` into a RegExp source. */
function segmentSource(segment: string): string {
  let source = '';
  for (const char of segment) {
    if (char === '*') source += source.endsWith('[^/]*') ? '' : '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(SPECIAL, '\\$&');
  }
  return source;
}

/** Converts a brace-free glob into a RegExp source (unanchored). */
function globSource(glob: string): string {
  const segments = glob.split('/');
  let source = '';
  let needSeparator = false;
  segments.forEach((segment, index) => {
    const last = index === segments.length - 1;
    if (segment === '**') {
      if (last) source += index === 0 ? '.*' : '/.*';
      else source += index === 0 ? '(?:.*/)?' : '/(?:.*/)?';
      needSeparator = false;
      return;
    }
    if (needSeparator) source += '/';
    source += segmentSource(segment);
    needSeparator = true;
  });
  return source;
}

/**
 * Compiles a path glob into a RegExp matching whole paths with `/` separators: `*` is any run of
 * characters except `/`, `?` one such character, `**` as a whole segment any number of directories
 * (`src/**` is everything under `src`, `**\/*.md` every Markdown file), `{a,b}` alternatives.
 * Dot files are matched like any other. Everything else is literal.
 * @throws ConfigurationError when braces expand to too many alternatives.
 * @example
 * globToRegExp('docs/{guide,api}/**').test('docs/api/x/y.md'); // true
 */
export function globToRegExp(glob: string): RegExp {
  const sources = expandBraces(glob).map(globSource);
  return new RegExp(`^(?:${sources.join('|')})$`, 's');
}
