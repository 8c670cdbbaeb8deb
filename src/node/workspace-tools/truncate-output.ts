/** Keeps the beginning and the end of a text longer than `maxChars`, noting what was left out. */
export function truncateMiddle(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const head = Math.ceil(maxChars / 2);
  const tail = maxChars - head;
  const omitted = text.length - maxChars;
  return `${text.slice(0, head)}\n\n... [${omitted} characters omitted] ...\n\n${tail > 0 ? text.slice(-tail) : ''}`;
}

/**
 * Accumulates streamed text in bounded memory: the first half of `maxChars` and a rolling last
 * half, so a command that prints gigabytes costs kilobytes.
 */
export class BoundedText {
  private head = '';
  private tail = '';
  private total = 0;

  constructor(private readonly maxChars: number) {}

  /** Appends a chunk. */
  push(chunk: string): void {
    this.total += chunk.length;
    const headRoom = Math.ceil(this.maxChars / 2) - this.head.length;
    if (headRoom > 0) {
      this.head += chunk.slice(0, headRoom);
      chunk = chunk.slice(headRoom);
    }
    if (chunk === '') return;
    this.tail += chunk;
    const tailSize = Math.floor(this.maxChars / 2);
    if (this.tail.length > tailSize * 2 + 1024) this.tail = this.tail.slice(-tailSize);
  }

  /** The text, with a note in the middle when some was left out. */
  toString(): string {
    const tailSize = Math.floor(this.maxChars / 2);
    const kept = this.head.length + Math.min(this.tail.length, tailSize);
    if (this.total <= this.maxChars) return this.head + this.tail;
    const omitted = this.total - kept;
    return `${this.head}\n\n... [${omitted} characters omitted] ...\n\n${tailSize > 0 ? this.tail.slice(-tailSize) : ''}`;
  }
}

/** Keeps the beginning of a text longer than `maxChars`, cut at a line end, with a note and a hint. */
export function truncateEnd(text: string, maxChars: number, hint: string): string {
  if (text.length <= maxChars) return text;
  const cut = text.lastIndexOf('\n', maxChars);
  const kept = text.slice(0, cut > 0 ? cut : maxChars);
  return `${kept}\n\n[Output truncated: ${text.length - kept.length} more characters. ${hint}]`;
}
