/**
 * Splits a stream of text or byte chunks into lines (`\n` or `\r\n`), keeping only the unfinished
 * last line between chunks. UTF-8 bytes are decoded with a streaming `TextDecoder`, so a character
 * split across chunks is decoded correctly.
 */
export class LineSplitter {
  private rest = '';
  private decoder: TextDecoder | undefined;
  private first = true;

  /** Feeds a chunk; calls `onLine` for every line it completes. */
  push(chunk: string | Uint8Array, onLine: (line: string) => void): void {
    let text: string;
    if (typeof chunk === 'string') {
      text = chunk;
    } else {
      this.decoder ??= new TextDecoder('utf-8');
      text = this.decoder.decode(chunk, { stream: true });
    }
    if (this.first && text.length > 0) {
      this.first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    let start = 0;
    let index = text.indexOf('\n');
    if (index === -1) {
      this.rest += text;
      return;
    }
    // The first line of this chunk completes the carried-over rest.
    onLine(stripCarriageReturn(this.rest + text.slice(0, index)));
    this.rest = '';
    start = index + 1;
    while ((index = text.indexOf('\n', start)) !== -1) {
      onLine(stripCarriageReturn(text.slice(start, index)));
      start = index + 1;
    }
    this.rest = text.slice(start);
  }

  /** Ends the stream; calls `onLine` for a last line without a trailing newline. */
  end(onLine: (line: string) => void): void {
    if (this.decoder) this.rest += this.decoder.decode();
    if (this.rest.length > 0) onLine(stripCarriageReturn(this.rest));
    this.rest = '';
  }
}

function stripCarriageReturn(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}
