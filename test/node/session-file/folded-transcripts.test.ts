// A file store's `listPending()` reads a transcript only when its file changed since the store
// last folded it. Counted here by the loads of transcripts (the reader replaced by a counting one);
// the process's clock is moved on (Date only) so that files written by the test are not "racy".
import { appendFileSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fileSessionStore } from '../../../src/node/file-session-store.js';
import { readSessionFileBatches } from '../../../src/node/session-file/read-session-file.js';
import type { SessionStoreWarning } from '../../../src/session/session-store.js';
import { entryMaker } from '../../../src/testing/store-conformance/conformance-entries.js';
import { createSessionState } from '../../../src/state/session-state.js';

vi.mock('../../../src/node/session-file/read-session-file.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../src/node/session-file/read-session-file.js')>();
  return { ...actual, readSessionFileBatches: vi.fn(actual.readSessionFileBatches) };
});

/** The transcripts `work` read. */
async function readsOf(work: () => Promise<unknown>): Promise<number> {
  const before = vi.mocked(readSessionFileBatches).mock.calls.length;
  await work();
  return vi.mocked(readSessionFileBatches).mock.calls.length - before;
}

/** Moves the process's clock (Date) on: what was written so far is no longer recent. */
const later = () => vi.setSystemTime(Date.now() + 10_000);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'folded-transcripts-'));
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterEach(() => {
  vi.useRealTimers();
  rmSync(dir, { recursive: true, force: true });
});

/** Writes `count` sessions, each waiting on one approval. */
async function waitingSessions(store: ReturnType<typeof fileSessionStore>, count: number) {
  const makers = new Map<string, ReturnType<typeof entryMaker>>();
  for (let index = 0; index < count; index++) {
    const sessionId = `s${index}`;
    const make = entryMaker(sessionId);
    await store.append(sessionId, [make.userText('Go.'), make.assistantCalls('toolu_1'), make.approvalPending(`approval_${sessionId}`, 'toolu_1')], { expectedRevision: 0 });
    await store.close!(sessionId);
    makers.set(sessionId, make);
  }
  return makers;
}

const ids = (sessions: Awaited<ReturnType<NonNullable<ReturnType<typeof fileSessionStore>['listPending']>>>) => sessions.map((session) => [session.sessionId, session.approvals.map((approval) => approval.id)]);

