import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../src/tools/unified-diff.js';

/** Applies a unified diff (as this module writes it) to a text: an independent reading of the format. */
function applyPatch(before: string, diff: string): string {
  const source = before.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const out: string[] = [];
  let cursor = 0;
  const lines = diff.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const header = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@$/.exec(lines[index]!);
    if (!header) continue;
    const oldCount = header[2] === undefined ? 1 : Number(header[2]);
    const oldStart = oldCount === 0 ? Number(header[1]) : Number(header[1]) - 1;
    while (cursor < oldStart) out.push(source[cursor++]!);
    for (index++; index < lines.length && /^[ +\-\\]/.test(lines[index]!); index++) {
      const line = lines[index]!;
      const noNewline = lines[index + 1] === '\\ No newline at end of file';
      const text = line.slice(1) + (noNewline ? '' : '\n');
      if (line[0] === ' ') {
        expect(source[cursor]).toBe(text);
        out.push(source[cursor++]!);
      } else if (line[0] === '-') {
        expect(source[cursor]).toBe(text);
        cursor++;
      } else if (line[0] === '+') out.push(text);
      if (noNewline) index++;
    }
    index--;
  }
  while (cursor < source.length) out.push(source[cursor++]!);
  return out.join('');
}

/** The fewest changed lines possible: lines not in a longest common subsequence. */
function minimalChanges(a: string[], b: string[]): number {
  const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) table[i]![j] = a[i] === b[j] ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
  return a.length + b.length - 2 * table[0]![0]!;
}

const lines = (text: string) => text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
const changedLines = (diff: string) => diff.split('\n').filter((line) => /^[+-]/.test(line) && !/^(---|\+\+\+) /.test(line)).length;
/** Texts from few distinct lines, so they share many, sometimes with no final line break. */
const text = fc.array(fc.constantFrom('a', 'b', 'c', 'd', ''), { maxLength: 30 }).chain((parts) => fc.boolean().map((newline) => parts.join('\n') + (newline && parts.length ? '\n' : '')));

const dir = mkdtempSync(join(tmpdir(), 'agent-harness-diff-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('unifiedDiff', () => {
  it('writes hunks as diff -u does', () => {
    expect(unifiedDiff('a\nb\n', 'a\nc\n', { path: 'notes.md' })).toBe('--- a/notes.md\n+++ b/notes.md\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n');
    expect(unifiedDiff('same\n', 'same\n')).toBe('');
    expect(unifiedDiff(null, 'one\ntwo\n', { path: 'new.txt' })).toBe('--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n');
    expect(unifiedDiff(null, '', { path: 'empty.txt' })).toBe('--- /dev/null\n+++ b/empty.txt\n');
    expect(unifiedDiff('x', 'x\n')).toBe('@@ -1 +1 @@\n-x\n\\ No newline at end of file\n+x\n');
  });

  it('keeps three lines of context and splits far-apart changes into hunks', () => {
    const before = Array.from({ length: 20 }, (_, index) => `line ${index + 1}`).join('\n') + '\n';
    const after = before.replace('line 2\n', 'LINE 2\n').replace('line 19\n', 'LINE 19\n');
    expect(unifiedDiff(before, after)).toBe(
      ['@@ -1,5 +1,5 @@', ' line 1', '-line 2', '+LINE 2', ' line 3', ' line 4', ' line 5', '@@ -16,5 +16,5 @@', ' line 16', ' line 17', ' line 18', '-line 19', '+LINE 19', ' line 20', ''].join('\n'),
    );
    expect(unifiedDiff(before, after, { context: 10 }).match(/^@@/gm)).toHaveLength(1);
  });

  it('a patch of the diff turns the old text into the new one, with as few changed lines as possible (property)', () => {
    fc.assert(
      fc.property(text, text, (before, after) => {
        const diff = unifiedDiff(before, after);
        expect(applyPatch(before, diff)).toBe(after);
        expect(changedLines(diff)).toBe(minimalChanges(lines(before), lines(after)));
      }),
      { numRuns: 500 },
    );
  });

  it('past maxEdits the middle is replaced whole, still a correct patch', () => {
    const before = Array.from({ length: 400 }, (_, index) => `old ${index}`).join('\n');
    const after = Array.from({ length: 400 }, (_, index) => (index % 2 ? `old ${index}` : `new ${index}`)).join('\n');
    const diff = unifiedDiff(before, after, { maxEdits: 10 });
    expect(applyPatch(before, diff)).toBe(after);
    expect(changedLines(diff)).toBe(399 + 399);
  });

  it('GNU patch applies what it writes', () => {
    const cases: Array<[string, string]> = [
      ['a\nb\nc\n', 'a\nB\nc\nd\n'],
      ['keep\nlast', 'keep\nlast\n'],
      ['one\n', ''],
      ['x\ny\nz', 'x\nz'],
      ['\n\n\n', '\n'],
      [Array.from({ length: 30 }, (_, index) => `${index}`).join('\n'), Array.from({ length: 30 }, (_, index) => `${index % 7 ? index : 'changed'}`).join('\n')],
    ];
    for (const [before, after] of cases) {
      const file = join(dir, 'file.txt');
      writeFileSync(file, before);
      writeFileSync(join(dir, 'change.diff'), unifiedDiff(before, after, { path: 'file.txt' }));
      execFileSync('patch', ['-p1', '--quiet', '--no-backup-if-mismatch', '-i', 'change.diff'], { cwd: dir });
      expect(readFileSync(file, 'utf8')).toBe(after);
    }
  });

  it('one edit in a large file needs one edit of search: the common start and end are set aside first', () => {
    const big = Array.from({ length: 100_000 }, (_, index) => `line ${index}`).join('\n');
    const changed = big.replace('line 50000\n', 'line 50000 changed\n');
    // With a budget of 2 edits, anything but the trimmed middle would fall back to a whole rewrite.
    const diff = unifiedDiff(big, changed, { maxEdits: 2 });
    expect(changedLines(diff)).toBe(2);
    expect(applyPatch(big, diff)).toBe(changed);
  });
});
