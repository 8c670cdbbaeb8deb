import type { ContentBlock, Message } from '../../model/messages.js';
import { PERMISSION_MODES, type PermissionMode } from '../../permissions/types.js';
import {
  ENTRY_SCHEMA_VERSION,
  type CompactBoundaryEntry,
  type EntryBase,
  type MessageEntry,
  type ModeChangeEntry,
  type PlanReferenceEntry,
  type PlanSnapshotEntry,
  type SessionEntry,
  type SessionMetaEntry,
} from '../../state/entries.js';
import { toBlocks } from './claude-code-blocks.js';
import { isRecord, stringField, toUsage, type JsonRecord } from './claude-code-line-fields.js';
import { ClaudeCodePlanFiles, type PlanFileBackup } from './claude-code-plan-files.js';
import type { ClaudeCodeFileBackup, ClaudeCodeSessionStats, ClaudeCodeSessionWarning } from './claude-code-session-types.js';
import { ClaudeCodeSubagents } from './claude-code-subagents.js';
import { newThread, remember, type Thread } from './claude-code-thread.js';
import { EXIT_PLAN_MODE_TOOLS, toolInputObject } from './claude-code-tools.js';
import { recordAfterTornStart } from './torn-line.js';

/** Options of {@link ClaudeCodeSessionNormalizer}. */
export interface ClaudeCodeSessionNormalizerOptions {
  /** Called once per problem with a line. @default undefined (problems are only counted) */
  onWarning?: (warning: ClaudeCodeSessionWarning) => void;
  /** Used for lines that carry no `sessionId`. @default '' until a line names one */
  sessionId?: string;
  /**
   * Collect the plan file backups that file-history lines record, for the reader to read and
   * hand back through {@link ClaudeCodeSessionNormalizer.completeBackup}.
   * @default false (file-history lines are skipped)
   */
  readsFileBackups?: boolean;
}

/** A plan file backup waiting to be read. */
export interface PendingBackup {
  backup: ClaudeCodeFileBackup;
  plan: PlanFileBackup;
  lineNumber: number;
  source: string | undefined;
  timestamp: string;
}

const MAIN = '\u0000main';
const EPOCH = '1970-01-01T00:00:00.000Z';
/** Kinds counted in `skippedByKind` by name; others (and odd names) count as `other`. */
const MAX_KINDS = 200;

function kindName(kind: string): string {
  return /^[\w./:-]{1,64}$/.test(kind) && kind !== '__proto__' ? kind : 'other';
}

