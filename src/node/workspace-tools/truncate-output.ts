import { codePointBoundary } from '../../model/code-point-boundary.js';

/**
 * Keeps the beginning and the end of a text longer than `maxChars`, noting what was left out.
 * Cuts never split a surrogate pair (the API refuses half a character).
 */
export function truncateMiddle(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const headEnd = codePointBoundary(text, Math.ceil(maxChars / 2));
  const tail = maxChars - Math.ceil(maxChars / 2);
  const tailStart = tail > 0 ? codePointBoundary(text, text.length - tail, 'forward') : text.length;
  const omitted = tailStart - headEnd;
  return `${text.slice(0, headEnd)}\n\n... [${omitted} characters omitted] ...\n\n${text.slice(tailStart)}`;
}

/**
 * Accumulates streamed text in bounded memory: the first half of `maxChars` and a rolling last
 * half, so a command that prints gigabytes costs kilobytes.
 */
export class BoundedText {
  private head = '';
  /** The head is closed once text went to the tail: what comes later must not jump ahead of it. */
  private headClosed = false;
  private tail = '';
  private total = 0;

  constructor(private readonly maxChars: number) {}

  /** Appends a chunk. */
  push(chunk: string): void {
    this.total += chunk.length;
    const headRoom = this.headClosed ? 0 : Math.ceil(this.maxChars / 2) - this.head.length;
    if (headRoom > 0) {
      const cut = codePointBoundary(chunk, headRoom);
      this.head += chunk.slice(0, cut);
      chunk = chunk.slice(cut);
    }
    if (chunk === '') return;
    this.headClosed = true;
    this.tail += chunk;
    const tailSize = Math.floor(this.maxChars / 2);
    if (this.tail.length > tailSize * 2 + 1024) this.tail = this.tail.slice(codePointBoundary(this.tail, this.tail.length - tailSize, 'forward'));
  }

  /** The text, with a note in the middle when some was left out. */
  toString(): string {
    if (this.total <= this.maxChars) return this.head + this.tail;
    const tailSize = Math.floor(this.maxChars / 2);
    const tail = this.tail.length <= tailSize ? this.tail : this.tail.slice(codePointBoundary(this.tail, this.tail.length - tailSize, 'forward'));
    const omitted = this.total - this.head.length - tail.length;
    return `${this.head}\n\n... [${omitted} characters omitted] ...\n\n${tail}`;
  }
}

/** Keeps the beginning of a text longer than `maxChars`, cut at a line end, with a note and a hint. */
export function truncateEnd(text: string, maxChars: number, hint: string): string {
  if (text.length <= maxChars) return text;
  const cut = text.lastIndexOf('\n', maxChars);
  const kept = text.slice(0, cut > 0 ? cut : codePointBoundary(text, maxChars));
  return `${kept}\n\n[Output truncated: ${text.length - kept.length} more characters. ${hint}]`;
}
