import type { ContentBlock, Message } from '../../model/messages.js';
import {
  ENTRY_SCHEMA_VERSION,
  type CompactBoundaryEntry,
  type MessageEntry,
  type PlanReferenceEntry,
  type SessionEntry,
  type SessionMetaEntry,
} from '../../state/entries.js';
import { isRecord, toBlocks, toUsage, type JsonRecord } from './claude-code-line-fields.js';
import type { ClaudeCodeSessionStats, ClaudeCodeSessionWarning } from './claude-code-session-types.js';

export type { ClaudeCodeSessionStats, ClaudeCodeSessionWarning } from './claude-code-session-types.js';

/** Options of {@link ClaudeCodeSessionNormalizer}. */
export interface ClaudeCodeSessionNormalizerOptions {
  /** Called once per malformed line. @default undefined (malformed lines are only counted) */
  onWarning?: (warning: ClaudeCodeSessionWarning) => void;
  /** Used for lines that carry no `sessionId`. @default '' until a line names one */
  sessionId?: string;
}

interface Thread {
  agentId: string | undefined;
  lastId: string | null;
  /** The assistant message still collecting lines that share its `message.id`. */
  pending: MessageEntry | undefined;
  /** Position of each `tool_use` id of `pending` in its content. */
  toolUseIndex: Map<string, number>;
  /** User lines holding only results for `pending`'s tool calls, written between its lines. */
  deferred: MessageEntry[];
}

const MAIN = '\u0000main';
const EPOCH = '1970-01-01T00:00:00.000Z';

/**
 * Turns Claude Code session lines (`~/.claude/projects/<project>/<session>.jsonl`) into
 * {@link SessionEntry} objects, one line at a time, holding at most one unfinished assistant
 * message (and the tool results written between its lines) per thread.
 *
 * - Lines sharing `message.id` (Claude Code writes one line per content block) become one
 *   assistant message; `usage` is taken once, from the last line. Tool-result lines written
 *   between those lines (parallel calls start running while the message streams) are moved after
 *   the merged message, ordered like the tool calls.
 * - Sidechains (subagents) are kept apart: each gets its own `agentId` — Claude Code's when the
 *   line has one, else (1.x files, inline sidechains) the `uuid` of the sidechain's first line —
 *   and its own `parentId` chain. Each thread's entries are chained in order (`parentId` is the
 *   previous entry of the thread); Claude Code's branch structure is not kept.
 * - `system` lines with subtype `compact_boundary` become `compact-boundary` entries; attachment
 *   lines with a plan file (`plan_file_reference`) become `plan-reference` entries; the session's
 *   `slug` becomes a `session-meta` entry when first seen (and when it changes). Every other kind
 *   is counted in `stats.skippedByKind` and dropped.
 * - A line that is not a JSON object with a `type` is counted and reported, never fatal.
 *
 * Internal engine of `readClaudeCodeSession` and `readClaudeCodeSessionFile`.
 */
export class ClaudeCodeSessionNormalizer {
  readonly stats: ClaudeCodeSessionStats = {
    lines: 0,
    malformedLines: 0,
    skippedLines: 0,
    skippedByKind: {},
    entries: 0,
    messages: 0,
    mergedLines: 0,
  };

  private readonly onWarning: ((warning: ClaudeCodeSessionWarning) => void) | undefined;
  private readonly threads = new Map<string, Thread>();
  /** Agent id of each inline (1.x) sidechain line, to follow `parentUuid` chains. */
  private readonly sidechainAgentByUuid = new Map<string, string>();
  private sessionId: string;
  private timestamp = EPOCH;
  private slug: string | undefined;
  private queuedMeta: SessionMetaEntry | undefined;
  private source: string | undefined;
  private defaultAgentId: string | undefined;
  private lineNumber = 0;
  private syntheticIds = 0;

  constructor(options: ClaudeCodeSessionNormalizerOptions = {}) {
    this.onWarning = options.onWarning;
    this.sessionId = options.sessionId ?? '';
  }

  /**
   * Starts a new file or source: line numbers restart, and sidechain lines without an `agentId`
   * get `defaultAgentId` (a subagent file's id) when given.
   */
  beginSource(options: { source?: string; defaultAgentId?: string } = {}): void {
    this.source = options.source;
    this.defaultAgentId = options.defaultAgentId;
    this.lineNumber = 0;
  }

  /** Reads one line; entries that became complete are appended to `out`. */
  push(line: string, out: SessionEntry[]): void {
    this.lineNumber++;
    this.stats.lines++;
    if (line.length === 0 || line.trim().length === 0) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      const recovered = recordAfterTornStart(line);
      if (!recovered) {
        this.malformed(`not valid JSON (${error instanceof Error ? error.message : String(error)})`);
        return;
      }
      this.malformed(
        `its first ${recovered.column} characters are a torn record (cut off, then the next record was appended onto it); that record is lost, the one after it was read`,
      );
      parsed = recovered.record;
    }
    if (!isRecord(parsed) || typeof parsed.type !== 'string') {
      this.malformed('not a JSON object with a string "type"');
      return;
    }
    if (typeof parsed.sessionId === 'string') this.sessionId = parsed.sessionId;
    if (typeof parsed.timestamp === 'string') this.timestamp = parsed.timestamp;
    const agentId = this.agentIdOf(parsed);
    if (typeof parsed.slug === 'string' && parsed.slug.length > 0 && parsed.slug !== this.slug) {
      this.noteSlug(parsed.slug, out);
    }

