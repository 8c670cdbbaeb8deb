import type { PendingSession, SessionStore } from '../../../session/session-store.js';
import { check, checkSameJson } from '../check.js';
import type { ConformanceCase } from '../conformance-case.js';
import { approvalFor, entryMaker } from '../conformance-entries.js';
import type { ConformanceSetup } from '../session-store-conformance.js';
import { appendNext, hasCode } from '../store-calls.js';

async function pendingOf(store: SessionStore): Promise<Array<[string, string[]]>> {
  check(store.listPending !== undefined, 'The options say listPending: true (the default), but the store has no listPending(). Pass listPending: false if it has none.');
  const sessions: PendingSession[] = await store.listPending();
  return sessions.map((session) => [session.sessionId, session.approvals.map((approval) => approval.id)]);
}

/** `listPending()`: the approval inbox. */
export function pendingCases({ options, withStore }: ConformanceSetup): ConformanceCase[] {
  const skip = options.listPending ? {} : { skip: 'the store has no listPending()' };
  return [
    {
      name: 'listPending: sessions waiting for approval, with their approvals, sorted by session id',
      ...skip,
      run: () =>
        withStore(async ({ store }) => {
          checkSameJson(await pendingOf(store), [], 'listPending() of an empty store');
          const b = entryMaker('session-b');
          await appendNext(store, 'session-b', [b.userText('Write two notes.'), b.assistantCalls('toolu_b1', 'toolu_b2'), b.approvalPending('approval_b1', 'toolu_b1'), b.approvalPending('approval_b2', 'toolu_b2')]);
          const a = entryMaker('session-a');
          await appendNext(store, 'session-a', [a.userText('Write one note.'), a.assistantCalls('toolu_a1')]);
          await appendNext(store, 'session-a', [a.approvalPending('approval_a1', 'toolu_a1')]);
          const idle = entryMaker('session-idle');
          await appendNext(store, 'session-idle', [idle.userText('Nothing to approve.'), idle.toolState('k', 1)]);
          checkSameJson(
            await pendingOf(store),
            [
              ['session-a', ['approval_a1']],
              ['session-b', ['approval_b1', 'approval_b2']],
            ],
            'listPending() with two waiting sessions',
          );
          const listed = await store.listPending!();
          checkSameJson(listed[0]!.approvals[0], { ...approvalFor('approval_a1', 'toolu_a1'), path: ['toolu_a1'] }, 'a listed approval (with its path), compared with the one appended');
        }),
    },
    {
      name: 'listPending: sorted by session id in code point order (the byte order of UTF-8), not by a locale\'s collation nor by UTF-16 code units',
      ...skip,
      run: () =>
        withStore(async ({ store }) => {
          // Orders that differ: upper before lower case and punctuation by its code under "C", not
          // under a locale; U+FF21 before U+1F600 by code point, after it by UTF-16 code unit.
          const candidates = ['a', 'B', 'ab', 'a_b', 'a.b', 'a-c', 'a-b', 'Z9', '_x', '0', 'é', '\uff21', '\u{1f600}', '\u{1f600}a', 'z'];
          const taken: string[] = [];
          for (const sessionId of candidates) {
            const make = entryMaker(sessionId);
            try {
              await appendNext(store, sessionId, [make.userText('Go.'), make.assistantCalls('toolu_1'), make.approvalPending('approval_1', 'toolu_1')]);
              taken.push(sessionId);
            } catch (error) {
              // Ids this store does not take (the file store keeps to letters, digits, ".", "_", "-").
              check(hasCode('configuration')(error), `Appending to session ${JSON.stringify(sessionId)} failed otherwise than with a ConfigurationError for an id the store does not take: ${String(error)}`);
            }
          }
          check(taken.length >= 10, `The store took only ${taken.length} of the session ids ${JSON.stringify(candidates)}: ${JSON.stringify(taken)}.`);
          const encoder = new TextEncoder();
          const byUtf8 = (a: string, b: string) => {
            const [x, y] = [encoder.encode(a), encoder.encode(b)];
            for (let index = 0; index < Math.min(x.length, y.length); index++) if (x[index] !== y[index]) return x[index]! - y[index]!;
            return x.length - y.length;
          };
          checkSameJson((await pendingOf(store)).map(([sessionId]) => sessionId), [...taken].sort(byUtf8), 'the session ids listPending() lists, in order');
        }),
    },
    {
      name: 'listPending: an approval leaves the list when its answer is applied (call-allowed), when its call gets a result, or when a user message closes the batch; a recorded answer alone does not take it off',
      ...skip,
      run: () =>
        withStore(async ({ store }) => {
          const make = entryMaker('inbox');
          await appendNext(store, 'inbox', [make.userText('Go.'), make.assistantCalls('toolu_1', 'toolu_2', 'toolu_3')]);
          await appendNext(store, 'inbox', [make.approvalPending('approval_1', 'toolu_1'), make.approvalPending('approval_2', 'toolu_2'), make.approvalPending('approval_3', 'toolu_3')]);
          // A process that stopped between recording the answer and applying it left the call waiting.
          await appendNext(store, 'inbox', [make.approvalResolved('approval_1', 'toolu_1')]);
          checkSameJson(await pendingOf(store), [['inbox', ['approval_1', 'approval_2', 'approval_3']]], 'listPending() after an answer was recorded but not applied');
          await appendNext(store, 'inbox', [make.next({ kind: 'call-allowed', toolUseId: 'toolu_1', input: {} })]);
          checkSameJson(await pendingOf(store), [['inbox', ['approval_2', 'approval_3']]], 'listPending() after one approval was answered and applied');
          await appendNext(store, 'inbox', [make.toolResult('toolu_2', 'denied by a hook')]);
          checkSameJson(await pendingOf(store), [['inbox', ['approval_3']]], 'listPending() after a call got its result');
          await appendNext(store, 'inbox', [make.userText('Never mind, do something else.')]);
          checkSameJson(await pendingOf(store), [], 'listPending() after a user message closed the batch');
          await appendNext(store, 'inbox', [make.assistantCalls('toolu_4'), make.approvalPending('approval_4', 'toolu_4')]);
          checkSameJson(await pendingOf(store), [['inbox', ['approval_4']]], 'listPending() after a new approval');
        }),
    },
    {
      name: 'listPending: refused appends change nothing, deleted sessions leave the list, other instances see the same',
      ...skip,
      run: () =>
        withStore(async (fixture) => {
          const { store } = fixture;
          const make = entryMaker('waiting');
          await appendNext(store, 'waiting', [make.userText('Go.'), make.assistantCalls('toolu_w')]);
          const stale = entryMaker('waiting', 1).approvalPending('approval_stale', 'toolu_w');
          await store.append('waiting', [stale], { expectedRevision: 1 }).catch(() => undefined);
          checkSameJson(await pendingOf(store), [], 'listPending() after a refused append of an approval');
          await appendNext(store, 'waiting', [make.approvalPending('approval_w', 'toolu_w')]);
          const gone = entryMaker('gone');
          await appendNext(store, 'gone', [gone.userText('Go.'), gone.assistantCalls('toolu_g'), gone.approvalPending('approval_g', 'toolu_g')]);
          await store.delete('gone');
          checkSameJson(await pendingOf(store), [['waiting', ['approval_w']]], 'listPending() after a waiting session was deleted');
          if (options.peers && fixture.openPeer) {
            checkSameJson(await pendingOf(await fixture.openPeer()), [['waiting', ['approval_w']]], 'listPending() of another instance over the same data');
          }
        }),
    },
  ];
}
