import type { PendingApproval } from '../../types/pending-approval.js';
import type { EntryBase, SessionEntry } from '../../state/entries.js';

type Draft = SessionEntry extends infer E ? (E extends SessionEntry ? Omit<E, keyof EntryBase> & { agentId?: string } : never) : never;

/** Builds one session's consecutive transcript entries, as a writer stamps them. */
export interface EntryMaker {
  /** The `seq` of the last entry made. */
  readonly revision: number;
  /** Stamps a draft as the next entry. */
  next(draft: Draft): SessionEntry;
  userText(text: string): SessionEntry;
  assistantCalls(...toolUseIds: string[]): SessionEntry;
  toolResult(toolUseId: string, content: string): SessionEntry;
  approvalPending(approvalId: string, toolUseId: string, agentId?: string): SessionEntry;
  approvalResolved(approvalId: string, toolUseId: string): SessionEntry;
  toolState(key: string, value: unknown): SessionEntry;
}

/** The approval an `approval-pending` entry made by {@link entryMaker} carries. */
export function approvalFor(approvalId: string, toolUseId: string, agentId?: string): PendingApproval {
  return {
    id: approvalId,
    toolName: 'Write',
    input: { file_path: `notes/${toolUseId}.md`, content: 'draft' },
    toolUseId,
    ...(agentId !== undefined ? { agentId } : {}),
    reason: { type: 'mode', mode: 'default' },
    suggestions: [],
    createdAt: '2027-01-01T00:00:00.000Z',
  } as PendingApproval;
}

/**
 * Entries for `sessionId`, numbered on from `revision`, with ids `<idPrefix>-entry-<seq>` (each
 * entry's `parentId` the id of the one before it, as writers chain them).
 * @param idPrefix Tells the entries of two writers (or of a session deleted and written again) apart.
 */
export function entryMaker(sessionId: string, revision = 0, idPrefix = sessionId): EntryMaker {
  let seq = revision;
  let parentId: string | null = revision === 0 ? null : `${idPrefix}-entry-${revision}`;
  const next = (draft: Draft): SessionEntry => {
    seq += 1;
    const id = `${idPrefix}-entry-${seq}`;
    const entry = {
      $schemaVersion: 2,
      id,
      parentId,
      seq,
      timestamp: new Date(Date.UTC(2027, 0, 1) + seq * 1000).toISOString(),
      sessionId,
      ...draft,
    } as SessionEntry;
    parentId = id;
    return entry;
  };
  return {
    get revision() {
      return seq;
    },
    next,
    userText: (text) => next({ kind: 'message', message: { role: 'user', content: [{ type: 'text', text }] } }),
    assistantCalls: (...toolUseIds) =>
      next({
        kind: 'message',
        message: { role: 'assistant', content: toolUseIds.map((id) => ({ type: 'tool_use' as const, id, name: 'Write', input: { file_path: `notes/${id}.md`, content: 'draft' } })) },
      }),
    toolResult: (toolUseId, content) => next({ kind: 'tool-result', toolUseId, toolName: 'Write', result: { type: 'tool_result', tool_use_id: toolUseId, content } }),
    approvalPending: (approvalId, toolUseId, agentId) =>
      next({ kind: 'approval-pending', approval: approvalFor(approvalId, toolUseId, agentId), ...(agentId !== undefined ? { agentId } : {}) }),
    approvalResolved: (approvalId, toolUseId) => next({ kind: 'approval-resolved', approvalId, toolUseId, decision: { behavior: 'allow' } }),
    toolState: (key, value) => next({ kind: 'tool-state', key, value }),
  };
}
