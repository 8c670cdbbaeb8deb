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

/**
 * The tools one of whose fields (name, description, argument names and descriptions) the pattern
 * finds, name matches first, then in catalog order.
 */
export function regexSearch(tools: readonly SearchableTool[], pattern: string, limit: number): RegexSearchResult {
  if (typeof pattern !== 'string' || pattern === '') return { ok: false, message: 'The pattern is empty.' };
  if (pattern.length > MAX_REGEX_PATTERN_LENGTH) {
    return { ok: false, message: `The pattern has ${pattern.length} characters; the limit is ${MAX_REGEX_PATTERN_LENGTH}.` };
  }
  let regExp: RegExp;
  try {
    regExp = compileSearchPattern(pattern);
  } catch (error) {
    return { ok: false, message: `Invalid regular expression: ${error instanceof Error ? error.message : String(error)}` };
  }
  const byName: string[] = [];
  const byOther: string[] = [];
  for (const tool of tools) {
    if (regExp.test(tool.name)) byName.push(tool.name);
    else if ([tool.description, ...tool.argumentNames, ...tool.argumentDescriptions].some((text) => regExp.test(text))) byOther.push(tool.name);
  }
  return { ok: true, names: [...byName, ...byOther].slice(0, limit) };
}