    switch (parsed.type) {
      case 'user':
      case 'assistant':
        this.message(parsed, agentId, out);
        return;
      case 'system':
        if (parsed.subtype === 'compact_boundary') {
          const thread = this.thread(agentId);
          this.flush(thread, out);
          const entry: CompactBoundaryEntry = { ...this.base(parsed, agentId), kind: 'compact-boundary' };
          this.emit(thread, entry, out);
          return;
        }
        this.skip(typeof parsed.subtype === 'string' ? `system/${parsed.subtype}` : 'system');
        return;
      case 'attachment':
        this.attachment(parsed, agentId, out);
        return;
      default:
        this.skip(parsed.type);
    }
  }

  /** Ends the current source: every thread's unfinished message is appended to `out`. */
  finish(out: SessionEntry[]): void {
    for (const thread of this.threads.values()) this.flush(thread, out);
    // A slug seen while the main thread was holding a message and never flushed since.
    if (this.queuedMeta) {
      const meta = this.queuedMeta;
      this.queuedMeta = undefined;
      this.emit(this.thread(undefined), meta, out);
    }
  }

  private malformed(problem: string): void {
    this.stats.malformedLines++;
    this.onWarning?.({
      message: `Skipped line ${this.lineNumber}${this.source ? ` of ${this.source}` : ''}: ${problem}.`,
      lineNumber: this.lineNumber,
      ...(this.source !== undefined ? { source: this.source } : {}),
    });
  }

  private skip(kind: string): void {
    this.stats.skippedLines++;
    this.stats.skippedByKind[kind] = (this.stats.skippedByKind[kind] ?? 0) + 1;
  }

  private agentIdOf(line: JsonRecord): string | undefined {
    if (typeof line.agentId === 'string' && line.agentId.length > 0) return line.agentId;
    if (line.isSidechain !== true) return undefined;
    const uuid = typeof line.uuid === 'string' ? line.uuid : undefined;
    const parent = typeof line.parentUuid === 'string' ? this.sidechainAgentByUuid.get(line.parentUuid) : undefined;
    const agentId = parent ?? this.defaultAgentId ?? uuid ?? `sidechain-${this.syntheticIds++}`;
    if (uuid !== undefined) this.sidechainAgentByUuid.set(uuid, agentId);
    return agentId;
  }

  private thread(agentId: string | undefined): Thread {
    const key = agentId ?? MAIN;
    let thread = this.threads.get(key);
    if (!thread) {
      thread = { agentId, lastId: null, pending: undefined, toolUseIndex: new Map(), deferred: [] };
      this.threads.set(key, thread);
    }
    return thread;
  }

  private base(line: JsonRecord, agentId: string | undefined) {
    return {
      $schemaVersion: ENTRY_SCHEMA_VERSION,
      id: typeof line.uuid === 'string' && line.uuid.length > 0 ? line.uuid : `claude-code-line-${this.nextSyntheticId()}`,
      parentId: null,
      // Numbered in output order by emit().
      seq: 0,
      timestamp: typeof line.timestamp === 'string' ? line.timestamp : this.timestamp,
      sessionId: typeof line.sessionId === 'string' ? line.sessionId : this.sessionId,
      ...(agentId !== undefined ? { agentId } : {}),
    };
  }

  private nextSyntheticId(): number {
    return this.syntheticIds++;
  }

  private noteSlug(slug: string, out: SessionEntry[]): void {
    this.slug = slug;
    const meta: SessionMetaEntry = {
      $schemaVersion: ENTRY_SCHEMA_VERSION,
      id: `claude-code-slug-${this.nextSyntheticId()}`,
      parentId: null,
      seq: 0,
      timestamp: this.timestamp,
      sessionId: this.sessionId,
      kind: 'session-meta',
      slug,
    };
    const main = this.thread(undefined);
    // Flushing here could split a message whose lines straddle the slug's first appearance.
    if (main.pending) this.queuedMeta = meta;
    else this.emit(main, meta, out);
  }

  private message(line: JsonRecord, agentId: string | undefined, out: SessionEntry[]): void {
    const raw = line.message;
    const role = isRecord(raw) && (raw.role === 'user' || raw.role === 'assistant') ? raw.role : line.type;
    const content = isRecord(raw) ? raw.content : undefined;
    if (!isRecord(raw) || (typeof content !== 'string' && !Array.isArray(content))) {
      this.malformed(`a "${String(line.type)}" line without message content`);
      return;
    }
    const thread = this.thread(agentId);

    if (role === 'assistant') {
      const blocks = toBlocks(content) ?? [];
      const messageId = typeof raw.id === 'string' ? raw.id : undefined;
      const usage = toUsage(raw.usage);
      const pending = thread.pending;
      if (pending && messageId !== undefined && pending.messageId === messageId) {
        this.addToolUses(thread, blocks, pending.message.content.length);
        (pending.message.content as ContentBlock[]).push(...blocks);
        // Claude Code repeats usage on every line; the last line has the final output count.
        if (usage) pending.usage = usage;
        this.stats.mergedLines++;
        return;
      }
      this.flush(thread, out);
      const entry: MessageEntry = {
        ...this.base(line, agentId),
        kind: 'message',
        message: { role: 'assistant', content: blocks },
        ...(messageId !== undefined ? { messageId } : {}),
        ...(usage ? { usage } : {}),
      };
      thread.pending = entry;
      thread.toolUseIndex.clear();
      this.addToolUses(thread, blocks, 0);
      this.stats.messages++;
      return;
    }

    const message: Message = { role: 'user', content: typeof content === 'string' ? content : (toBlocks(content) ?? []) };
    const entry: MessageEntry = { ...this.base(line, agentId), kind: 'message', message };
    if (line.toolUseResult !== undefined) entry.toolUseResult = line.toolUseResult;
    if (typeof line.planContent === 'string') entry.planContent = line.planContent;
    if (line.isCompactSummary === true) entry.isCompactSummary = true;
    this.stats.messages++;
    if (thread.pending && this.answersPending(thread, message.content)) {
      thread.deferred.push(entry);
      return;
    }
    this.flush(thread, out);
    this.emit(thread, entry, out);
  }

  private attachment(line: JsonRecord, agentId: string | undefined, out: SessionEntry[]): void {
    const attachment = line.attachment;
    const type = isRecord(attachment) && typeof attachment.type === 'string' ? attachment.type : undefined;
    if (!isRecord(attachment) || typeof attachment.planFilePath !== 'string' || (type !== 'plan_file_reference' && typeof attachment.planContent !== 'string')) {
      this.skip(type ? `attachment/${type}` : 'attachment');
      return;
    }
    const thread = this.thread(agentId);
    this.flush(thread, out);
    const entry: PlanReferenceEntry = {
      ...this.base(line, agentId),
      kind: 'plan-reference',
      name: attachment.planFilePath,
      ...(typeof attachment.planContent === 'string' ? { text: attachment.planContent } : {}),
    };
    this.emit(thread, entry, out);
  }

  private addToolUses(thread: Thread, blocks: ContentBlock[], offset: number): void {
    blocks.forEach((block, index) => {
      if (block.type === 'tool_use' && typeof block.id === 'string') thread.toolUseIndex.set(block.id, offset + index);
    });
  }

  private answersPending(thread: Thread, content: Message['content']): boolean {
    if (typeof content === 'string' || content.length === 0) return false;
    return content.every((block) => block.type === 'tool_result' && thread.toolUseIndex.has(block.tool_use_id as string));
  }

  private flush(thread: Thread, out: SessionEntry[]): void {
    if (thread.pending) {
      this.emit(thread, thread.pending, out);
      thread.pending = undefined;
      if (thread.deferred.length > 1) {
        const position = (entry: MessageEntry): number => {
          const blocks = entry.message.content as Array<{ tool_use_id?: unknown }>;
          return Math.min(...blocks.map((block) => thread.toolUseIndex.get(block.tool_use_id as string) ?? Infinity));
        };
        // Stable sort: results follow the order of the calls, as the Messages API expects.
        thread.deferred.sort((a, b) => position(a) - position(b));
      }
      for (const entry of thread.deferred) this.emit(thread, entry, out);
      thread.deferred = [];
      thread.toolUseIndex.clear();
    }
    if (thread.agentId === undefined && this.queuedMeta) {
      const meta = this.queuedMeta;
      this.queuedMeta = undefined;
      this.emit(thread, meta, out);
    }
  }

  private emit(thread: Thread, entry: SessionEntry, out: SessionEntry[]): void {
    entry.parentId = thread.lastId;
    thread.lastId = entry.id;
    this.stats.entries++;
    entry.seq = this.stats.entries;
    out.push(entry);
  }
}

/** Most `{"` positions tried in one malformed line, so a huge broken line stays cheap. */
const MAX_TORN_LINE_ATTEMPTS = 1000;

/**
 * A record appended onto a torn line (the writer crashed mid-line, then the session went on):
 * the first suffix starting at a later `{"` that parses as an object with a string `type`.
 */
function recordAfterTornStart(line: string): { record: Record<string, unknown>; column: number } | undefined {
  let attempts = 0;
  for (let index = line.indexOf('{"', 1); index !== -1 && attempts < MAX_TORN_LINE_ATTEMPTS; index = line.indexOf('{"', index + 1)) {
    attempts++;
    try {
      const record: unknown = JSON.parse(line.slice(index));
      if (isRecord(record) && typeof record.type === 'string') return { record, column: index };
    } catch {
      // Not here; try the next opening.
    }
  }
  return undefined;
}
