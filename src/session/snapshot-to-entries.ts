import type { AgentSnapshot } from '../agent/snapshot.js';
import type { EntryDraft } from './journal.js';

/**
 * The entries that, folded by `entriesToSnapshot`, give back a snapshot's state: used to seed a
 * store for a fork or for a session resumed from a snapshot into an empty store.
 */
export function snapshotToEntries(snapshot: AgentSnapshot, meta: { forkedFrom?: string } = {}): EntryDraft[] {
  const drafts: EntryDraft[] = [{ kind: 'session-meta', ...(snapshot.planSlug ? { slug: snapshot.planSlug } : {}), ...meta }];
  for (const message of snapshot.messages) drafts.push({ kind: 'message', message });
  for (const behavior of ['allow', 'deny', 'ask'] as const) {
    if (snapshot.sessionRules[behavior].length) drafts.push({ kind: 'rules-added', behavior, rules: snapshot.sessionRules[behavior] });
  }
  for (const [key, value] of Object.entries(snapshot.toolState)) drafts.push({ kind: 'tool-state', key, value });
  if (snapshot.todos.length) drafts.push({ kind: 'todo-update', todos: snapshot.todos });
  if (snapshot.plan && snapshot.planSlug) drafts.push({ kind: 'plan-snapshot', slug: snapshot.planSlug, name: snapshot.plan.name, text: snapshot.plan.text });
  const reminders = [...snapshot.pendingReminders];
  if (snapshot.permissionMode !== 'default' || snapshot.prePlanMode !== undefined || reminders.length) {
    drafts.push({
      kind: 'mode-change',
      from: 'default',
      to: snapshot.permissionMode,
      reason: 'restore',
      ...(snapshot.prePlanMode !== undefined ? { prePlanMode: snapshot.prePlanMode } : {}),
      ...(reminders.length ? { reminder: reminders.shift() } : {}),
    });
    for (const reminder of reminders) drafts.push({ kind: 'mode-change', from: snapshot.permissionMode, to: snapshot.permissionMode, reason: 'restore', reminder });
  }
  for (const call of snapshot.openBatch?.calls ?? []) {
    if (call.state === 'done' && call.result) drafts.push({ kind: 'tool-result', toolUseId: call.toolUseId, toolName: call.toolName, result: call.result });
    if (call.state === 'deferred' && call.approval) drafts.push({ kind: 'approval-pending', approval: call.approval });
  }
  return drafts;
}
