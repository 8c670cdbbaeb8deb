/** Where a JSON candidate was found in a model's answer. */
export type JsonCandidateStrategy = 'whole-text' | 'fenced-block' | 'balanced';

/** A piece of text that may be JSON. */
export interface JsonCandidate {
  strategy: JsonCandidateStrategy;
  text: string;
  /** The text ends before the value closes (an unterminated fence, an unclosed bracket). */
  truncated?: boolean;
  /** For `truncated`: how many objects/arrays were still open. */
  openBrackets?: number;
}

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
  | { kind: 'mismatched' };

/**
 * Scans from the `{` or `[` at `start` to its matching close, skipping brackets inside JSON
 * strings. Returns the index after the close, or that the text ended first.
 */
export function scanBalanced(text: string, start: number): BalancedScan {
  const stack: string[] = [];
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '{') stack.push('}');
    else if (char === '[') stack.push(']');
    else if (char === '}' || char === ']') {
      if (stack.pop() !== char) return { kind: 'mismatched' };
      if (stack.length === 0) return { kind: 'closed', end: index + 1 };
    }
  }
  return { kind: 'truncated', open: stack.length };
}

/** Most opening brackets tried by the balanced scan, so prose full of braces stays cheap. */
const MAX_BALANCED_STARTS = 500;

/**
 * The places JSON may hide in a model's answer, most deliberate first: the whole text, each
 * fenced block, then each balanced `{...}` or `[...]` span. A span that runs off the end stops
 * the scan (everything after it is inside the cut-off value).
 */
export function* jsonCandidates(text: string): Generator<JsonCandidate> {
  const whole = text.replace(/^\uFEFF/, '').trim();
  if (whole.length === 0) return;
  const seen = new Set<string>();
  seen.add(whole);
  yield { strategy: 'whole-text', text: whole };

  for (const block of findFencedBlocks(whole)) {
    const content = block.content.trim();
    if (content.length === 0 || seen.has(content)) continue;
    seen.add(content);
    const scan = /^[{[]/.test(content) ? scanBalanced(content, 0) : undefined;
    const truncated = !block.terminated || scan?.kind === 'truncated';
    yield {
      strategy: 'fenced-block',
      text: content,
      ...(truncated ? { truncated, openBrackets: scan?.kind === 'truncated' ? scan.open : 0 } : {}),
    };
  }

  let starts = 0;
  let from = 0;
  while (starts < MAX_BALANCED_STARTS) {
    const start = nextOpening(whole, from);
    if (start === -1) return;
    starts++;
    const scan = scanBalanced(whole, start);
    if (scan.kind === 'truncated') {
      yield { strategy: 'balanced', text: whole.slice(start), truncated: true, openBrackets: scan.open };
      return;
    }
    if (scan.kind === 'mismatched') {
      from = start + 1;
      continue;
    }
    const span = whole.slice(start, scan.end);
    if (!seen.has(span)) {
      seen.add(span);
      yield { strategy: 'balanced', text: span };
    }
    // Inside a span that is JSON (but failed the schema) the answer may still hide, one level
    // down; inside a span that is not JSON at all, only fragments of the broken value would.
    from = parses(span) ? start + 1 : scan.end;
  }
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function nextOpening(text: string, from: number): number {
  const brace = text.indexOf('{', from);
  const bracket = text.indexOf('[', from);
  if (brace === -1) return bracket;
  if (bracket === -1) return brace;
  return Math.min(brace, bracket);
}
