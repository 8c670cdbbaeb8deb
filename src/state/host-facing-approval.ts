import type { PendingApproval } from '../types/pending-approval.js';

/**
 * An approval as the host is shown it and as it runs when allowed as shown. A question's
 * (`reason.type === 'question'`, e.g. `AskUserQuestion`) answers are the host's to give in its
 * `updatedInput`, so `answers` in its stored input were written by the model: builds before the
 * model's input was parsed without them kept them in the approval, and a session stored then
 * still carries them. They are left out here, wherever the approval is loaded from (a snapshot, a
 * transcript, a store's inbox), so a host merging `input.answers` into its own never passes the
 * model's on as the user's. Returns the same approval when there is nothing to leave out.
 */
export function hostFacingApproval<A extends Pick<PendingApproval, 'input' | 'reason'>>(approval: A): A {
  const input = approval.input;
  if (approval.reason?.type !== 'question' || typeof input !== 'object' || input === null || Array.isArray(input) || !Object.hasOwn(input, 'answers')) return approval;
  const { answers: _modelWritten, ...rest } = input as Record<string, unknown>;
  return { ...approval, input: rest };
}
