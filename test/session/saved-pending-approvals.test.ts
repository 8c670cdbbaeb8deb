import { describe, expect, it } from 'vitest';
import type { SessionEntry } from 'agent-harness';
import { foldPendingApprovals, PENDING_APPROVALS_RULE } from '../../src/session/pending-approvals.js';
import { isWaiting, parseSavedPending, pendingFromSaved, savedPendingText } from '../../src/session/saved-pending-approvals.js';
import { entryMaker } from '../../src/testing/store-conformance/conformance-entries.js';

const make = entryMaker('s');
const transcript = [make.userText('Go.'), make.assistantCalls('toolu_1'), make.approvalPending('approval_1', 'toolu_1')];
const folded = foldPendingApprovals(undefined, transcript);
let reads = 0;
async function* read(): AsyncGenerator<SessionEntry> {
  reads += 1;
  yield* transcript;
}

describe('pendingFromSaved', () => {
  it('uses an intact state saved under this rule without reading the transcript', async () => {
    reads = 0;
    expect(await pendingFromSaved({ revision: 3, pending: savedPendingText(folded), rule: PENDING_APPROVALS_RULE }, read)).toEqual({ state: folded, refolded: false });
    expect(await pendingFromSaved({ revision: 0, pending: null, rule: 0 }, read)).toEqual({ state: foldPendingApprovals(undefined, []), refolded: false });
    expect(reads).toBe(0);
  });

  it('folds the transcript again when the state was saved under another rule, is missing or is damaged', async () => {
    reads = 0;
    for (const saved of [
      { revision: 3, pending: savedPendingText(folded), rule: PENDING_APPROVALS_RULE - 1 },
      { revision: 3, pending: savedPendingText(folded), rule: PENDING_APPROVALS_RULE + 1 },
      { revision: 3, pending: null, rule: PENDING_APPROVALS_RULE },
      { revision: 3, pending: '{"rule":1,"calls":[null]}', rule: PENDING_APPROVALS_RULE },
      { revision: 3, pending: '{not json', rule: PENDING_APPROVALS_RULE },
    ]) {
      expect(await pendingFromSaved(saved, read)).toEqual({ state: folded, refolded: true });
    }
    expect(reads).toBe(5);
  });

  it('reads back what it saves, and tells a waiting session from one that is not', () => {
    expect(parseSavedPending(savedPendingText(folded))).toEqual(folded);
    expect(parseSavedPending(null)).toBeUndefined();
    expect(parseSavedPending('[]')).toBeUndefined();
    expect(isWaiting(folded)).toBe(true);
    expect(isWaiting(foldPendingApprovals(folded, [make.toolResult('toolu_1', 'denied')]))).toBe(false);
  });
});