describe('fileSessionStore.listPending(): transcripts read only when they changed', () => {
  it('an inbox polled again reads no transcript when none changed, and lists the same approvals', async () => {
    const store = fileSessionStore({ dir });
    await waitingSessions(store, 5);
    later();
    const first = await store.listPending!();
    expect(ids(first)).toEqual([0, 1, 2, 3, 4].map((index) => [`s${index}`, [`approval_s${index}`]]));
    expect(await readsOf(() => store.listPending!())).toBe(0);
    expect(ids(await store.listPending!())).toEqual(ids(first));
  });

  it('reads again the transcript that changed: an answer appended, a same-size rewrite, a file replaced or deleted', async () => {
    const store = fileSessionStore({ dir });
    const makers = await waitingSessions(store, 4);
    later();
    await store.listPending!();
    // s0: the call answered (its result appended).
    const s0 = makers.get('s0')!;
    await store.append('s0', [s0.toolResult('toolu_1', 'done')], { expectedRevision: 3 });
    await store.close!('s0');
    // s1: rewritten in place to the same size (another approval's id).
    const s1 = join(dir, 's1.jsonl');
    writeFileSync(s1, readFileSync(s1, 'utf8').replaceAll('approval_s1', 'approval_x1'));
    // s2: replaced by another file (a new inode) of the same size, written beside it and renamed
    // over it (a file removed first may give its inode number to the next one created).
    const s2 = join(dir, 's2.jsonl');
    const text = readFileSync(s2, 'utf8');
    const before = statSync(s2).ino;
    writeFileSync(`${s2}.new`, text.replaceAll('approval_s2', 'approval_y2'));
    renameSync(`${s2}.new`, s2);
    expect(statSync(s2).ino).not.toBe(before);
    // s3: deleted.
    await store.delete('s3');
    later();
    let listed: Awaited<ReturnType<NonNullable<typeof store.listPending>>> = [];
    expect(await readsOf(async () => (listed = await store.listPending!()))).toBe(3);
    expect(ids(listed)).toEqual([
      ['s1', ['approval_x1']],
      ['s2', ['approval_y2']],
    ]);
  });

  it('does not keep the fold of a file changed within the last two seconds (a file system clock may not tell a second change in the same tick)', async () => {
    const store = fileSessionStore({ dir });
    await waitingSessions(store, 2);
    await store.listPending!();
    expect(await readsOf(() => store.listPending!())).toBe(2);
    later();
    await store.listPending!();
    expect(await readsOf(() => store.listPending!())).toBe(0);
  });

  it('gives the warnings of a damaged transcript at every call, read or not, and passes over a newer version as before', async () => {
    const warnings: SessionStoreWarning[] = [];
    const store = fileSessionStore({ dir, onWarning: (warning) => warnings.push(warning) });
    const makers = await waitingSessions(store, 2);
    appendFileSync(join(dir, 's0.jsonl'), 'not json\n');
    const next = entryMaker('s1', 3);
    await store.append('s1', [{ ...next.userText('from the future'), $schemaVersion: 99 } as never], { expectedRevision: 3 });
    await store.close!('s1');
    later();
    expect(ids(await store.listPending!())).toEqual([['s0', ['approval_s0']]]);
    const first = warnings.splice(0);
    expect(first.map((warning) => warning.message)).toEqual([expect.stringMatching(/Skipped line 4 of .*s0\.jsonl/)]);
    expect(await readsOf(() => store.listPending!())).toBe(0);
    expect(warnings).toEqual(first);
    expect(makers.size).toBe(2);
  });

  it("a session's transcript swapped for a link to another session's after it was folded is passed over, with its warning, at every call", async () => {
    const warnings: SessionStoreWarning[] = [];
    const store = fileSessionStore({ dir, onWarning: (warning) => warnings.push(warning) });
    await waitingSessions(store, 2);
    later();
    expect(ids(await store.listPending!())).toEqual([
      ['s0', ['approval_s0']],
      ['s1', ['approval_s1']],
    ]);
    rmSync(join(dir, 's1.jsonl'));
    symlinkSync(join(dir, 's0.jsonl'), join(dir, 's1.jsonl'));
    later();
    for (let call = 0; call < 2; call++) {
      expect(ids(await store.listPending!())).toEqual([['s0', ['approval_s0']]]);
      // (Found by the listing, before any fold is looked up: a name swapped later, between the
      // listing and the look-up, opens another file than the one folded, so it is checked again.)
      expect(warnings.splice(0).map((warning) => warning.message)).toEqual([expect.stringMatching(/Passed over "s1\.jsonl" in list\(\): it is a link to another session's transcript/)]);
    }
  });

  it('folds a long transcript from its last checkpoint on, as a resume reads it: what comes before is not read', async () => {
    const store = fileSessionStore({ dir });
    const make = entryMaker('long');
    const state = () => createSessionState({ sessionId: 'long' });
    // Before the checkpoint: an approval the checkpoint's state no longer waits on, long entries,
    // and an entry of a newer version (a whole read would pass the session over for it).
    const before = [
      make.next({ kind: 'checkpoint', state: state(), reason: 'startup' }),
      make.userText('Go.'),
      make.assistantCalls('toolu_old'),
      make.approvalPending('approval_old', 'toolu_old'),
      ...Array.from({ length: 8 }, (_, index) => make.userText(`turn ${index} ${'x'.repeat(40_000)}`)),
    ];
    const newer = { ...make.userText('from a newer version'), $schemaVersion: 99 };
    const after = [make.next({ kind: 'checkpoint', state: state(), reason: 'compaction' }), make.userText('Again.'), make.assistantCalls('toolu_new'), make.approvalPending('approval_new', 'toolu_new')];
    await store.append('long', before, { expectedRevision: 0 });
    appendFileSync(join(dir, 'long.jsonl'), `${JSON.stringify(newer)}\n`);
    await store.close!('long');
    appendFileSync(join(dir, 'long.jsonl'), after.map((entry) => `${JSON.stringify(entry)}\n`).join(''));
    later();
    const warnings: SessionStoreWarning[] = [];
    expect(ids(await fileSessionStore({ dir, onWarning: (warning) => warnings.push(warning) }).listPending!())).toEqual([['long', ['approval_new']]]);
    expect(warnings).toEqual([]);
    expect(vi.mocked(readSessionFileBatches).mock.calls.at(-1)![0].fromCheckpoint).toEqual({});
  });
});
