import { isJsonPrefix } from './is-json-prefix.js';
import { nestingDepthOver } from '../history/nesting-depth-over.js';

/** Where a JSON candidate was found in a model's answer. */
export type JsonCandidateStrategy = 'whole-text' | 'fenced-block' | 'balanced';

/** A place in a model's answer that may hold JSON, already parsed. */
export interface JsonCandidate {
  strategy: JsonCandidateStrategy;
  /** The text tried; absent for a value nested in an already parsed span (found by walking the value, not the text). */
  text?: string;
  /** The text is JSON (`value` holds it). */
  parses: boolean;
  /** The parsed value, when `parses`. */
  value?: unknown;
  /** The text ends before the value closes (an unterminated fence, an unclosed bracket). */
  truncated?: boolean;
  /** For `truncated`: how many objects/arrays were still open. */
  openBrackets?: number;
}

/** How the search of {@link jsonCandidates} ended. */
export interface JsonCandidatesEnd {
  /** The budget ran out before the whole text was searched: later JSON may have been missed. */
  budgetExhausted: boolean;
}

/** Options of {@link jsonCandidates}. */
export interface JsonCandidatesOptions {
  /**
   * The work allowed, in characters scanned or parsed (each value considered also costs
   * {@link CANDIDATE_COST}), so prose full of brackets or a huge value stays cheap.
   * @default 4 × the text length + 65,536
   */
  budget?: number;
}

/**
 * What considering one parsed value costs, in characters of the budget: validating it against a
 * schema takes about as long as scanning a few hundred characters.
 */
export const CANDIDATE_COST = 256;

