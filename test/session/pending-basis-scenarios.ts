// What a server store (PostgreSQL, Redis) must do with the pending approvals a load read, kept as
// the basis of the next append: shared by both stores' tests, each giving its own stores.
import { expect } from 'vitest';
import { SessionConflictError, type SessionStore } from 'agent-harness';
import { loadEntries } from '../../src/session/load-entries.js';
import { entryMaker } from '../../src/testing/store-conformance/conformance-entries.js';

/** The first text of each message entry of session `s`. */
async function texts(store: SessionStore): Promise<unknown[]> {
  return (await loadEntries(store, 's')).map((entry) => (entry as { message?: { content: Array<{ text: string }> } }).message?.content[0]?.text);
}

/**
 * After `loader` loaded session `s`, another writer's append, and then the session deleted and
 * written again up to the same revision, each end `loader`'s append in SessionConflictError with
 * nothing written.
 */
export async function expectAppendAfterLoadRefusedWhenMoved(writer: SessionStore, loader: SessionStore): Promise<void> {
  const make = entryMaker('s');
  await writer.append('s', [make.userText('one'), make.userText('two')], { expectedRevision: 0 });
  expect(await loadEntries(loader, 's')).toHaveLength(2);
  await writer.append('s', [make.userText('three')], { expectedRevision: 2 });
  const late = entryMaker('s', 2, 'late');
  await expect(loader.append('s', [late.userText('not three')], { expectedRevision: 2 })).rejects.toThrow(SessionConflictError);
  expect(await texts(writer)).toEqual(['one', 'two', 'three']);
  // The same after the session was deleted and written again up to the same revision.
  await writer.delete('s');
  const again = entryMaker('s', 0, 'again');
  await writer.append('s', [again.userText('one'), again.userText('two'), again.userText('three')], { expectedRevision: 0 });
  expect(await loadEntries(loader, 's')).toHaveLength(3);
  await writer.delete('s');
  const third = entryMaker('s', 0, 'third');
  await writer.append('s', [third.userText('1'), third.userText('2'), third.userText('3')], { expectedRevision: 0 });
  const onto = entryMaker('s', 3, 'again');
  await expect(loader.append('s', [onto.userText('four')], { expectedRevision: 3 })).rejects.toThrow(SessionConflictError);
  expect(await loadEntries(writer, 's')).toHaveLength(3);
}

/**
 * Session `s` waits on two approvals; `loader` loads it and appends the answer of one call: the
 * other approval is still listed (by `lister`), the answered one is not.
 */
export async function expectLoadedApprovalsFolded(writer: SessionStore, loader: SessionStore, lister: SessionStore): Promise<void> {
  const make = entryMaker('s');
  await writer.append('s', [make.userText('go'), make.assistantCalls('toolu_a', 'toolu_b'), make.approvalPending('approval_a', 'toolu_a'), make.approvalPending('approval_b', 'toolu_b')], { expectedRevision: 0 });
  expect(await loadEntries(loader, 's')).toHaveLength(4);
  await loader.append('s', [make.toolResult('toolu_a', 'written')], { expectedRevision: 4 });
  expect((await lister.listPending!()).map((session) => session.approvals.map((approval) => approval.id))).toEqual([['approval_b']]);
}
