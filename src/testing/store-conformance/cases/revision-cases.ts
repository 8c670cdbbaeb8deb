import { SessionConflictError } from '../../../errors/session-conflict-error.js';
import type { SessionStore } from '../../../session/session-store.js';
import { check, checkRejects, checkSameJson, codeOf, show } from '../check.js';
import type { ConformanceCase } from '../conformance-case.js';
import { entryMaker } from '../conformance-entries.js';
import type { ConformanceSetup, SessionStoreFixture } from '../session-store-conformance.js';
import { appendNext, idsOf, loadClean } from '../store-calls.js';

/** Runs appends at once; checks exactly one wins and every other is refused with an accepted code. */
async function raceOnce(attempts: Array<() => Promise<void>>, accepted: readonly string[], what: string): Promise<number> {
  const outcomes = await Promise.allSettled(attempts.map((attempt) => attempt()));
  const winners = outcomes.flatMap((outcome, index) => (outcome.status === 'fulfilled' ? [index] : []));
  check(winners.length === 1, `${what}: exactly one append should win, ${winners.length} did (${show(outcomes.map((outcome) => (outcome.status === 'fulfilled' ? 'stored' : show(outcome.reason))))}).`);
  for (const outcome of outcomes) {
    if (outcome.status === 'rejected') {
      check(accepted.includes(String(codeOf(outcome.reason))), `${what}: a losing append should be refused with ${accepted.join(' or ')}, got ${show(outcome.reason)}`);
    }
  }
  return winners[0]!;
}

async function peersOf(fixture: SessionStoreFixture, count: number): Promise<SessionStore[]> {
  check(fixture.openPeer !== undefined, 'The options say peers: true, but the fixture has no openPeer().');
  const peers: SessionStore[] = [];
  for (let index = 0; index < count; index += 1) peers.push(await fixture.openPeer());
  return peers;
}

