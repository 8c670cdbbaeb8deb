import { checkOptions, isNonNegativeInteger, isPositiveInteger, isString, type OptionsSpec } from '../options/index.js';
import { argumentError } from '../errors/argument-error.js';

/** Options of {@link unifiedDiff}. */
export interface UnifiedDiffOptions {
  /**
   * The file's path, for the `---` / `+++` header lines.
   * @default undefined (no header lines: the diff starts at the first `@@` hunk)
   */
  path?: string;
  /**
   * Unchanged lines shown around each change.
   * @default 3
   */
  context?: number;
  /**
   * The most edits the line matching looks for (after the common start and end are set aside);
   * past it, the differing middle is shown as removed and added whole, so a huge rewrite costs
   * linear time.
   * @default 2000
   */
  maxEdits?: number;
}

const OPTIONS: OptionsSpec<UnifiedDiffOptions> = { path: isString, context: isNonNegativeInteger, maxEdits: isPositiveInteger };

type Operation = { kind: ' ' | '-' | '+'; line: string };

/** Lines with their line break, so a last line without one differs from the same line with one. */
function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/**
 * The shortest edit script between two line lists (Myers' O(ND) algorithm), or `undefined` when
 * it needs more than `maxEdits` edits.
 */
function shortestEdit(a: readonly string[], b: readonly string[], maxEdits: number): Operation[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, maxEdits);
  // trace[d] holds the furthest x on each diagonal k (index k + d) after d edits.
  const trace: Int32Array[] = [];
  let previous = new Int32Array(1);
  for (let d = 0; d <= max; d++) {
    const current = new Int32Array(2 * d + 1);
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && previous[k - 1 + (d - 1)]! < previous[k + 1 + (d - 1)]!);
      let x = d === 0 ? 0 : down ? previous[k + 1 + (d - 1)]! : previous[k - 1 + (d - 1)]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      current[k + d] = x;
      if (x >= n && y >= m) {
        trace.push(current);
        return backtrack(trace, a, b);
      }
    }
    trace.push(current);
    previous = current;
  }
  return undefined;
}

function backtrack(trace: readonly Int32Array[], a: readonly string[], b: readonly string[]): Operation[] {
  const operations: Operation[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = trace.length - 1; d > 0; d--) {
    const previous = trace[d - 1]!;
    const k = x - y;
    const down = k === -d || (k !== d && previous[k - 1 + (d - 1)]! < previous[k + 1 + (d - 1)]!);
    const previousK = down ? k + 1 : k - 1;
    const previousX = previous[previousK + (d - 1)]!;
    const previousY = previousX - previousK;
    while (x > (down ? previousX : previousX + 1) && y > (down ? previousY + 1 : previousY)) operations.push({ kind: ' ', line: a[--x]! }), y--;
    if (down) operations.push({ kind: '+', line: b[--y]! });
    else operations.push({ kind: '-', line: a[--x]! });
  }
  while (x > 0) operations.push({ kind: ' ', line: a[--x]! }), y--;
  return operations.reverse();
}

function diffLines(a: readonly string[], b: readonly string[], maxEdits: number): Operation[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const middleA = a.slice(start, endA);
  const middleB = b.slice(start, endB);
  const middle = shortestEdit(middleA, middleB, maxEdits) ?? [
    ...middleA.map((line): Operation => ({ kind: '-', line })),
    ...middleB.map((line): Operation => ({ kind: '+', line })),
  ];
  const same = (line: string): Operation => ({ kind: ' ', line });
  return [...a.slice(0, start).map(same), ...middle, ...a.slice(endA).map(same)];
}

/** `start,count` of a hunk side, as diff writes it: `,1` left out, an empty range at the line before. */
function range(start: number, count: number): string {
  if (count === 1) return String(start + 1);
  return `${count === 0 ? start : start + 1},${count}`;
}

function printLine(operation: Operation): string {
  const text = `${operation.kind}${operation.line.endsWith('\n') ? operation.line.slice(0, -1) : operation.line}`;
  return operation.line.endsWith('\n') ? text : `${text}\n\\ No newline at end of file`;
}

/**
 * A unified diff of two texts, line by line, as `diff -u` and `git diff` write it (`patch` applies
 * it): `@@ -start,count +start,count @@` hunks with `context` unchanged lines around each change,
 * `\ No newline at end of file` where a last line has no line break. `null` stands for a file
 * that does not exist (`--- /dev/null` when it is created). Two equal texts give `''`.
 * @example unifiedDiff('a\nb\n', 'a\nc\n', { path: 'notes.md' })
 * // '--- a/notes.md\n+++ b/notes.md\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n'
 */
export function unifiedDiff(before: string | null, after: string | null, options: UnifiedDiffOptions = {}): string {
  if (before !== null && typeof before !== 'string') throw argumentError('unifiedDiff', 'before', "the text before (a string), or null for a file that did not exist", before);
  if (after !== null && typeof after !== 'string') throw argumentError('unifiedDiff', 'after', 'the text after (a string), or null for a deleted file', after);
  checkOptions<UnifiedDiffOptions>(options, OPTIONS, { owner: 'unifiedDiff', optional: true });
  const context = options.context ?? 3;
  const operations = diffLines(splitLines(before ?? ''), splitLines(after ?? ''), options.maxEdits ?? 2000);
  const changed = operations.flatMap((operation, index) => (operation.kind === ' ' ? [] : [index]));
  if (changed.length === 0 && (before === null) === (after === null)) return '';
  const lines: string[] = [];
  if (options.path !== undefined) lines.push(`--- ${before === null ? '/dev/null' : `a/${options.path}`}`, `+++ ${after === null ? '/dev/null' : `b/${options.path}`}`);
  // Hunks: runs of changes whose gaps are at most twice the context, with context around them.
  let index = 0;
  while (index < changed.length) {
    let last = index;
    while (last + 1 < changed.length && changed[last + 1]! - changed[last]! <= 2 * context + 1) last++;
    const from = Math.max(0, changed[index]! - context);
    const to = Math.min(operations.length, changed[last]! + context + 1);
    let oldStart = 0;
    let newStart = 0;
    for (const operation of operations.slice(0, from)) {
      if (operation.kind !== '+') oldStart++;
      if (operation.kind !== '-') newStart++;
    }
    const hunk = operations.slice(from, to);
    const oldCount = hunk.filter((operation) => operation.kind !== '+').length;
    const newCount = hunk.filter((operation) => operation.kind !== '-').length;
    lines.push(`@@ -${range(oldStart, oldCount)} +${range(newStart, newCount)} @@`, ...hunk.map(printLine));
    index = last + 1;
  }
  return `${lines.join('\n')}\n`;
}
