import { codePointBoundary, headOfText } from '../../model/code-point-boundary.js';
import type { LineMatches } from './regex-search-worker.js';
import { openCheckedFile } from './open-checked-file.js';
import { readOpenFile } from '../fs/read-open-file.js';
import { readUnsizedFile } from '../fs/read-unsized-file.js';
import { utf8Lines } from './utf8-lines.js';
import { LINE_CHUNK_BYTES, textLines } from '../fs/utf8-line-splitter.js';

/** Files larger than this are skipped by Grep. */
export const MAX_GREP_FILE_BYTES = 10 * 1024 * 1024;
const MAX_LINE_CHARS = 1000;
const MAX_LINES_PER_FILE = 5000;

/** The matches of one file. */
export interface FileMatches {
  absolutePath: string;
  /** How the output names the file (set by the caller). */
  display: string;
  mtimeMs: number;
  /** Number of matching lines. */
  matchCount: number;
  /** Matching lines and their context, in order (only when lines were collected). */
  lines: Array<{ number: number; text: string; isMatch: boolean }>;
}

/** Options of {@link searchFile}. */
export interface SearchFileOptions {
  absolutePath: string;
  /** Which real paths of the opened file are acceptable (inside the authorized search root). */
  accept: (openedRealPath: string) => boolean;
  /**
   * The indexes of the matching lines of a file, given as its text or as its lines (the pattern
   * runs in a worker, see RegexSearchWorker), and for lines longer than `longLine` where the first
   * match starts.
   */
  matchingLines: (file: string | readonly string[], longLine: number) => Promise<number[] | LineMatches>;
  before: number;
  after: number;
  /** Collect the lines (content mode); otherwise only count. */
  collectLines: boolean;
  /** Stops reading a file of size 0 that keeps giving data (see `readUnsizedFile`). */
  signal?: AbortSignal;
  /**
   * Called with the file's size (0 when it does not say, as `/proc` files) before it is read:
   * `false` (or a promise of it) ends the search of this file without reading it. Lets a caller
   * with several files under way read a large one only in its turn.
   */
  beforeRead?: (size: number) => boolean | Promise<boolean>;
}

/**
 * Searches one file line by line. Returns `undefined` when it has no match, cannot be opened
 * safely, is not a regular file, is larger than {@link MAX_GREP_FILE_BYTES} or looks binary.
 * A file that reports size 0 (procfs) is read to its end, up to the same bound; one whose read
 * would wait for data (`trace_pipe`), or that fails to read, is passed over.
 */
export async function searchFile(options: SearchFileOptions): Promise<FileMatches | undefined> {
  const opened = await openCheckedFile(options.absolutePath, 'read', options.accept);
  if (!opened.ok) return undefined;
  let bytes: Buffer | undefined;
  let mtimeMs: number;
  try {
    const stat = await opened.handle.stat();
    if (!stat.isFile() || stat.size > MAX_GREP_FILE_BYTES) return undefined;
    if (options.beforeRead && !(await options.beforeRead(stat.size))) return undefined;
    mtimeMs = stat.mtimeMs;
    if (stat.size > 0) bytes = await readOpenFile(opened.handle, stat.size);
    else {
      const read = await readUnsizedFile(opened.handle, MAX_GREP_FILE_BYTES, options.signal);
      bytes = typeof read === 'string' ? undefined : read;
    }
  } catch {
    // A file that fails to read (EIO from a sysfs attribute, say) is passed over, as one that fails to open.
    return undefined;
  } finally {
    await opened.handle.close();
  }
  if (!bytes) return undefined;
  if (bytes.subarray(0, 8192).includes(0)) return undefined;
  // A large file is decoded in pieces into its lines, so it is never one string of 128 KiB or
  // more (see utf8Lines), and the worker gets the lines. A small one goes as its text, which costs
  // less to post than a list of its lines, and is split here only when it matches.
  const text = bytes.length > LINE_CHUNK_BYTES ? undefined : bytes.toString('utf8');
  const split = text === undefined ? utf8Lines(bytes) : undefined;
  const answer = await options.matchingLines(split ?? text!, MAX_LINE_CHARS);
  const matching = Array.isArray(answer) ? answer : answer.lines;
  const columns = Array.isArray(answer) ? {} : answer.columns;
  if (matching.length === 0) return undefined;
  const lines = split ?? textLines(text!, 'lf');
  const marks = options.collectLines ? new Uint8Array(lines.length) : undefined;
  let matchCount = 0;
  // Matches come in order: each line is marked once however wide the context (-C 1000000 on a
  // file where every line matches would otherwise cost lines × context).
  let markedTo = -1;
  for (const index of matching) {
    matchCount++;
    if (!marks) continue;
    const from = Math.max(0, index - options.before, markedTo + 1);
    const to = Math.min(lines.length - 1, index + options.after);
    for (let context = from; context <= to; context++) if (marks[context] === 0) marks[context] = 1;
    markedTo = Math.max(markedTo, to);
    marks[index] = 2;
  }
  if (matchCount === 0) return undefined;
  const collected: FileMatches['lines'] = [];
  if (marks) {
    for (let index = 0; index < lines.length && collected.length < MAX_LINES_PER_FILE; index++) {
      if (marks[index] === 0) continue;
      const text = marks[index] === 2 ? shownLine(lines[index]!, columns[index]) : shownLine(lines[index]!, undefined);
      collected.push({ number: index + 1, text, isMatch: marks[index] === 2 });
    }
  }
  return { absolutePath: options.absolutePath, display: options.absolutePath, mtimeMs, matchCount, lines: collected };
}

/** Characters shown before a match deep in a long line. */
const LEAD_CHARS = 200;

/**
 * A line as Grep shows it: whole when short; else a window of {@link MAX_LINE_CHARS} characters,
 * from its start, or (when the match starts too far in to be seen) from a little before the match.
 */
function shownLine(line: string, column: number | undefined): string {
  if (line.length <= MAX_LINE_CHARS) return line;
  if (column === undefined || column < MAX_LINE_CHARS - LEAD_CHARS) return `${headOfText(line, MAX_LINE_CHARS)} ... [line truncated]`;
  const start = codePointBoundary(line, column - LEAD_CHARS);
  const end = codePointBoundary(line, Math.min(line.length, start + MAX_LINE_CHARS));
  return `[… ${start} characters …] ${line.slice(start, end)}${end < line.length ? ' ... [line truncated]' : ''}`;
}
