import { StringDecoder } from 'node:string_decoder';

/**
 * Bytes to decode at a time. V8 makes a string of 128 KiB or more in its large-object space, about
 * 20 times slower per byte than a smaller one (a 2.7 MB transcript decoded in 256 KiB pieces: 9.5
 * ms on Node 20; in 64 KiB pieces: 0.45 ms; bench/README.md, nineteenth round), so large files are
 * decoded in pieces below that and never held as one string.
 */
export const LINE_CHUNK_BYTES = 64 * 1024;

/**
 * Which line breaks split lines: `'lf'` is `\n` with a `\r` right before it part of the break (a
 * lone `\r` is not one), as Grep splits; `'any'` is also a lone `\r`, as `readline` splits.
 */
export type LineBreaks = 'lf' | 'any';

const LF = /\r?\n/;
const ANY = /\r\n|\n|\r/;

/**
 * `text`, which ends with a line break or at the end of its file, as its lines: no empty line after
 * a final break.
 */
export function textLines(text: string, breaks: LineBreaks): string[] {
  // (A split at a string is several times faster than at a pattern, and most text has no `\r`.)
  const lines = text.includes('\r') ? text.split(breaks === 'any' ? ANY : LF) : text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * Splits UTF-8 bytes given in pieces into lines, decoding each piece on its own (a character
 * split between two pieces is decoded whole; invalid bytes become U+FFFD as `buffer.toString`
 * makes them). Holds only the line not yet ended.
 */
export class Utf8LineSplitter {
  readonly #decoder = new StringDecoder('utf8');
  readonly #breaks: LineBreaks;
  /** The part of a line not yet ended, from earlier pieces. */
  #rest = '';

  constructor(breaks: LineBreaks) {
    this.#breaks = breaks;
  }

  /** The lines the bytes given so far ended. */
  push(bytes: Uint8Array): string[] {
    const piece = this.#decoder.write(bytes);
    // A `\r` ending the piece may be the first half of a `\r\n`: with `'any'` it waits for the next.
    const end = this.#breaks === 'any' && piece.endsWith('\r') ? piece.length - 2 : piece.length - 1;
    const cut = this.#lastBreak(piece, end);
    if (cut < 0) {
      this.#rest += piece;
      return [];
    }
    const head = piece.slice(0, cut + 1);
    const rest = this.#rest;
    this.#rest = piece.slice(cut + 1);
    if (rest === '') return textLines(head, this.#breaks);
    // The line the earlier pieces began is joined alone, the piece's other lines split where they
    // are: joined with them into one string, it could reach V8's large-object space (128 KiB),
    // where a string made of others costs about ten times as much (a transcript of long lines).
    // After a `\n` no break is split (a `\r\n` ends there); a lone `\r` before it splits in the first part.
    const newline = head.indexOf('\n');
    if (newline < 0 || newline === head.length - 1) return textLines(rest + head, this.#breaks);
    return textLines(rest + head.slice(0, newline + 1), this.#breaks).concat(textLines(head.slice(newline + 1), this.#breaks));
  }

  /** The lines left once every piece is given: the last, when no break ended it. */
  end(): string[] {
    const rest = this.#rest + this.#decoder.end();
    this.#rest = '';
    return rest === '' ? [] : textLines(rest, this.#breaks);
  }

  /** The position of the last line break of `text` at or before `end` (a `\r\n` by its `\n`), or -1. */
  #lastBreak(text: string, end: number): number {
    // (lastIndexOf reads a negative position as 0.)
    if (end < 0) return -1;
    const newline = text.lastIndexOf('\n', end);
    if (this.#breaks === 'lf') return newline;
    // A lone `\r` after it is a break too. Looked for after it only: a search back from the end
    // for a `\r` that text without one does not have reads the whole piece again.
    let carriage = -1;
    for (let at = text.indexOf('\r', newline + 1); at !== -1 && at <= end; at = text.indexOf('\r', at + 1)) carriage = at;
    return Math.max(newline, carriage);
  }
}