/** Fenced code blocks (``` or ~~~), in order; an unterminated last fence runs to the end. */
export function findFencedBlocks(text: string): Array<{ content: string; terminated: boolean }> {
  const blocks: Array<{ content: string; terminated: boolean }> = [];
  const lines = text.split('\n');
  let open: { marker: string; start: number } | undefined;
  for (let index = 0; index < lines.length; index++) {
    const line = (lines[index] as string).replace(/\r$/, '');
    if (!open) {
      const opener = /^\s*(`{3,}|~{3,})\s*[\w.+-]*\s*$/.exec(line);
      if (opener) open = { marker: opener[1] as string, start: index + 1 };
      continue;
    }
    const trimmed = line.trim();
    if (trimmed.length >= open.marker.length && trimmed === (open.marker[0] as string).repeat(trimmed.length)) {
      blocks.push({ content: lines.slice(open.start, index).join('\n'), terminated: true });
      open = undefined;
    }
  }
  if (open) blocks.push({ content: lines.slice(open.start).join('\n'), terminated: false });
  return blocks;
}

/** The result of scanning from an opening bracket. */
export type BalancedScan =
  | { kind: 'closed'; end: number }
  | { kind: 'truncated'; open: number }
  | { kind: 'mismatched' }
  /** The scan stopped at its limit. */
  | { kind: 'stopped' };

/**
 * What earlier scans learnt about each opening bracket they met outside a string: its scan from
 * there closes at an index, is mismatched, or runs off the end with some brackets open. A later
 * scan that meets the same bracket outside a string is in the same state from there on, so it
 * jumps instead of scanning again — prose full of stray brackets costs linear time.
 */
export class BalancedScanMemo {
  /** Per position: 0 unknown, `end + 1` closed, -1 mismatched, -2 - open truncated. */
  private readonly outcome: Int32Array;

  constructor(length: number) {
    this.outcome = new Int32Array(length);
  }

  get(position: number): BalancedScan | undefined {
    const code = this.outcome[position] ?? 0;
    if (code === 0) return undefined;
    if (code > 0) return { kind: 'closed', end: code - 1 };
    if (code === -1) return { kind: 'mismatched' };
    return { kind: 'truncated', open: -2 - code };
  }

  /** Raw access for the scan loop: 0 unknown, `end + 1` closed, negative otherwise. */
  code(position: number): number {
    return this.outcome[position] ?? 0;
  }

  set(position: number, result: BalancedScan): void {
    if (result.kind === 'closed') this.outcome[position] = result.end + 1;
    else if (result.kind === 'mismatched') this.outcome[position] = -1;
    else if (result.kind === 'truncated') this.outcome[position] = -2 - result.open;
  }

  setClosed(position: number, end: number): void {
    this.outcome[position] = end + 1;
  }
}

/**
 * Scans from the `{` or `[` at `start` to its matching close, skipping brackets inside JSON
 * strings. Returns the index after the close, or that the text ended first, or (after `limit`
 * characters) that it stopped; `scanned` counts the characters read.
 */
export function scanBalanced(
  text: string,
  start: number,
  memo: BalancedScanMemo = new BalancedScanMemo(text.length),
  limit = Infinity,
): BalancedScan & { scanned: number } {
  const known = memo.get(start);
  if (known) return Object.assign(known, { scanned: 0 });
  /** Positions of the open brackets. */
  const stack: number[] = [];
  let inString = false;
  let scanned = 0;
  const settle = (result: BalancedScan): BalancedScan & { scanned: number } => {
    // Every bracket still open shares the outcome (with fewer brackets open above it).
    for (let depth = 0; depth < stack.length; depth++) {
      memo.set(stack[depth] as number, result.kind === 'truncated' ? { kind: 'truncated', open: result.open - depth } : result);
    }
    return Object.assign(result, { scanned });
  };
  for (let index = start; index < text.length; index++) {
    if (++scanned > limit) return { kind: 'stopped', scanned };
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index++;
      else if (code === 0x22) inString = false;
      continue;
    }
    if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      const seen = stack.length > 0 ? memo.code(index) : 0;
      if (seen > 0) {
        index = seen - 2; // the loop's increment lands on the closed span's end
        continue;
      }
      if (seen === -1) return settle({ kind: 'mismatched' });
      if (seen < -1) return settle({ kind: 'truncated', open: stack.length + (-2 - seen) });
      stack.push(index);
    } else if (code === 0x7d || code === 0x5d) {
      const opener = stack.pop();
      if (opener === undefined || text.charCodeAt(opener) !== code - 2) {
        if (opener !== undefined) stack.push(opener);
        return settle({ kind: 'mismatched' });
      }
      memo.setClosed(opener, index + 1);
      if (stack.length === 0) return { kind: 'closed', end: index + 1, scanned };
    }
  }
  return settle({ kind: 'truncated', open: stack.length });
}

/** Deepest nesting of arrays and objects a value found in an answer may have (as a tool input's). */
export const MAX_NESTING = 64;

/**
 * The parse of a candidate text; prose that cannot start JSON is turned down without `JSON.parse`,
 * and so is a value nested deeper than {@link MAX_NESTING}.
 */
function parseCandidate(text: string): { parses: boolean; value?: unknown } {
  if (!couldBeJson(text)) return { parses: false };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { parses: false };
  }
  return nestingDepthOver(value, MAX_NESTING) ? { parses: false } : { parses: true, value };
}

/** After an opening bracket, JSON has a key or `}` (objects) or a value or `]` (arrays). */
function couldBeJson(text: string): boolean {
  const first = text[0];
  if (first !== '{' && first !== '[') return true;
  const next = /\S/.exec(text.slice(1, 64));
  if (!next) return text.length > 64;
  return first === '{' ? next[0] === '"' || next[0] === '}' : /[{["\-0-9tfn\]]/.test(next[0]);
}

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

/**
 * The places JSON may hide in a model's answer, most deliberate first, each parsed: the whole
 * text, each fenced block, then each balanced `{...}` or `[...]` span in order. Inside a span
 * that is JSON, the objects and arrays nested in its value follow it (the answer may hide a
 * level down), found by walking the parsed value, not by scanning its text again.
 *
 * A span that runs off the end is a cut-off value when the rest of the text is valid JSON so
 * far; that ends the search. Otherwise it is a stray bracket in prose (`I considered { but`):
 * the search goes on after it, and the span is offered last, as truncated, only when no later
 * span parsed. The search stops when its budget runs out, and its return value says so.
 */
export function* jsonCandidates(text: string, options: JsonCandidatesOptions = {}): Generator<JsonCandidate, JsonCandidatesEnd> {
  const whole = text.replace(/^\uFEFF/, '').trim();
  if (whole.length === 0) return { budgetExhausted: false };
  let budget = options.budget ?? 4 * whole.length + 65_536;
  /** Texts already offered, with their parse, so a span equal to the whole text is not parsed twice. */
  const seen = new Map<string, { parses: boolean; value?: unknown }>();
  const offer = (candidateText: string): { parses: boolean; value?: unknown } => {
    budget -= candidateText.length + CANDIDATE_COST;
    const parse = parseCandidate(candidateText);
    seen.set(candidateText, parse);
    return parse;
  };

  yield { strategy: 'whole-text', text: whole, ...offer(whole) };

  const memo = new BalancedScanMemo(whole.length);
  for (const block of findFencedBlocks(whole)) {
    const content = block.content.trim();
    if (content.length === 0 || seen.has(content)) continue;
    const scan = /^[{[]/.test(content) ? scanBalanced(content, 0) : undefined;
    if (scan) budget -= scan.scanned;
    const truncated = !block.terminated || scan?.kind === 'truncated';
    yield {
      strategy: 'fenced-block',
      text: content,
      ...offer(content),
      ...(truncated ? { truncated, openBrackets: scan?.kind === 'truncated' ? scan.open : 0 } : {}),
    };
  }

  /** The first stray bracket that ran off the end, offered last if no later span parses. */
  let stray: JsonCandidate | undefined;
  const nextOpening = openingFinder(whole);
  let from = 0;
  for (;;) {
    if (budget <= 0) return { budgetExhausted: true };
    const start = nextOpening(from);
    if (start === -1) break;
    const scan = scanBalanced(whole, start, memo, budget);
    budget -= scan.scanned;
    if (scan.kind === 'stopped') return { budgetExhausted: true };
    if (scan.kind === 'mismatched') {
      from = start + 1;
      continue;
    }
    if (scan.kind === 'truncated') {
      const check = isJsonPrefix(whole, start);
      budget -= check.read;
      const candidate: JsonCandidate = { strategy: 'balanced', text: whole.slice(start), parses: false, truncated: true, openBrackets: scan.open };
      if (check.prefix) {
        // Everything after it is inside the cut-off value.
        yield candidate;
        return { budgetExhausted: false };
      }
      stray ??= candidate;
      from = start + 1;
      continue;
    }
    const span = whole.slice(start, scan.end);
    let parse = seen.get(span);
    if (!parse) {
      parse = offer(span);
      yield { strategy: 'balanced', text: span, ...parse };
    }
    if (parse.parses) {
      stray = undefined;
      const walked = yield* nestedCandidates(parse.value, () => (budget -= CANDIDATE_COST) > 0);
      if (!walked) return { budgetExhausted: true };
    }
    // Inside a span that is not JSON, only fragments of the broken value would be found.
    from = scan.end;
  }
  if (stray) yield stray;
  return { budgetExhausted: false };
}

/**
 * The objects and arrays nested in `root`, in document order, without `root` itself; `charge`
 * pays for each and says whether the budget allows it. Returns `false` when the budget ran out.
 */
function* nestedCandidates(root: unknown, charge: () => boolean): Generator<JsonCandidate, boolean> {
  if (!isContainer(root)) return true;
  // An explicit stack: parsed values may nest deeper than the call stack allows.
  const pending: object[] = [];
  const pushChildren = (value: object): void => {
    const children = Array.isArray(value) ? value : Object.values(value);
    for (let index = children.length - 1; index >= 0; index--) if (isContainer(children[index])) pending.push(children[index] as object);
  };
  pushChildren(root);
  while (pending.length > 0) {
    if (!charge()) return false;
    const value = pending.pop() as object;
    yield { strategy: 'balanced', parses: true, value };
    pushChildren(value);
  }
  return true;
}

/** Finds the next `{` or `[` from a position that only moves forward, reading each character once. */
function openingFinder(text: string): (from: number) => number {
  let brace = -2;
  let bracket = -2;
  return (from) => {
    if (brace !== -1 && brace < from) brace = text.indexOf('{', from);
    if (bracket !== -1 && bracket < from) bracket = text.indexOf('[', from);
    if (brace === -1) return bracket;
    if (bracket === -1) return brace;
    return Math.min(brace, bracket);
  };
}
