import type { Message } from '../../model/messages.js';
import { PERMISSION_MODES, type PermissionMode } from '../../types/permission.js';
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
import type { ClaudeCodeFileBackup, ClaudeCodeSessionStats, ClaudeCodeSessionWarning, ClaudeCodeSubagent } from './claude-code-session-types.js';
import { emptyClaudeCodeStats } from './empty-claude-code-stats.js';
import { ClaudeCodeSubagents } from './claude-code-subagents.js';
import { remember, type Thread } from './claude-code-thread.js';
import { ClaudeCodeThreads } from './claude-code-threads.js';
import { ClaudeCodeLineReport } from './claude-code-line-report.js';
import { parseClaudeCodeLine } from './parse-claude-code-line.js';

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
  /**
   * The object to keep the counts in: a reader hands out its counts before it loads the
   * normalizer (see `readClaudeCodeSession`).
   * @default a new object of zero counts
   */
  stats?: ClaudeCodeSessionStats;
  /**
   * The map to describe the subagents in, by agent id (the reader's `subagents`).
   * @default a new map
   */
  subagents?: Map<string, ClaudeCodeSubagent>;
}

/** A plan file backup waiting to be read. */
export interface PendingBackup {
  backup: ClaudeCodeFileBackup;
  plan: PlanFileBackup;
  lineNumber: number;
  source: string | undefined;
  timestamp: string;
}

