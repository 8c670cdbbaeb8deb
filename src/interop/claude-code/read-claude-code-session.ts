import { ConfigurationError } from '../../errors/configuration-error.js';
import type { SessionEntry } from '../../state/entries.js';
import {
  ClaudeCodeSessionNormalizer,
  type ClaudeCodeSessionStats,
  type ClaudeCodeSessionWarning,
} from './claude-code-session-normalizer.js';
import { LineSplitter } from './line-splitter.js';

/**
 * A Claude Code session as the core reads it: the whole text, or an (async) iterable of chunks
 * (strings or UTF-8 bytes, e.g. a `fetch` body or a Node stream) — or of lines with `lines: true`.
 */
export type ClaudeCodeSessionSource =
  | string
  | Iterable<string | Uint8Array>
  | AsyncIterable<string | Uint8Array>;

/** Options of {@link readClaudeCodeSession}. */
export interface ReadClaudeCodeSessionOptions {
  /**
   * Each item of an iterable source is already one line (Node's `readline`, `text.split('\n')`).
   * When false, items are arbitrary chunks of the file and lines are split at `\n`.
   * @default false
   */
  lines?: boolean;
  /**
   * Called for each malformed line (not JSON, or not an object with a `type`); the line is skipped
   * and counted in `stats.malformedLines`. A line that starts with a torn record (a crash mid-line,
   * then the next record appended onto it) loses only the torn record: the first suffix from a
   * later `{"` that parses as a record is read, with a warning. Reading never fails because of a bad line.
   * @default undefined
   */
  onWarning?: (warning: ClaudeCodeSessionWarning) => void;
  /**
   * Label used in warnings (a file name, a URL).
   * @default undefined
   */
  source?: string;
  /**
   * The agent id given to sidechain lines that carry none, for a subagent file read on its own.
   * @default undefined (such lines get the uuid of their sidechain's first line)
   */
  agentId?: string;
  /**
   * Session id for lines that carry none.
   * @default '' until a line names one
   */
  sessionId?: string;
}

/** The entries of a Claude Code session, read lazily; iterate once. */
export interface ClaudeCodeSessionReader extends AsyncIterable<SessionEntry> {
  /** Counts so far; complete once iteration has ended. */
  readonly stats: ClaudeCodeSessionStats;
}

/**
 * Reads a Claude Code session (the JSONL files under `~/.claude/projects/`) as normalized
 * {@link SessionEntry} objects, streaming: memory holds one line and at most one unfinished
 * message per thread, never the whole session. Lines that share a `message.id` become one
 * assistant message; subagent sidechains keep their own `agentId`; compaction boundaries,
 * compact summaries, `toolUseResult`, `planContent`, plan file attachments and the plan `slug`
 * are kept; every other kind of line is skipped and counted.
 * For a file path, use `readClaudeCodeSessionFile` from `agent-harness/node`.
 * @example
 * const reader = readClaudeCodeSession(text);
 * for await (const entry of reader) if (entry.kind === 'message') console.log(entry.message.role);
 * console.log(reader.stats.malformedLines);
 */
export function readClaudeCodeSession(
  source: ClaudeCodeSessionSource,
  options: ReadClaudeCodeSessionOptions = {},
): ClaudeCodeSessionReader {
  if (typeof source !== 'string' && !isIterable(source)) {
    throw new ConfigurationError(
      `readClaudeCodeSession needs the session text or an (async) iterable of chunks or lines, got ${source === null ? 'null' : typeof source}. For a file path use readClaudeCodeSessionFile from "agent-harness/node".`,
    );
  }
  const normalizer = new ClaudeCodeSessionNormalizer({ onWarning: options.onWarning, sessionId: options.sessionId });
  normalizer.beginSource({ source: options.source, defaultAgentId: options.agentId });
  let started = false;
  return {
    stats: normalizer.stats,
    [Symbol.asyncIterator]() {
      if (started) {
        throw new ConfigurationError('A Claude Code session reader can be iterated only once; call readClaudeCodeSession again to read it anew.');
      }
      started = true;
      return normalizeLines(normalizer, source, options.lines ?? false);
    },
  };
}

function isIterable(value: unknown): value is Iterable<unknown> | AsyncIterable<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    (typeof (value as Iterable<unknown>)[Symbol.iterator] === 'function' ||
      typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function')
  );
}

async function* normalizeLines(
  normalizer: ClaudeCodeSessionNormalizer,
  source: ClaudeCodeSessionSource,
  lines: boolean,
): AsyncGenerator<SessionEntry, void, undefined> {
  const out: SessionEntry[] = [];
  const onLine = (line: string): void => normalizer.push(line, out);
  const splitter = new LineSplitter();

  const items = typeof source === 'string' ? chunksOf(source) : source;
  const decoder = lines && typeof source !== 'string' ? new TextDecoder('utf-8') : undefined;
  for await (const item of items as AsyncIterable<string | Uint8Array>) {
    if (decoder) {
      const text = typeof item === 'string' ? item : decoder.decode(item);
      if (text.includes('\n')) {
        const itemSplitter = new LineSplitter();
        itemSplitter.push(text, onLine);
        itemSplitter.end(onLine);
      } else {
        onLine(text.endsWith('\r') ? text.slice(0, -1) : text);
      }
    } else {
      splitter.push(item, onLine);
    }
    if (out.length > 0) {
      for (const entry of out) yield entry;
      out.length = 0;
    }
  }
  splitter.end(onLine);
  normalizer.finish(out);
  for (const entry of out) yield entry;
}

/** Cuts a text into slices so entries are handed out while reading, not all at the end. */
function* chunksOf(text: string, size = 64 * 1024): Generator<string> {
  for (let start = 0; start < text.length; start += size) yield text.slice(start, start + size);
}