/** Compare-and-append: a stale writer never writes, two racing writers never both write. */
export function revisionCases({ options, withStore }: ConformanceSetup): ConformanceCase[] {
  const peerCodes = ['session-conflict', ...options.peerRefusalCodes];
  const noPeers = options.peers ? {} : { skip: 'the fixture has no openPeer()' };
  return [
    {
      name: 'compare-and-append: a stale writer is refused with SessionConflictError and nothing is stored',
      run: () =>
        withStore(async ({ store }) => {
          const make = entryMaker('stale');
          const first = [make.userText('one'), make.userText('two')];
          await appendNext(store, 'stale', first);
          // A writer that loaded the session at revision 1 and missed the second entry.
          const stale = entryMaker('stale', 1).userText('from a stale writer');
          const error = await checkRejects(
            store.append('stale', [stale], { expectedRevision: 1 }),
            (caught) => SessionConflictError.isInstance(caught),
            'An append expecting revision 1 of a session at revision 2 should be refused with SessionConflictError',
          );
          const conflict = error as SessionConflictError;
          check(conflict.sessionId === 'stale' && conflict.expectedRevision === 1, `The SessionConflictError should name the session and the expected revision: ${show(conflict)}`);
          check(conflict.actualRevision === undefined || conflict.actualRevision === 2, `The SessionConflictError names revision ${show(conflict.actualRevision)}, the store is at 2.`);
          // Ahead of the store is as wrong as behind it.
          await checkRejects(
            store.append('stale', [entryMaker('stale', 4).userText('from the future')], { expectedRevision: 4 }),
            (caught) => SessionConflictError.isInstance(caught),
            'An append expecting revision 4 of a session at revision 2 should be refused with SessionConflictError',
          );
          // A new session is at revision 0.
          await checkRejects(
            store.append('fresh', [entryMaker('fresh', 1).userText('x')], { expectedRevision: 1 }),
            (caught) => SessionConflictError.isInstance(caught),
            'An append expecting revision 1 of a session with no entries should be refused with SessionConflictError',
          );
          checkSameJson(await loadClean(store, 'stale'), first, 'the session after the refused appends');
          checkSameJson(await store.list(), ['stale'], 'list() after an append to a new session was refused');
        }),
    },
    {
      name: 'compare-and-append: a writer that saw a session before it was deleted and written again is refused even when the entry now at expectedRevision quotes the old entry\'s id in its content',
      run: () =>
        withStore(async ({ store }) => {
          const sessionId = 'reborn-quoting';
          const old = entryMaker(sessionId, 0, `${sessionId}-first-life`);
          const firstLife = [old.userText('one'), old.userText('two')];
          await appendNext(store, sessionId, firstLife);
          await store.close?.(sessionId);
          await store.delete(sessionId);
          // The second life's entry at revision 2 holds the id of the first life's, as a value a
          // tool kept, a message may quote, … : it is still another entry.
          const reborn = entryMaker(sessionId, 0, `${sessionId}-second-life`);
          const quoted = firstLife[1]!.id;
          const secondLife = [reborn.userText(`{"id":"${quoted}"}`), reborn.toolState('seen', { id: quoted, entries: [{ id: quoted }] })];
          await appendNext(store, sessionId, secondLife);
          await store.close?.(sessionId);
          await checkRejects(
            appendNext(store, sessionId, [old.userText('three, from a writer that saw the first life')]),
            (caught) => SessionConflictError.isInstance(caught),
            'An append by a writer that saw revision 2 of the session before it was deleted and written again should be refused with SessionConflictError, even though the entry now at revision 2 quotes the id of the one the writer saw',
          );
          await store.close?.(sessionId);
          checkSameJson(idsOf(await loadClean(store, sessionId)), idsOf(secondLife), 'the session after the refused append');
        }),
    },
    {
      name: 'compare-and-append: a writer that saw a session before it was deleted and written again up to the same revision is refused (the first entry\'s parentId is not the stored entry at expectedRevision)',
      run: () =>
        withStore(async (fixture) => {
          const variants: Array<[string, SessionStore]> = [['the same store instance', fixture.store]];
          if (options.peers) variants.push(['another store instance', (await peersOf(fixture, 1))[0]!]);
          for (const [where, other] of variants) {
            const sessionId = `reborn-${variants.findIndex(([name]) => name === where)}`;
            // The old writer's view: revision 2 of the session's first life.
            const old = entryMaker(sessionId, 0, `${sessionId}-first-life`);
            await appendNext(fixture.store, sessionId, [old.userText('one'), old.userText('two')]);
            await fixture.store.close?.(sessionId);
            // Meanwhile the session is deleted and written again, up to revision 2, from ${where}.
            await other.delete(sessionId);
            const reborn = entryMaker(sessionId, 0, `${sessionId}-second-life`);
            const secondLife = [reborn.userText('new one'), reborn.userText('new two')];
            await appendNext(other, sessionId, secondLife);
            await other.close?.(sessionId);
            const error = await checkRejects(
              appendNext(fixture.store, sessionId, [old.userText('three, from a writer that saw the first life')]),
              (caught) => SessionConflictError.isInstance(caught),
              `An append at revision 2 by a writer that saw revision 2 of the session before it was deleted and written again (from ${where}) should be refused with SessionConflictError`,
            );
            const conflict = error as SessionConflictError;
            check(conflict.sessionId === sessionId && conflict.expectedRevision === 2, `The SessionConflictError should name the session and the expected revision: ${show(conflict)}`);
            check(conflict.actualRevision === undefined || conflict.actualRevision === 2, `The SessionConflictError names revision ${show(conflict.actualRevision)}, the store is at 2.`);
            await fixture.store.close?.(sessionId);
            checkSameJson(idsOf(await loadClean(fixture.store, sessionId)), idsOf(secondLife), `the session after the refused append (${where})`);
            // The writer of the second life goes on.
            const third = reborn.userText('new three');
            await appendNext(other, sessionId, [third]);
            await other.close?.(sessionId);
            checkSameJson(idsOf(await loadClean(fixture.store, sessionId)), idsOf([...secondLife, third]), `the session after its new writer appended (${where})`);
          }
        }),
    },
    {
      name: 'compare-and-append: two writers racing with the same revision on one store, exactly one wins',
      run: () =>
        withStore(async ({ store }) => {
          const base = entryMaker('race');
          await appendNext(store, 'race', [base.userText('start')]);
          const mine = entryMaker('race', 1).next({ kind: 'message', message: { role: 'user', content: 'mine' } });
          const theirs = { ...entryMaker('race', 1).next({ kind: 'message', message: { role: 'user', content: 'theirs' } }), id: 'race-theirs' };
          const winner = await raceOnce(
            [() => store.append('race', [mine], { expectedRevision: 1 }), () => store.append('race', [theirs], { expectedRevision: 1 })],
            ['session-conflict'],
            'Two appends at revision 1',
          );
          checkSameJson(idsOf(await loadClean(store, 'race')), ['race-entry-1', winner === 0 ? mine.id : theirs.id], 'the session after the race');
        }),
    },
    {
      name: 'compare-and-append: writers on separate store instances race round after round, exactly one wins each round',
      ...noPeers,
      run: () =>
        withStore(async (fixture) => {
          const writers = [fixture.store, ...(await peersOf(fixture, 3))];
          const rounds = 8;
          const winners: string[] = [];
          for (let round = 0; round < rounds; round += 1) {
            const attempts = writers.map((writer, index) => () => {
              // Each writer saw the last round's winner: its entry follows that one.
              const entry = { ...entryMaker('contended', round).userText(`round ${round} by writer ${index}`), id: `round-${round}-writer-${index}`, parentId: winners.at(-1) ?? null };
              return writer.append('contended', [entry], { expectedRevision: round });
            });
            const winner = await raceOnce(attempts, peerCodes, `Round ${round + 1} of ${writers.length} instances appending at revision ${round}`);
            winners.push(`round-${round}-writer-${winner}`);
            // Writers that hold a session open (e.g. a lock) let go, as a refused worker would.
            for (const writer of writers) await writer.close?.('contended');
          }
          checkSameJson(idsOf(await loadClean(fixture.store, 'contended')), winners, 'the session after the rounds: one entry per round, the winner\'s');
        }),
    },
  ];
}
