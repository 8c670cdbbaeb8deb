import { ConfigurationError } from '../../errors/configuration-error.js';
import type { SessionEntry } from '../../state/entries.js';
import type { ClaudeCodeSessionNormalizer } from './claude-code-session-normalizer.js';
import { onceReader, readPendingBackups, type ClaudeCodeSessionReader } from './claude-code-session-reader.js';
import type { ClaudeCodeSessionStats, ClaudeCodeSessionWarning, ClaudeCodeSubagent, ReadClaudeCodeFileBackup } from './claude-code-session-types.js';
import { emptyClaudeCodeStats } from './empty-claude-code-stats.js';
import { LineSplitter } from './line-splitter.js';
import { checkOptions, isBoolean, isFunction, isNonEmptyString, isString, type OptionsSpec } from '../../options/index.js';

export type { ClaudeCodeSessionReader } from './claude-code-session-reader.js';

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
   * Called for each problem with a line; reading never fails because of a bad line. A line that
   * is not JSON, or not an object with a `type`, is skipped and counted in `stats.malformedLines`.
   * A line that starts with a torn record (a crash mid-line, then the next record appended onto
   * it) loses only the torn record: the record appended onto it is read. A content block missing
   * what its type needs is dropped (`stats.droppedBlocks`), a line repeating a complete message
   * is skipped (`stats.duplicateLines`), an unknown permission mode is ignored, and a plan file
   * backup that cannot be read is left out — each with a warning.
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
  /**
   * Reads a backup of the plan file from Claude Code's file checkpoints
   * (`~/.claude/file-history/<sessionId>/<backupFileName>`), so the plan file's copies in
   * `file-history-snapshot` lines become `plan-snapshot` entries (`capturedFrom: 'file-history'`).
   * Return undefined when it is not there. `readClaudeCodeSessionFile` supplies one.
   * @default undefined (file-history lines are skipped)
   */
  readFileBackup?: ReadClaudeCodeFileBackup;
}

const OPTIONS: OptionsSpec<ReadClaudeCodeSessionOptions> = {
  lines: isBoolean,
  onWarning: isFunction,
  source: isString,
  agentId: isNonEmptyString,
  sessionId: isNonEmptyString,
  readFileBackup: isFunction,
};

/**
 * Reads a Claude Code session (the JSONL files under `~/.claude/projects/`) as normalized
 * {@link SessionEntry} objects, streaming: memory holds one chunk of lines and at most one
 * unfinished message per thread, never the whole session. Lines that share a `message.id` become
 * one assistant message; subagent sidechains keep their own `agentId` (`reader.subagents` links
 * each to its `Task` or `Agent` call); compaction boundaries, compact summaries, `toolUseResult`,
 * `planContent`, plan file attachments and the plan `slug` are kept; the permission mode becomes
 * `mode-change` entries and the todo tools (`TodoWrite`, `TaskCreate`/`TaskUpdate`/`TaskList`)
 * `todo-update` entries, so `recoverPlan`, `recoverTodos` and a resume read them like the
 * library's own sessions; every other kind of line is skipped and counted.
 * For a file path, use `readClaudeCodeSessionFile` from `agent-harness/node`.
 * @throws ConfigurationError when `source` is neither text nor an (async) iterable.
 * @example
 * const reader = readClaudeCodeSession(text);
 * for await (const entry of reader) if (entry.kind === 'message') console.log(entry.message.role);
 * console.log(reader.stats.malformedLines);
 */
