import type { SessionEntry } from '../state/entries.js';
import { foldPendingApprovals, isCurrentPendingApprovals, PENDING_APPROVALS_RULE, pendingApprovalsIn, type PendingApprovalsState } from './pending-approvals.js';

/** What a store saved beside a session: its revision and folded pending approvals. */
export interface SavedPendingApprovals {
  /** The session's revision (0 for none). */
  revision: number;
  /** The folded state as JSON text, or null when none was saved. */
  pending: string | null;
  /** The `PENDING_APPROVALS_RULE` that folded it. */
  rule: number;
}

/** The text a store saves for a state. */
export function savedPendingText(state: PendingApprovalsState): string {
  return JSON.stringify(state);
}

/** Whether the session waits for the host: what stores index for `listPending()`. */
export function isWaiting(state: PendingApprovalsState): boolean {
  return pendingApprovalsIn(state).length > 0;
}

/** Reads saved state text; undefined unless this build's rule made it and it is intact. */
export function parseSavedPending(text: string | null): PendingApprovalsState | undefined {
  if (text === null) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isCurrentPendingApprovals(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A session's pending approvals from what a store saved: the saved state when this build's rule
 * made it and it is intact, else folded again from the whole transcript (`refolded`: the store
 * should save the new state).
 */
export async function pendingFromSaved(saved: SavedPendingApprovals, transcript: () => AsyncIterable<SessionEntry>): Promise<{ state: PendingApprovalsState; refolded: boolean }> {
  if (saved.revision === 0) return { state: foldPendingApprovals(undefined, []), refolded: false };
  if (saved.rule === PENDING_APPROVALS_RULE) {
    const state = parseSavedPending(saved.pending);
    if (state !== undefined) return { state, refolded: false };
  }
  let state = foldPendingApprovals(undefined, []);
  for await (const entry of transcript()) state = foldPendingApprovals(state, [entry]);
  return { state, refolded: true };
}