const EPOCH = '1970-01-01T00:00:00.000Z';
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
  /** Counts so far (the object given as `options.stats`, when given). */
  readonly stats: ClaudeCodeSessionStats;

  /** Each subagent and the tool call that started it, as far as read. */
  readonly subagents: ClaudeCodeSubagents;

  /**
   * Whether plan file backups in file-history lines are collected (see the option); a reader
   * that finds no file history turns it off before reading.
   */
  readsFileBackups: boolean;

  private readonly report: ClaudeCodeLineReport;
  /** Agent id of each inline (1.x) sidechain line, to follow `parentUuid` chains. */
  private readonly sidechainAgentByUuid = new Map<string, string>();
  private readonly planFiles = new ClaudeCodePlanFiles();
  private readonly threads: ClaudeCodeThreads;
  private backups: PendingBackup[] = [];
  private sessionId: string;
  private timestamp = EPOCH;
  private slug: string | undefined;
  private defaultAgentId: string | undefined;
  private syntheticIds = 0;

  constructor(options: ClaudeCodeSessionNormalizerOptions = {}) {
    this.stats = options.stats ?? emptyClaudeCodeStats();
    this.subagents = new ClaudeCodeSubagents(options.subagents);
    this.threads = new ClaudeCodeThreads({ stats: this.stats, subagents: this.subagents, planFiles: this.planFiles });
    this.report = new ClaudeCodeLineReport(this.stats, options.onWarning);
    this.sessionId = options.sessionId ?? '';
    this.readsFileBackups = options.readsFileBackups ?? false;
  }

  /**
   * Starts a new file or source: line numbers restart, and sidechain lines without an `agentId`
   * get `defaultAgentId` (a subagent file's id) when given.
   */
  beginSource(options: { source?: string; defaultAgentId?: string } = {}): void {
    this.report.source = options.source;
    this.report.lineNumber = 0;
    this.defaultAgentId = options.defaultAgentId;
  }

  /** Reads one line; entries that became complete are appended to `out`. */
  push(line: string, out: SessionEntry[]): void {
    this.report.lineNumber++;
    this.stats.lines++;
    if (!/\S/.test(line)) return;
    const parsed = parseClaudeCodeLine(line, (problem) => this.report.malformed(problem));
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
          const thread = this.threads.get(agentId);
          this.threads.flush(thread, out);
          const entry: CompactBoundaryEntry = { ...this.base(parsed, agentId), kind: 'compact-boundary' };
          this.threads.enqueue(thread, entry, out);
          return;
        }
        this.report.skip(typeof parsed.subtype === 'string' ? `system/${parsed.subtype}` : 'system');
        return;
      case 'attachment':
        this.attachment(parsed, agentId, out);
        return;
      case 'permission-mode': {
        const thread = this.threads.get(agentId);
        const change = this.modeChange(thread, parsed.permissionMode, parsed);
        if (change) this.threads.enqueue(thread, change, out);
        else this.report.skip('permission-mode');
        return;
      }
      case 'file-history-snapshot':
      case 'file-history-delta':
        this.fileHistory(parsed);
        return;
      case 'progress':
        this.subagents.noteProgress(parsed);
        this.report.skip('progress');
        return;
      default:
        this.report.skip(parsed.type as string);
    }
  }

  /** Ends the current source: every thread's unfinished message is appended to `out`. */
  finish(out: SessionEntry[]): void {
    this.threads.flushAll(out);
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
      const why = reason ? ` (${reason})` : text === undefined ? '' : ' (it is empty)';
      this.report.warn(`the backup ${plan.backupFileName} of the plan file ${plan.filePath} could not be read${why}; the plan is recovered from the other sources`, pending);
      return;
    }
    const thread = this.threads.get(plan.agentId);
    const entry: PlanSnapshotEntry = {
      $schemaVersion: ENTRY_SCHEMA_VERSION,
      id: `claude-code-file-history-${this.syntheticIds++}`,
      parentId: null,
      seq: 0,
      timestamp: pending.timestamp,
      sessionId: pending.backup.sessionId,
      ...(plan.agentId !== undefined ? { agentId: plan.agentId } : {}),
      kind: 'plan-snapshot',
      slug: plan.slug,
      name: plan.name,
      text,
      capturedFrom: 'file-history',
    };
    this.threads.enqueue(thread, entry, out);
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

  private base(line: JsonRecord, agentId: string | undefined): EntryBase {
    return {
      $schemaVersion: ENTRY_SCHEMA_VERSION,
      id: stringField(line.uuid) ?? `claude-code-line-${this.syntheticIds++}`,
      parentId: null,
      // Numbered in output order when yielded (ClaudeCodeThreads.emit).
      seq: 0,
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
      seq: 0,
      timestamp: this.timestamp,
      sessionId: this.sessionId,
      kind: 'session-meta',
      slug,
    };
    this.threads.enqueue(this.threads.get(undefined), meta, out);
  }

  /** The mode change `value` makes to the thread (its mode is updated), or undefined when it changes nothing. */
  private modeChange(thread: Thread, value: unknown, line: JsonRecord): ModeChangeEntry | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string' || !PERMISSION_MODES.includes(value as PermissionMode)) {
      this.report.warn(`the permission mode ${JSON.stringify(value)?.slice(0, 60)} is not one this library knows (${PERMISSION_MODES.join(', ')}); the mode is left as it was`);
      return undefined;
    }
    const to = value as PermissionMode;
    if (to === thread.mode) return undefined;
    const entry: ModeChangeEntry = {
      ...this.base(line, thread.agentId),
      id: `${stringField(line.uuid) ?? 'claude-code-mode'}#mode-${this.syntheticIds++}`,
      kind: 'mode-change',
      from: thread.mode,
      to,
      reason: 'claude-code',
      ...(to === 'plan' ? { prePlanMode: thread.mode } : {}),
    };
    thread.mode = to;
    return entry;
  }

  private message(line: JsonRecord, agentId: string | undefined, out: SessionEntry[]): void {
    const raw = line.message;
    const content = isRecord(raw) ? raw.content : undefined;
    if (!isRecord(raw) || (typeof content !== 'string' && !Array.isArray(content))) {
      this.report.malformed(`a "${String(line.type)}" line without message content`);
      return;
    }
    const role = raw.role === 'user' || raw.role === 'assistant' ? raw.role : (line.type as 'user' | 'assistant');
    const thread = this.threads.get(agentId);
    const uuid = stringField(line.uuid);
    if (uuid !== undefined && thread.recentUuids.includes(uuid)) {
      this.stats.duplicateLines++;
      return;
    }
    if (uuid !== undefined) remember(thread.recentUuids, uuid);
    const problems: string[] = [];
    const base = this.base(line, thread.agentId);
    if (role === 'assistant') {
      const messageId = stringField(raw.id);
      const outcome = this.threads.assistant(thread, base, messageId, toUsage(raw.usage), toBlocks(content, problems) ?? [], out, raw.stop_reason === 'refusal');
      if (outcome === 'late') {
        this.report.warn(`it belongs to message ${messageId!.slice(0, 80)}, which was already complete (its lines came before other messages); the line is skipped`);
      }
    } else {
      this.user(line, base, content as string | unknown[], thread, problems, out);
    }
    if (problems.length > 0) {
      this.stats.droppedBlocks += problems.length;
      this.report.warn(`dropped ${problems.length === 1 ? 'a content block' : `${problems.length} content blocks`}: ${[...new Set(problems)].join('; ')}`);
    }
  }

  private user(line: JsonRecord, base: EntryBase, content: string | unknown[], thread: Thread, problems: string[], out: SessionEntry[]): void {
    const message: Message = { role: 'user', content: typeof content === 'string' ? content : (toBlocks(content, problems) ?? []) };
    const entry: MessageEntry = { ...base, kind: 'message', message };
    if (line.toolUseResult !== undefined) entry.toolUseResult = line.toolUseResult;
    if (typeof line.planContent === 'string') entry.planContent = line.planContent;
    if (line.isCompactSummary === true) entry.isCompactSummary = true;
    // An ExitPlanMode result names the plan file: `{ plan, isAgent, filePath }`.
    if (isRecord(line.toolUseResult) && typeof line.toolUseResult.plan === 'string') this.planFiles.notePath(line.toolUseResult.filePath);
    if (line.isSidechain === true && line.parentUuid === null && thread.agentId !== undefined) {
      this.subagents.noteSidechainStart(thread.agentId, content);
    }
    this.threads.user(thread, entry, this.modeChange(thread, line.permissionMode, line), out);
  }

  private attachment(line: JsonRecord, agentId: string | undefined, out: SessionEntry[]): void {
    const attachment = line.attachment;
    const type = isRecord(attachment) && typeof attachment.type === 'string' ? attachment.type : undefined;
    if (isRecord(attachment)) this.planFiles.notePath(attachment.planFilePath);
    if (!isRecord(attachment) || typeof attachment.planFilePath !== 'string' || (type !== 'plan_file_reference' && typeof attachment.planContent !== 'string')) {
      this.report.skip(type ? `attachment/${type}` : 'attachment');
      return;
    }
    const thread = this.threads.get(agentId);
    this.threads.flush(thread, out);
    const entry: PlanReferenceEntry = {
      ...this.base(line, agentId),
      kind: 'plan-reference',
      name: attachment.planFilePath,
      ...(typeof attachment.planContent === 'string' ? { text: attachment.planContent } : {}),
    };
    this.threads.enqueue(thread, entry, out);
  }

  private fileHistory(line: JsonRecord): void {
    const found = this.readsFileBackups ? this.planFiles.backupsOf(line) : [];
    if (found.length === 0) {
      this.report.skip(line.type as string);
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
        lineNumber: this.report.lineNumber,
        source: this.report.source,
        timestamp: plan.backupTime ?? stringField(line.timestamp) ?? this.timestamp,
      });
    }
  }
}
