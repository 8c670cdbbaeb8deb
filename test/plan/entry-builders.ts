import type { ContentBlock } from '../../src/model/messages.js';
import {
  ENTRY_SCHEMA_VERSION,
  type EntryBase,
  type MessageEntry,
  type PlanReferenceEntry,
  type PlanSnapshotEntry,
  type SessionEntry,
  type SessionMetaEntry,
  type TodoUpdateEntry,
} from '../../src/state/entries.js';
import type { Todo } from '../../src/types/todo.js';

let counter = 0;

function base(agentId?: string): EntryBase {
  counter++;
  return {
    $schemaVersion: ENTRY_SCHEMA_VERSION,
    id: `entry-${counter}`,
    parentId: null,
    seq: counter,
    timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, counter)).toISOString(),
    sessionId: 'session-1',
    ...(agentId !== undefined ? { agentId } : {}),
  };
}

/** Test entries, built tersely. `agentId` puts the entry on a subagent's sidechain. */
export const entry = {
  user(content: string | ContentBlock[], extra: Partial<MessageEntry> = {}, agentId?: string): MessageEntry {
    return { ...base(agentId), kind: 'message', message: { role: 'user', content }, ...extra };
  },
  assistant(content: ContentBlock[], agentId?: string): MessageEntry {
    return { ...base(agentId), kind: 'message', message: { role: 'assistant', content } };
  },
  toolUse(id: string, name: string, input: unknown, agentId?: string): MessageEntry {
    return entry.assistant([{ type: 'tool_use', id, name, input }], agentId);
  },
  toolResult(id: string, options: { isError?: boolean; content?: string; toolUseResult?: unknown } = {}, agentId?: string): MessageEntry {
    return entry.user(
      [{ type: 'tool_result', tool_use_id: id, content: options.content ?? 'ok', ...(options.isError ? { is_error: true } : {}) }],
      options.toolUseResult !== undefined ? { toolUseResult: options.toolUseResult } : {},
      agentId,
    );
  },
  snapshot(slug: string, text: string, agentId?: string): PlanSnapshotEntry {
    const name = agentId === undefined ? `${slug}.md` : `${slug}-agent-${agentId}.md`;
    return { ...base(agentId), kind: 'plan-snapshot', slug, name, text };
  },
  /** A copy of the plan file from Claude Code's file history. */
  fileHistory(slug: string, text: string, agentId?: string): PlanSnapshotEntry {
    return { ...entry.snapshot(slug, text, agentId), capturedFrom: 'file-history' };
  },
  reference(name: string, text?: string, agentId?: string): PlanReferenceEntry {
    return { ...base(agentId), kind: 'plan-reference', name, ...(text !== undefined ? { text } : {}) };
  },
  meta(slug: string, agentId?: string): SessionMetaEntry {
    return { ...base(agentId), kind: 'session-meta', slug };
  },
  todos(todos: Todo[], agentId?: string): TodoUpdateEntry {
    return { ...base(agentId), kind: 'todo-update', todos };
  },
};

/** The same entries as an async iterable, as a streaming reader hands them out. */
export async function* streamed(entries: SessionEntry[]): AsyncGenerator<SessionEntry> {
  for (const item of entries) {
    await Promise.resolve();
    yield item;
  }
}
