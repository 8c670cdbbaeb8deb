import type { AgentSnapshot } from '../agent/snapshot.js';
import { SNAPSHOT_SCHEMA_VERSION } from '../agent/snapshot.js';
import type { ContentBlock, Message, TextBlock, ToolUseBlock } from '../model/messages.js';
import type { BatchCall, OpenBatch } from '../loop/open-batch.js';
import type { PendingApproval } from '../permissions/pending-approval.js';
import type { PermissionMode } from '../permissions/types.js';
import type { SessionEntry } from './entries.js';

/** The answer given on resume to a call that was in flight when the process stopped. */
export const INTERRUPTED_BEFORE_FINISHING =
  'This tool call was interrupted before it finished (the session stopped while it ran, and it was resumed later). It may have had partial effects; check before repeating it.';

function userBlocks(message: Message): ContentBlock[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content } as TextBlock] : message.content;
}

/**
 * Rebuilds everything a resume needs from a transcript: messages (adjacent entries of the same
 * role merged, as the agent merges them), mode, pre-plan mode, reminders not yet delivered, todos,
 * plan name and text, session rules, tool state, and the open batch of the last assistant
 * message. Calls of that batch keep their stored results and pending approvals; a call that was
 * in flight when the process died is answered with an `is_error` result, never run again.
 */
export function entriesToSnapshot(sessionId: string, entries: Iterable<SessionEntry>): AgentSnapshot {
  const messages: Message[] = [];
  let mode: PermissionMode = 'default';
  let prePlanMode: PermissionMode | undefined;
  let reminders: string[] = [];
  let todos: AgentSnapshot['todos'] = [];
  let planSlug: string | undefined;
  let plan: AgentSnapshot['plan'];
  let agentId: string | undefined;
  const sessionRules: AgentSnapshot['sessionRules'] = { allow: [], deny: [], ask: [] };
  const toolState: Record<string, unknown> = {};
  // Open-batch evidence, reset whenever a new message arrives.
  let results = new Map<string, BatchCall['result']>();
  let pending = new Map<string, PendingApproval>();
  let resolved = new Map<string, { behavior: 'allow' | 'deny' }>();

  for (const entry of entries) {
    if (entry.agentId !== undefined) agentId = entry.agentId;
    switch (entry.kind) {
      case 'message': {
        const message = entry.message;
        const last = messages[messages.length - 1];
        if (message.role === 'user') reminders = [];
        if (message.role === 'user' && last?.role === 'user') {
          messages[messages.length - 1] = { role: 'user', content: [...userBlocks(last), ...userBlocks(message)] };
        } else if (message.role === 'assistant' && last?.role === 'assistant') {
          // A continuation after pause_turn.
          messages[messages.length - 1] = { role: 'assistant', content: [...last.content, ...message.content] };
        } else {
          messages.push(message);
        }
        results = new Map();
        pending = new Map();
        resolved = new Map();
        break;
      }
      case 'mode-change':
        mode = entry.to;
        if (entry.prePlanMode !== undefined) prePlanMode = entry.prePlanMode;
        if (entry.reminder) reminders.push(entry.reminder);
        break;
      case 'todo-update':
        todos = entry.todos;
        break;
      case 'session-meta':
        if (entry.slug !== undefined) planSlug = entry.slug;
        break;
      case 'plan-snapshot':
        planSlug = entry.slug;
        plan = { name: entry.name, text: entry.text };
        break;
      case 'rules-added':
        sessionRules[entry.behavior].push(...entry.rules);
        break;
      case 'tool-state':
        toolState[entry.key] = entry.value;
        break;
      case 'tool-result':
        results.set(entry.toolUseId, entry.result);
        break;
      case 'approval-pending':
        pending.set(entry.approval.toolUseId, entry.approval);
        break;
      case 'approval-resolved':
        resolved.set(entry.toolUseId, { behavior: entry.decision.behavior });
        break;
      default:
        break;
    }
  }

  const snapshot: AgentSnapshot = {
    $schemaVersion: SNAPSHOT_SCHEMA_VERSION,
    sessionId,
    messages,
    permissionMode: mode,
    todos,
    sessionRules,
    pendingReminders: reminders,
    toolState,
  };
  if (agentId !== undefined) snapshot.agentId = agentId;
  if (prePlanMode !== undefined) snapshot.prePlanMode = prePlanMode;
  if (planSlug !== undefined) snapshot.planSlug = planSlug;
  if (plan !== undefined) snapshot.plan = plan;
  const batch = openBatchOf(messages, results, pending, resolved);
  if (batch) snapshot.openBatch = batch;
  return snapshot;
}

function openBatchOf(
  messages: Message[],
  results: Map<string, BatchCall['result']>,
  pending: Map<string, PendingApproval>,
  resolved: Map<string, { behavior: 'allow' | 'deny' }>,
): OpenBatch | undefined {
  const last = messages[messages.length - 1];
  if (last?.role !== 'assistant') return undefined;
  const toolUses = last.content.filter((block): block is ToolUseBlock => block.type === 'tool_use');
  if (toolUses.length === 0) return undefined;
  const calls = toolUses.map((block): BatchCall => {
    const base = { toolUseId: block.id, toolName: block.name, rawInput: block.input };
    const result = results.get(block.id);
    if (result) return { ...base, state: 'done', result };
    const approval = pending.get(block.id);
    if (approval && !resolved.has(block.id)) return { ...base, state: 'deferred', input: approval.input, approval };
    return {
      ...base,
      state: 'done',
      result: { type: 'tool_result', tool_use_id: block.id, content: INTERRUPTED_BEFORE_FINISHING, is_error: true },
    };
  });
  return { calls };
}