/**
 * Turns Claude Code session lines (`~/.claude/projects/<project>/<session>.jsonl`) into
 * {@link SessionEntry} objects, one line at a time, holding at most one unfinished assistant
 * message (and the tool results written between its lines) per thread.
 *
 * - Lines sharing `message.id` (Claude Code writes one line per content block) become one
 *   assistant message; `usage` is taken once, from the last line. Tool-result lines written
 *   between those lines are moved after the merged message, ordered like the tool calls. A line
 *   written twice (same `uuid`, or blocks already read) is skipped.
 * - Sidechains (subagents) are kept apart: each gets its own `agentId` — Claude Code's when the
 *   line has one, else (1.x inline sidechains) the `uuid` of the sidechain's first line — and its
 *   own `parentId` chain (the previous entry of the thread); Claude Code's branches are not kept.
 * - `compact_boundary` system lines become `compact-boundary` entries; plan file attachments
 *   become `plan-reference` entries; the session's `slug` becomes a `session-meta` entry; the
 *   permission mode (`permission-mode` lines, a prompt's `permissionMode`) becomes `mode-change`
 *   entries; the todo tools (`TodoWrite`, and the task tools of 2.1.x) become `todo-update`
 *   entries after their results; plan file backups in file-history lines become `plan-snapshot`
 *   entries once the reader has read them. Every other kind is counted in `stats.skippedByKind`.
 * - Nothing in a line is trusted: a line that is not a JSON object with a `type`, or a block
 *   missing what its type needs, is reported through `onWarning` and skipped, never fatal.
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
    duplicateLines: 0,
    droppedBlocks: 0,
  };

  /** Each subagent and the tool call that started it, as far as read. */
  readonly subagents = new ClaudeCodeSubagents();

  /**
   * Whether plan file backups in file-history lines are collected (see the option); a reader
   * that finds no file history turns it off before reading.
   */
  readsFileBackups: boolean;

  private readonly onWarning: ((warning: ClaudeCodeSessionWarning) => void) | undefined;
  private readonly threads = new Map<string, Thread>();
  /** Agent id of each inline (1.x) sidechain line, to follow `parentUuid` chains. */
  private readonly sidechainAgentByUuid = new Map<string, string>();
  private readonly planFiles = new ClaudeCodePlanFiles();
  private backups: PendingBackup[] = [];
  private sessionId: string;
  private timestamp = EPOCH;
  private slug: string | undefined;
  private source: string | undefined;
  private defaultAgentId: string | undefined;
  private lineNumber = 0;
  private syntheticIds = 0;

  constructor(options: ClaudeCodeSessionNormalizerOptions = {}) {
    this.onWarning = options.onWarning;
    this.sessionId = options.sessionId ?? '';
    this.readsFileBackups = options.readsFileBackups ?? false;
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
    if (!/\S/.test(line)) return;
    const parsed = this.parse(line);
    if (parsed === undefined) return;
    if (stringField(parsed.sessionId) !== undefined) this.sessionId = parsed.sessionId as string;
    if (stringField(parsed.timestamp) !== undefined) this.timestamp = parsed.timestamp as string;
    const agentId = this.agentIdOf(parsed);
    const slug = stringField(parsed.slug);
    if (slug !== undefined && slug !== this.slug) this.noteSlug(slug, out);

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
      case 'permission-mode':
        if (!this.changeMode(this.thread(agentId), parsed.permissionMode, parsed, out)) this.skip('permission-mode');
        return;
      case 'file-history-snapshot':
      case 'file-history-delta':
        this.fileHistory(parsed);
        return;
      case 'progress':
        this.subagents.noteProgress(parsed);
        this.skip('progress');
        return;
      default:
        this.skip(parsed.type as string);
    }
  }

  /** Ends the current source: every thread's unfinished message is appended to `out`. */
  finish(out: SessionEntry[]): void {
    for (const thread of this.threads.values()) this.flush(thread, out);
  }

  /** The plan file backups found since the last call, for the reader to read. */
  takeBackups(): PendingBackup[] {
    const taken = this.backups;
    this.backups = [];
    return taken;
  }

  /**
   * Hands back a backup's text: a `plan-snapshot` entry (`capturedFrom: 'file-history'`) is
   * appended to `out`, or — when there is no text — a warning says why.
   */
  completeBackup(pending: PendingBackup, text: string | undefined, out: SessionEntry[], reason?: string): void {
    const { plan } = pending;
    if (text === undefined || text.trim().length === 0) {
      this.report(
        pending.lineNumber,
        pending.source,
        `Line ${pending.lineNumber}${pending.source ? ` of ${pending.source}` : ''}: the backup ${plan.backupFileName} of the plan file ${plan.filePath} could not be read${reason ? ` (${reason})` : text === undefined ? '' : ' (it is empty)'}; the plan is recovered from the other sources.`,
      );
      return;
    }
    const thread = this.thread(plan.agentId);
    const entry: PlanSnapshotEntry = {
      $schemaVersion: ENTRY_SCHEMA_VERSION,
      id: `claude-code-file-history-${this.syntheticIds++}`,
      parentId: null,
      timestamp: pending.timestamp,
      sessionId: pending.backup.sessionId,
      ...(plan.agentId !== undefined ? { agentId: plan.agentId } : {}),
      kind: 'plan-snapshot',
      slug: plan.slug,
      name: plan.name,
      text,
      capturedFrom: 'file-history',
    };
    this.enqueue(thread, entry, out);
  }

  private parse(line: string): JsonRecord | undefined {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      const recovered = recordAfterTornStart(line);
      if (!recovered) {
        this.malformed(`not valid JSON (${error instanceof Error ? error.message.slice(0, 200) : 'unparseable'})`);
        return undefined;
      }
      this.malformed(
        `its first ${recovered.column} characters are a torn record (cut off, then the next record was appended onto it); that record is lost, the one after it was read`,
      );
      parsed = recovered.record;
    }
    if (!isRecord(parsed) || typeof parsed.type !== 'string') {
      this.malformed('not a JSON object with a string "type"');
      return undefined;
    }
    return parsed;
  }

  private report(lineNumber: number, source: string | undefined, message: string): void {
    this.onWarning?.({ message, lineNumber, ...(source !== undefined ? { source } : {}) });
  }

  private malformed(problem: string): void {
    this.stats.malformedLines++;
    this.report(this.lineNumber, this.source, `Skipped line ${this.lineNumber}${this.source ? ` of ${this.source}` : ''}: ${problem}.`);
  }

  private warn(problem: string): void {
    this.report(this.lineNumber, this.source, `Line ${this.lineNumber}${this.source ? ` of ${this.source}` : ''}: ${problem}.`);
  }

  private skip(kind: string): void {
    this.stats.skippedLines++;
    const counts = this.stats.skippedByKind;
    let name = kindName(kind);
    if (!Object.hasOwn(counts, name) && Object.keys(counts).length >= MAX_KINDS) name = 'other';
    counts[name] = (Object.hasOwn(counts, name) ? (counts[name] as number) : 0) + 1;
  }

  private agentIdOf(line: JsonRecord): string | undefined {
    const own = stringField(line.agentId);
    if (own !== undefined) return own;
    if (line.isSidechain !== true) return undefined;
    const uuid = stringField(line.uuid);
    const parent = typeof line.parentUuid === 'string' ? this.sidechainAgentByUuid.get(line.parentUuid) : undefined;
    const agentId = parent ?? this.defaultAgentId ?? uuid ?? `sidechain-${this.syntheticIds++}`;
    if (uuid !== undefined) this.sidechainAgentByUuid.set(uuid, agentId);
    return agentId;
  }

  private thread(agentId: string | undefined): Thread {
    const key = agentId ?? MAIN;
    let thread = this.threads.get(key);
    if (!thread) {
      thread = newThread(agentId);
      this.threads.set(key, thread);
    }
    return thread;
  }

  private base(line: JsonRecord, agentId: string | undefined): EntryBase {
    return {
      $schemaVersion: ENTRY_SCHEMA_VERSION,
      id: stringField(line.uuid) ?? `claude-code-line-${this.syntheticIds++}`,
      parentId: null,
      timestamp: stringField(line.timestamp) ?? this.timestamp,
      sessionId: stringField(line.sessionId) ?? this.sessionId,
      ...(agentId !== undefined ? { agentId } : {}),
    };
  }

  private noteSlug(slug: string, out: SessionEntry[]): void {
    this.slug = slug;
    this.planFiles.setSlug(slug);
    const meta: SessionMetaEntry = {
      $schemaVersion: ENTRY_SCHEMA_VERSION,
      id: `claude-code-slug-${this.syntheticIds++}`,
      parentId: null,
      timestamp: this.timestamp,
      sessionId: this.sessionId,
      kind: 'session-meta',
      slug,
    };
    this.enqueue(this.thread(undefined), meta, out);
  }

  /** Records a mode change when `value` is a mode other than the thread's; false when nothing changed. */
  private changeMode(thread: Thread, value: unknown, line: JsonRecord, out: SessionEntry[]): boolean {
    if (value === undefined || value === null) return false;
    if (typeof value !== 'string' || !PERMISSION_MODES.includes(value as PermissionMode)) {
      this.warn(`the permission mode ${JSON.stringify(value)?.slice(0, 60)} is not one this library knows (${PERMISSION_MODES.join(', ')}); the mode is left as it was`);
      return false;
    }
    const to = value as PermissionMode;
    if (to === thread.mode) return false;
    const base = this.base(line, thread.agentId);
    const entry: ModeChangeEntry = {
      ...base,
      id: `${stringField(line.uuid) ?? 'claude-code-mode'}#mode-${this.syntheticIds++}`,
      kind: 'mode-change',
      from: thread.mode,
      to,
      reason: 'claude-code',
      ...(to === 'plan' ? { prePlanMode: thread.mode } : {}),
    };
    thread.mode = to;
    this.enqueue(thread, entry, out);
    return true;
  }

  private message(line: JsonRecord, agentId: string | undefined, out: SessionEntry[]): void {
    const raw = line.message;
    const content = isRecord(raw) ? raw.content : undefined;
    if (!isRecord(raw) || (typeof content !== 'string' && !Array.isArray(content))) {
      this.malformed(`a "${String(line.type)}" line without message content`);
      return;
    }
    const role = raw.role === 'user' || raw.role === 'assistant' ? raw.role : (line.type as 'user' | 'assistant');
    const thread = this.thread(agentId);
    const uuid = stringField(line.uuid);
    if (uuid !== undefined && thread.recentUuids.includes(uuid)) {
      this.stats.duplicateLines++;
      return;
    }
    if (uuid !== undefined) remember(thread.recentUuids, uuid);
    const problems: string[] = [];
    if (role === 'assistant') this.assistant(line, raw, toBlocks(content, problems) ?? [], thread, out);
    else this.user(line, content as string | unknown[], thread, problems, out);
    if (problems.length > 0) {
      this.stats.droppedBlocks += problems.length;
      this.warn(`dropped ${problems.length === 1 ? 'a content block' : `${problems.length} content blocks`}: ${[...new Set(problems)].join('; ')}`);
    }
  }

  private assistant(line: JsonRecord, raw: JsonRecord, blocks: ContentBlock[], thread: Thread, out: SessionEntry[]): void {
    const messageId = stringField(raw.id);
    const usage = toUsage(raw.usage);
    const pending = thread.pending;
    if (pending && messageId !== undefined && pending.messageId === messageId) {
      const fresh = this.freshBlocks(thread, blocks);
      // Claude Code repeats usage on every line; the last line has the final output count.
      if (usage) pending.usage = usage;
      if (fresh.length === 0 && blocks.length > 0) {
        this.stats.duplicateLines++;
        return;
      }
      this.addToolUses(thread, fresh, pending.message.content.length);
      (pending.message.content as ContentBlock[]).push(...fresh);
      this.noteCalls(fresh, thread);
      this.stats.mergedLines++;
      return;
    }
    if (messageId !== undefined && thread.recentMessageIds.includes(messageId)) {
      this.stats.duplicateLines++;
      this.warn(`it belongs to message ${messageId.slice(0, 80)}, which was already complete (its lines came before other messages); the line is skipped`);
      return;
    }
    this.flush(thread, out);
    const entry: MessageEntry = {
      ...this.base(line, thread.agentId),
      kind: 'message',
      message: { role: 'assistant', content: blocks },
      ...(messageId !== undefined ? { messageId } : {}),
      ...(usage ? { usage } : {}),
    };
    thread.pending = entry;
    thread.pendingBlocks = undefined;
    thread.toolUseIndex.clear();
    this.addToolUses(thread, blocks, 0);
    this.noteCalls(blocks, thread);
    this.stats.messages++;
  }

  /** The blocks of a repeated message line not read before (a tool call id, or the same block). */
  private freshBlocks(thread: Thread, blocks: ContentBlock[]): ContentBlock[] {
    const seen = (thread.pendingBlocks ??= new Set((thread.pending?.message.content as ContentBlock[]).map((block) => JSON.stringify(block))));
    return blocks.filter((block) => {
      if (block.type === 'tool_use' && thread.toolUseIndex.has(block.id as string)) return false;
      const key = JSON.stringify(block);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  /** Notes what the calls of an assistant message tell: subagents, todo calls, plan file paths. */
  private noteCalls(blocks: ContentBlock[], thread: Thread): void {
    this.subagents.noteCalls(blocks, thread.agentId);
    thread.todos.noteCalls(blocks);
    for (const block of blocks) {
      if (block.type === 'tool_use' && EXIT_PLAN_MODE_TOOLS.has(block.name as string)) this.planFiles.notePath(toolInputObject(block.input)?.planFilePath);
    }
  }

  private user(line: JsonRecord, content: string | unknown[], thread: Thread, problems: string[], out: SessionEntry[]): void {
    const message: Message = { role: 'user', content: typeof content === 'string' ? content : (toBlocks(content, problems) ?? []) };
    const entry: MessageEntry = { ...this.base(line, thread.agentId), kind: 'message', message };
    if (line.toolUseResult !== undefined) entry.toolUseResult = line.toolUseResult;
    if (typeof line.planContent === 'string') entry.planContent = line.planContent;
    if (line.isCompactSummary === true) entry.isCompactSummary = true;
    this.stats.messages++;
    // An ExitPlanMode result names the plan file: `{ plan, isAgent, filePath }`.
    if (isRecord(line.toolUseResult) && typeof line.toolUseResult.plan === 'string') this.planFiles.notePath(line.toolUseResult.filePath);
    if (line.isSidechain === true && line.parentUuid === null && thread.agentId !== undefined) {
      this.subagents.noteSidechainStart(thread.agentId, content);
    }
    if (thread.pending && this.answersPending(thread, message.content)) {
      this.changeMode(thread, line.permissionMode, line, out);
      thread.deferred.push(entry);
      return;
    }
    this.flush(thread, out);
    this.changeMode(thread, line.permissionMode, line, out);
    this.emit(thread, entry, out);
  }

  private attachment(line: JsonRecord, agentId: string | undefined, out: SessionEntry[]): void {
    const attachment = line.attachment;
    const type = isRecord(attachment) && typeof attachment.type === 'string' ? attachment.type : undefined;
    if (isRecord(attachment)) this.planFiles.notePath(attachment.planFilePath);
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

  private fileHistory(line: JsonRecord): void {
    const found = this.readsFileBackups ? this.planFiles.backupsOf(line) : [];
    if (found.length === 0) {
      this.skip(line.type as string);
      return;
    }
    for (const plan of found) {
      this.backups.push({
        plan,
        backup: {
          sessionId: this.sessionId,
          filePath: plan.filePath,
          backupFileName: plan.backupFileName,
          ...(plan.version !== undefined ? { version: plan.version } : {}),
          ...(plan.backupTime !== undefined ? { backupTime: plan.backupTime } : {}),
        },
        lineNumber: this.lineNumber,
        source: this.source,
        timestamp: plan.backupTime ?? stringField(line.timestamp) ?? this.timestamp,
      });
    }
  }

  private addToolUses(thread: Thread, blocks: ContentBlock[], offset: number): void {
    blocks.forEach((block, index) => {
      if (block.type === 'tool_use') thread.toolUseIndex.set(block.id as string, offset + index);
    });
  }

  private answersPending(thread: Thread, content: Message['content']): boolean {
    if (typeof content === 'string' || content.length === 0) return false;
    return content.every((block) => block.type === 'tool_result' && thread.toolUseIndex.has(block.tool_use_id as string));
  }

  /** Appends now, or after the open message of the thread when one is collecting lines. */
  private enqueue(thread: Thread, entry: SessionEntry, out: SessionEntry[]): void {
    if (thread.pending) thread.queued.push(entry);
    else this.emit(thread, entry, out);
  }

  private flush(thread: Thread, out: SessionEntry[]): void {
    const pending = thread.pending;
    if (pending) {
      thread.pending = undefined;
      thread.pendingBlocks = undefined;
      this.emit(thread, pending, out);
      if (thread.deferred.length > 1) {
        const position = (entry: MessageEntry): number => {
          const blocks = entry.message.content as Array<{ tool_use_id?: unknown }>;
          return Math.min(...blocks.map((block) => thread.toolUseIndex.get(block.tool_use_id as string) ?? Infinity));
        };
        // Stable sort: results follow the order of the calls, as the Messages API expects.
        thread.deferred.sort((a, b) => position(a) - position(b));
      }
      const deferred = thread.deferred;
      thread.deferred = [];
      for (const entry of deferred) this.emit(thread, entry, out);
      thread.toolUseIndex.clear();
    }
    if (thread.queued.length > 0) {
      const queued = thread.queued;
      thread.queued = [];
      for (const entry of queued) this.emit(thread, entry, out);
    }
  }

  /** Appends an entry to its thread's chain; a user message is followed by the todo list it changed. */
  private emit(thread: Thread, entry: SessionEntry, out: SessionEntry[]): void {
    entry.parentId = thread.lastId;
    thread.lastId = entry.id;
    this.stats.entries++;
    out.push(entry);
    if (entry.kind !== 'message') return;
    if (entry.message.role === 'assistant') {
      if (entry.messageId !== undefined) remember(thread.recentMessageIds, entry.messageId);
      return;
    }
    this.subagents.noteResults(entry.message.content, entry.toolUseResult);
    const todos = thread.todos.applyResults(entry.message.content, entry.toolUseResult);
    if (todos === undefined) return;
    const { $schemaVersion, timestamp, sessionId, agentId } = entry;
    this.emit(
      thread,
      { $schemaVersion, id: `${entry.id}#todos`, parentId: null, timestamp, sessionId, ...(agentId !== undefined ? { agentId } : {}), kind: 'todo-update', todos },
      out,
    );
  }
}
