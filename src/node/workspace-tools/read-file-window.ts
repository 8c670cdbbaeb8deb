import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { headOfText } from '../../model/code-point-boundary.js';
import { imageMediaType } from '../../model/image-media-type.js';

/** Options of {@link readFileWindow}. */
export interface ReadFileWindowOptions {
  /** First line to return, 1-based. */
  startLine: number;
  /** Most lines to return. */
  maxLines: number;
  /** Most bytes of line content to return (at least one line is always returned). */
  maxBytes: number;
  /** Longer lines are cut to this many characters. */
  maxLineChars: number;
  /** Collect the raw bytes when the file is an image no larger than this. */
  maxImageBytes: number;
  /** Stops the read between two chunks: the read rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * Past this many bytes the read stops once the window is filled (or its last line was cut):
   * the rest of the file is neither hashed nor counted (`partial`).
   * @default Infinity
   */
  maxWholeBytes?: number;
  /**
   * The file's size from `fstat` when it was opened. A read that returns less than it asked for
   * once this many bytes are read is the end of the file, so no read is made only to find
   * nothing (one trip through libuv's thread pool fewer per file under 64 KiB). With 0 (procfs
   * and sysfs report 0 and answer in short reads) every chunk is read until a read returns nothing.
   * @default undefined (read until a read returns nothing)
   */
  knownSize?: number;
}

/** What {@link readFileWindow} found. */
export interface FileWindow {
  /**
   * SHA-256 of the whole file, hex; `undefined` when the read stopped early because the rest was
   * not needed (a binary file, or an image too large to return).
   */
  sha256: string | undefined;
  /** Total number of lines (a last line without a newline counts); with `partial`, the lines read so far. */
  totalLines: number;
  /** The read stopped past `maxWholeBytes`: the file goes on after the window (not hashed, not counted). */
  partial: boolean;
  /** The returned lines, without line terminators; cut lines end with a note. */
  lines: string[];
  /** Lines after the window were left out because of `maxBytes`. */
  stoppedByBytes: boolean;
  /** The file holds no text: a NUL byte in its first 8 KiB, or an image. */
  binary: boolean;
  /** The text is not valid UTF-8 (Latin-1, say): the bytes that are not were decoded as U+FFFD. */
  notUtf8: boolean;
  /** For images: the media type, and the bytes when within `maxImageBytes`. */
  image: { mediaType: string; data: Buffer | undefined } | undefined;
}

const CHUNK_BYTES = 64 * 1024;
const BINARY_SNIFF_BYTES = 8 * 1024;

/**
 * Reads an open file once, in chunks: hashes all of it, counts its lines, and keeps only the
 * requested window of lines (bounded by lines and bytes), so a large file costs little memory.
 * Reads no more than needed: a binary file larger than one chunk (64 KiB) stops after it
 * (nothing of it is returned), an image once it is past `maxImageBytes`; an aborted signal stops between chunks.
 * @throws the signal's reason when it aborts.
 */
export async function readFileWindow(handle: FileHandle, options: ReadFileWindowOptions): Promise<FileWindow> {
  const hash = createHash('sha256');
  const decoder = new StringDecoder('utf8');
  // Only tells whether the bytes are valid UTF-8 (StringDecoder replaces invalid ones silently).
  const validator = new TextDecoder('utf-8', { fatal: true });
  const validate = (chunk?: Buffer) => {
    if (window.notUtf8) return;
    try {
      if (chunk === undefined) validator.decode();
      else validator.decode(chunk, { stream: true });
    } catch {
      window.notUtf8 = true;
    }
  };
  // Not zeroed: only the bytes each read wrote (`subarray(0, bytesRead)`) are ever looked at.
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  const knownSize = options.knownSize ?? 0;
  const window: FileWindow = { sha256: undefined, totalLines: 0, partial: false, lines: [], stoppedByBytes: false, binary: false, notUtf8: false, image: undefined };
  const imageChunks: Buffer[] = [];
  let collecting = true;
  let bytes = 0;
  let line = '';
  let lineCut = false;
  let lineStarted = false;
  let position = 0;

  const endLine = () => {
    window.totalLines++;
    if (collecting && window.totalLines >= options.startLine) {
      const text = (line.endsWith('\r') ? line.slice(0, -1) : line) + (lineCut ? ' ... [line truncated]' : '');
      const cost = Buffer.byteLength(text) + 1;
      if (window.lines.length >= options.maxLines) collecting = false;
      else if (window.lines.length > 0 && bytes + cost > options.maxBytes) {
        collecting = false;
        window.stoppedByBytes = true;
      } else {
        window.lines.push(text);
        bytes += cost;
      }
    }
    line = '';
    lineCut = false;
    lineStarted = false;
  };
  const addText = (text: string) => {
    let start = 0;
    for (;;) {
      const newline = text.indexOf('\n', start);
      const piece = text.slice(start, newline === -1 ? text.length : newline);
      if (piece !== '') lineStarted = true;
      if (collecting && !lineCut) {
        line += piece;
        if (line.length > options.maxLineChars) {
          line = headOfText(line, options.maxLineChars);
          lineCut = true;
        }
      }
      if (newline === -1) return;
      endLine();
      start = newline + 1;
    }
  };

  let complete = true;
  for (;;) {
    options.signal?.throwIfAborted();
    const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, position);
    if (bytesRead === 0) break;
    const chunk = buffer.subarray(0, bytesRead);
    hash.update(chunk);
    if (position === 0) {
      const mediaType = imageMediaType(chunk);
      if (mediaType) window.image = { mediaType, data: undefined };
      window.binary = mediaType !== undefined || chunk.subarray(0, BINARY_SNIFF_BYTES).includes(0);
    }
    position += bytesRead;
    if (window.image && position <= options.maxImageBytes) imageChunks.push(Buffer.from(chunk));
    // Neither the rest of a binary file nor of an oversized image is ever returned: stop reading
    // (a binary file that fit in this chunk is complete, and keeps its hash).
    if ((window.binary && !window.image && bytesRead === CHUNK_BYTES) || (window.image && position > options.maxImageBytes)) {
      complete = false;
      break;
    }
    if (!window.binary) {
      validate(chunk);
      addText(decoder.write(chunk));
    }
    // A huge file (a log of gigabytes, a sparse file): what was asked for is there, the rest is not read.
    if (!window.binary && position > (options.maxWholeBytes ?? Infinity) && (!collecting || lineCut)) {
      if (collecting && lineStarted) endLine();
      window.partial = true;
      complete = false;
      break;
    }
    // A short read of a regular file past the size it had when opened: its end.
    if (bytesRead < CHUNK_BYTES && knownSize > 0 && position >= knownSize) break;
  }
  if (!window.binary && !window.partial) {
    validate();
    addText(decoder.end());
    if (lineStarted) endLine();
  }
  if (window.image && complete) window.image.data = Buffer.concat(imageChunks);
  window.sha256 = complete ? hash.digest('hex') : undefined;
  return window;
}

/** SHA-256 of a buffer or string, hex. */
export function sha256(content: Buffer | string): string {
  return createHash('sha256').update(content).digest('hex');
}
