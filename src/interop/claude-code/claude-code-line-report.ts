import type { ClaudeCodeSessionStats, ClaudeCodeSessionWarning } from './claude-code-session-types.js';

/** Kinds counted in `skippedByKind` by name; others (and odd names) count as `other`. */
const MAX_KINDS = 200;

function kindName(kind: string): string {
  return /^[\w./:-]{1,64}$/.test(kind) && kind !== '__proto__' ? kind : 'other';
}

/** Where reading is (line and source), and how problems and skipped kinds are reported. */
export class ClaudeCodeLineReport {
  lineNumber = 0;
  source: string | undefined;

  constructor(
    private readonly stats: ClaudeCodeSessionStats,
    private readonly onWarning: ((warning: ClaudeCodeSessionWarning) => void) | undefined,
  ) {}

  /** A line that cannot be read as a record (counted in `malformedLines`). */
  malformed(problem: string): void {
    this.stats.malformedLines++;
    this.send(this.lineNumber, this.source, `Skipped line ${this.lineNumber}${this.where(this.source)}: ${problem}.`);
  }

  /** A problem with part of a line (the current one, or the one given); the rest is read. */
  warn(problem: string, at: { lineNumber: number; source: string | undefined } = this): void {
    this.send(at.lineNumber, at.source, `Line ${at.lineNumber}${this.where(at.source)}: ${problem}.`);
  }

  /** A well-formed line of a kind that carries nothing read. */
  skip(kind: string): void {
    this.stats.skippedLines++;
    const counts = this.stats.skippedByKind;
    let name = kindName(kind);
    if (!Object.hasOwn(counts, name) && Object.keys(counts).length >= MAX_KINDS) name = 'other';
    counts[name] = (Object.hasOwn(counts, name) ? (counts[name] as number) : 0) + 1;
  }

  private where(source: string | undefined): string {
    return source ? ` of ${source}` : '';
  }

  private send(lineNumber: number, source: string | undefined, message: string): void {
    this.onWarning?.({ message, lineNumber, ...(source !== undefined ? { source } : {}) });
  }
}
