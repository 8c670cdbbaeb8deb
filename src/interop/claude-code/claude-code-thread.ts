import type { PermissionMode } from '../../types/permission.js';
import type { MessageEntry, SessionEntry } from '../../state/entries.js';
import { ClaudeCodeTodoReplay } from './claude-code-todo-replay.js';

/** How many recent line uuids and completed message ids a thread remembers, to spot repeated lines. */
const RECENT = 16;

/** One agent's line of a Claude Code session (the main agent, or one subagent sidechain). */
export interface Thread {
  readonly agentId: string | undefined;
  /** The id of the last entry yielded for this thread (the next entry's `parentId`). */
  lastId: string | null;
  /** The assistant message still collecting lines that share its `message.id`. */
  pending: MessageEntry | undefined;
  /** JSON of `pending`'s blocks, built on its first repeated line, to drop blocks written twice. */
  pendingBlocks: Set<string> | undefined;
  /** Position of each `tool_use` id of `pending` in its content. */
  toolUseIndex: Map<string, number>;
  /** User lines holding only results for `pending`'s tool calls, written between its lines. */
  deferred: MessageEntry[];
  /** Entries made while `pending` was open (slug, mode, plan backups), yielded after it. */
  queued: SessionEntry[];
  /** The permission mode as far as the session has told. */
  mode: PermissionMode;
  readonly todos: ClaudeCodeTodoReplay;
  /** The last few line uuids of this thread. */
  recentUuids: string[];
  /** The ids of the last few completed assistant messages. */
  recentMessageIds: string[];
}

export function newThread(agentId: string | undefined): Thread {
  return {
    agentId,
    lastId: null,
    pending: undefined,
    pendingBlocks: undefined,
    toolUseIndex: new Map(),
    deferred: [],
    queued: [],
    mode: 'default',
    todos: new ClaudeCodeTodoReplay(),
    recentUuids: [],
    recentMessageIds: [],
  };
}

/** Adds `value` to a small most-recent list. */
export function remember(list: string[], value: string): void {
  list.push(value);
  if (list.length > RECENT) list.shift();
}