export function readClaudeCodeSession(
  source: ClaudeCodeSessionSource,
  options: ReadClaudeCodeSessionOptions = {},
): ClaudeCodeSessionReader {
  checkOptions<ReadClaudeCodeSessionOptions>(options, OPTIONS, { owner: 'readClaudeCodeSession', optional: true });
  if (typeof source !== 'string' && !isIterable(source)) {
    throw new ConfigurationError(
      `readClaudeCodeSession needs the session text or an (async) iterable of chunks or lines, got ${source === null ? 'null' : typeof source}. For a file path use readClaudeCodeSessionFile from "agent-harness/node".`,
    );
  }
  if (options.readFileBackup !== undefined && typeof options.readFileBackup !== 'function') {
    throw new ConfigurationError(`readClaudeCodeSession's readFileBackup must be a function, got ${typeof options.readFileBackup}.`);
  }
  // The normalizer is loaded when the reader is first iterated (reading is asynchronous anyway):
  // a browser host does not download it up front. The reader's counts and subagents are the
  // objects the normalizer will fill, so they read the same before and during the reading.
  const stats = emptyClaudeCodeStats();
  const subagents = new Map<string, ClaudeCodeSubagent>();
  return onceReader({ stats, subagents: { byAgent: subagents } }, 'readClaudeCodeSession', () => normalizeLines({ stats, subagents }, source, options));
}

/**
 * The normalizer's module, loaded the first time a reader is iterated. A load that failed is
 * forgotten: the next reader tries again.
 */
let normalizerLoading: Promise<typeof import('./claude-code-session-normalizer.js')> | undefined;
const loadNormalizer = () =>
  (normalizerLoading ??= import('./claude-code-session-normalizer.js').catch((error: unknown) => {
    normalizerLoading = undefined;
    throw error;
  }));

async function newNormalizer(view: { stats: ClaudeCodeSessionStats; subagents: Map<string, ClaudeCodeSubagent> }, options: ReadClaudeCodeSessionOptions): Promise<ClaudeCodeSessionNormalizer> {
  const { ClaudeCodeSessionNormalizer } = await loadNormalizer();
  const normalizer = new ClaudeCodeSessionNormalizer({
    onWarning: options.onWarning,
    sessionId: options.sessionId,
    readsFileBackups: options.readFileBackup !== undefined,
    stats: view.stats,
    subagents: view.subagents,
  });
  normalizer.beginSource({ source: options.source, defaultAgentId: options.agentId });
  return normalizer;
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
  view: { stats: ClaudeCodeSessionStats; subagents: Map<string, ClaudeCodeSubagent> },
  source: ClaudeCodeSessionSource,
  options: ReadClaudeCodeSessionOptions,
): AsyncGenerator<SessionEntry, void, undefined> {
  const normalizer = await newNormalizer(view, options);
  const out: SessionEntry[] = [];
  const lines: string[] = [];
  const collect = (line: string): void => {
    lines.push(line);
  };
  const { readFileBackup } = options;
  // Lines are pushed one by one so a plan backup is read before the next line moves the threads on.
  async function* drain(): AsyncGenerator<SessionEntry, void, undefined> {
    for (const line of lines) {
      normalizer.push(line, out);
      if (readFileBackup) await readPendingBackups(normalizer, readFileBackup, out);
    }
    lines.length = 0;
    yield* out;
    out.length = 0;
  }

  const splitter = new LineSplitter();
  const items = typeof source === 'string' ? chunksOf(source) : source;
  const decoder = options.lines && typeof source !== 'string' ? new TextDecoder('utf-8') : undefined;
  for await (const item of items as AsyncIterable<unknown>) {
    if (typeof item !== 'string' && !(item instanceof Uint8Array)) {
      throw new ConfigurationError(`readClaudeCodeSession reads chunks or lines of text or UTF-8 bytes, got ${item === null ? 'null' : typeof item}.`);
    }
    if (decoder) {
      const text = typeof item === 'string' ? item : decoder.decode(item);
      if (text.includes('\n')) {
        const itemSplitter = new LineSplitter();
        itemSplitter.push(text, collect);
        itemSplitter.end(collect);
      } else {
        collect(text.endsWith('\r') ? text.slice(0, -1) : text);
      }
    } else {
      splitter.push(item, collect);
    }
    yield* drain();
  }
  splitter.end(collect);
  yield* drain();
  normalizer.finish(out);
  yield* out;
}

/** Cuts a text into slices so entries are handed out while reading, not all at the end. */
function* chunksOf(text: string, size = 64 * 1024): Generator<string> {
  for (let start = 0; start < text.length; start += size) yield text.slice(start, start + size);
}
