import type { SearchableTool } from './searchable-tool.js';

/** The longest pattern the Messages API's regex tool search accepts. */
export const MAX_REGEX_PATTERN_LENGTH = 200;

/** The outcome of {@link regexSearch}: tool names, or why the pattern was refused. */
export type RegexSearchResult = { ok: true; names: string[] } | { ok: false; message: string };

/**
 * Compiles a pattern written for Python's `re.search` (what the Messages API's regex tool search
 * takes) into a JavaScript RegExp: a leading `(?i)` becomes the `i` flag, `(?P<name>` a named group.
 */
export function compileSearchPattern(pattern: string): RegExp {
  let source = pattern;
  let flags = 'u';
  const inline = /^\(\?([aiLmsux]+)\)/.exec(source);
  if (inline) {
    source = source.slice(inline[0].length);
    if (inline[1]!.includes('i')) flags += 'i';
    if (inline[1]!.includes('m')) flags += 'm';
    if (inline[1]!.includes('s')) flags += 's';
  }
  source = source.replace(/\(\?P<([A-Za-z_][A-Za-z0-9_]*)>/g, '(?<$1>').replace(/\(\?P=([A-Za-z_][A-Za-z0-9_]*)\)/g, '\\k<$1>');
  return new RegExp(source, flags);
}

/** A checked pattern, compiled, or why it is refused (the messages the API's regex search gives). */
export type CheckedSearchPattern = { ok: true; regExp: RegExp } | { ok: false; message: string };

/** Refuses an empty, too long or invalid pattern; compiles a good one (see {@link compileSearchPattern}). */
export function checkSearchPattern(pattern: string): CheckedSearchPattern {
  if (typeof pattern !== 'string' || pattern === '') return { ok: false, message: 'The pattern is empty.' };
  if (pattern.length > MAX_REGEX_PATTERN_LENGTH) {
    return { ok: false, message: `The pattern has ${pattern.length} characters; the limit is ${MAX_REGEX_PATTERN_LENGTH}.` };
  }
  try {
    return { ok: true, regExp: compileSearchPattern(pattern) };
  } catch (error) {
    return { ok: false, message: `Invalid regular expression: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** Every text of the tools a regex search reads, each once. */
export function searchedTexts(tools: readonly SearchableTool[]): string[] {
  return [...new Set(tools.flatMap((tool) => [tool.name, tool.description, ...tool.argumentNames, ...tool.argumentDescriptions]))];
}

/** The names of the tools one of whose fields `found` accepts, name matches first, then in catalog order. */
export function rankRegexMatches(tools: readonly SearchableTool[], found: (text: string) => boolean, limit: number): string[] {
  const byName: string[] = [];
  const byOther: string[] = [];
  for (const tool of tools) {
    if (found(tool.name)) byName.push(tool.name);
    else if ([tool.description, ...tool.argumentNames, ...tool.argumentDescriptions].some(found)) byOther.push(tool.name);
  }
  return [...byName, ...byOther].slice(0, limit);
}

/**
 * The tools one of whose fields (name, description, argument names and descriptions) the pattern
 * finds, name matches first, then in catalog order. It matches on the calling thread: use it for
 * patterns and texts you trust; a hostile pair (`(a+)+$` against a long run of a's) backtracks
 * for minutes. The loopback Messages server matches off-thread with a deadline instead.
 */
export function regexSearch(tools: readonly SearchableTool[], pattern: string, limit: number): RegexSearchResult {
  const checked = checkSearchPattern(pattern);
  if (!checked.ok) return checked;
  return { ok: true, names: rankRegexMatches(tools, (text) => checked.regExp.test(text), limit) };
}
