import type { ContentBlock, Message } from '../../model/messages.js';
import type { Usage } from '../../model/usage.js';
import type { EntryBase, MessageEntry, SessionEntry } from '../../state/entries.js';
import type { ClaudeCodePlanFiles } from './claude-code-plan-files.js';
import type { ClaudeCodeSessionStats } from './claude-code-session-types.js';
import type { ClaudeCodeSubagents } from './claude-code-subagents.js';
import { newThread, remember, type Thread } from './claude-code-thread.js';
import { EXIT_PLAN_MODE_TOOLS, toolInputObject } from './claude-code-tools.js';

/** What the threads report to, and note calls in. */
export interface ClaudeCodeThreadsContext {
  stats: ClaudeCodeSessionStats;
  subagents: ClaudeCodeSubagents;
  planFiles: ClaudeCodePlanFiles;
}

/** What became of an assistant line. */
export type AssistantLineOutcome = 'started' | 'merged' | 'repeated' | 'late';

const MAIN = '\u0000main';

/**
 * The threads of a session (the main agent and each subagent) and the assembly of their
 * messages: an assistant message collects the lines that share its `message.id`, tool results
 * written between those lines wait until it is complete and then follow it in call order, and
 * entries made meanwhile (slug, mode, plan backups) are queued behind it. Each entry's `parentId`
 * is the previous entry of its thread and its `seq` its 1-based position in the output; a user
 * message is followed by the todo list it changed.
 */
export class ClaudeCodeThreads {
  private readonly threads = new Map<string, Thread>();

  constructor(private readonly context: ClaudeCodeThreadsContext) {}

  /** The thread of an agent (undefined: the main agent), made on first use. */
  get(agentId: string | undefined): Thread {
    const key = agentId ?? MAIN;
    let thread = this.threads.get(key);
    if (!thread) {
      thread = newThread(agentId);
      this.threads.set(key, thread);
    }
    return thread;
  }

  /** Adds an assistant line: it starts a message, joins the open one, or repeats what was read. */
  assistant(thread: Thread, base: EntryBase, messageId: string | undefined, usage: Usage | undefined, blocks: ContentBlock[], out: SessionEntry[], refused = false): AssistantLineOutcome {
    const { stats } = this.context;
    const pending = thread.pending;
    if (pending && messageId !== undefined && pending.messageId === messageId) {
      const fresh = this.freshBlocks(thread, blocks);
      // Claude Code repeats usage on every line; the last line has the final output count.
      if (usage) pending.usage = usage;
      // A refusal on any line of the message makes the whole message a refused answer (its calls never run).
      if (refused) pending.stopReason = 'refusal';
      if (fresh.length === 0 && blocks.length > 0) {
        stats.duplicateLines++;
        return 'repeated';
      }
      this.addToolUses(thread, fresh, pending.message.content.length);
      (pending.message.content as ContentBlock[]).push(...fresh);
      this.noteCalls(fresh, thread);
      stats.mergedLines++;
      return 'merged';
    }
    if (messageId !== undefined && thread.recentMessageIds.includes(messageId)) {
      stats.duplicateLines++;
      return 'late';
    }
    this.flush(thread, out);
    thread.pending = {
      ...base,
      kind: 'message',
      message: { role: 'assistant', content: blocks },
      ...(messageId !== undefined ? { messageId } : {}),
      ...(usage ? { usage } : {}),
      ...(refused ? { stopReason: 'refusal' as const } : {}),
    };
    thread.pendingBlocks = undefined;
    thread.toolUseIndex.clear();
    this.addToolUses(thread, blocks, 0);
    this.noteCalls(blocks, thread);
    stats.messages++;
    return 'started';
  }

  /**
   * Adds a user message, preceded by the mode change it was sent in: held back when it only
   * answers calls of the open message, else after that message.
   */
  user(thread: Thread, entry: MessageEntry, modeChange: SessionEntry | undefined, out: SessionEntry[]): void {
    this.context.stats.messages++;
    if (thread.pending && this.answersPending(thread, entry.message.content)) {
      if (modeChange) thread.queued.push(modeChange);
      thread.deferred.push(entry);
      return;
    }
    this.flush(thread, out);
    if (modeChange) this.emit(thread, modeChange, out);
    this.emit(thread, entry, out);
  }

  /** Appends an entry to its thread now, or after the thread's open message when one is collecting lines. */
  enqueue(thread: Thread, entry: SessionEntry, out: SessionEntry[]): void {
    if (thread.pending) thread.queued.push(entry);
    else this.emit(thread, entry, out);
  }

  /** Completes the thread's open message: it, the results held for it, then what was queued. */
  flush(thread: Thread, out: SessionEntry[]): void {
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

  /** Completes every thread. */
  flushAll(out: SessionEntry[]): void {
    for (const thread of this.threads.values()) this.flush(thread, out);
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
    this.context.subagents.noteCalls(blocks, thread.agentId);
    thread.todos.noteCalls(blocks);
    for (const block of blocks) {
      if (block.type === 'tool_use' && EXIT_PLAN_MODE_TOOLS.has(block.name as string)) this.context.planFiles.notePath(toolInputObject(block.input)?.planFilePath);
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

  private emit(thread: Thread, entry: SessionEntry, out: SessionEntry[]): void {
    entry.parentId = thread.lastId;
    thread.lastId = entry.id;
    this.context.stats.entries++;
    entry.seq = this.context.stats.entries;
    out.push(entry);
    if (entry.kind !== 'message') return;
    if (entry.message.role === 'assistant') {
      if (entry.messageId !== undefined) remember(thread.recentMessageIds, entry.messageId);
      return;
    }
    this.context.subagents.noteResults(entry.message.content, entry.toolUseResult);
    const todos = thread.todos.applyResults(entry.message.content, entry.toolUseResult);
    if (todos === undefined) return;
    const { $schemaVersion, timestamp, sessionId, agentId } = entry;
    const update: SessionEntry = { $schemaVersion, id: `${entry.id}#todos`, parentId: null, seq: 0, timestamp, sessionId, ...(agentId !== undefined ? { agentId } : {}), kind: 'todo-update', todos };
    this.emit(thread, update, out);
  }
}
