import { SessionConflictError } from '../../../errors/session-conflict-error.js';
import { loadTranscript } from '../../../session/load-entries.js';
import type { SessionEntry } from '../../../state/entries.js';
import type { SessionStore } from '../../../session/session-store.js';
import { check, checkRejects, checkSameJson } from '../check.js';
import type { ConformanceCase } from '../conformance-case.js';
import { entryMaker } from '../conformance-entries.js';
import type { ConformanceSetup } from '../session-store-conformance.js';
import { appendNext, hasCode, idsOf, loadClean } from '../store-calls.js';

/** Whether a call resolved; what it threw otherwise, for the failure message. */
async function resolves(promise: Promise<unknown>): Promise<{ ok: true } | { ok: false; error: unknown }> {
  try {
    await promise;
    return { ok: true };
  } catch (error) {
    return { ok: false, error };
  }
}

/**
 * A writer retries an append whose reply was lost: the same entries at the same revision. Stored
 * already, byte for byte where they belong, it resolves and stores nothing more; other entries at
 * that revision are still a conflict.
 */
export function replayCases({ options, withStore }: ConformanceSetup): ConformanceCase[] {
  const replayed = async (store: SessionStore, sessionId: string, entries: readonly SessionEntry[], what: string, fencingToken?: number) => {
    const outcome = await resolves(appendNext(store, sessionId, entries, fencingToken));
    check(outcome.ok, `${what}: an append of entries already stored where it puts them (a retry after a lost reply) should resolve, but it failed: ${outcome.ok ? '' : String(outcome.error)}`);
  };
  return [
    {
      name: 'an entry stored again under a new number (a row written twice) loads once, with a warning; the session stays writable after it; another entry with its id is refused',
      run: () =>
        withStore(async ({ store }) => {
          const make = entryMaker('copied');
          const written = [make.userText('one'), make.assistantCalls('toolu_copied'), make.toolResult('toolu_copied', 'done')];
          await appendNext(store, 'copied', written);
          // The call's message again, renumbered after the last entry and pointing at it.
          const copy = { ...written[1]!, seq: 4, parentId: written[2]!.id } as SessionEntry;
          await store.append('copied', [copy], { expectedRevision: 3 });
          const warnings: string[] = [];
          const loaded = await loadTranscript(store, 'copied', { onWarning: (warning) => warnings.push(warning.message) });
          checkSameJson(idsOf(loaded.entries), idsOf(written), 'the entries loadEntries applies when one is stored again under a new number');
          check(loaded.revision === 4 && loaded.lastId === copy.id, `The session's revision should still count the copy (4, last id ${copy.id}), not ${loaded.revision} (${String(loaded.lastId)}).`);
          check(warnings.some((message) => message.includes('entry 4 (message) is a copy of entry 2')), `Loading should warn that entry 4 is a copy of entry 2, but warned: ${JSON.stringify(warnings)}`);
          // A writer continues after the copy, naming it as the entry before its own.
          const after = { ...entryMaker('copied', 4).userText('after the copy'), parentId: copy.id } as SessionEntry;
          await store.append('copied', [after], { expectedRevision: loaded.revision });
          const reloaded = await loadTranscript(store, 'copied');
          checkSameJson(idsOf(reloaded.entries), idsOf([...written, after]), 'the entries after an append that followed the copy');
          // The id of entry 1 with other content: two entries cannot be told apart, so the store
          // refuses it (a session holding one fails to load with SessionStoreCorruptError).
          const impostor = { ...make.userText('not the same'), id: written[0]!.id, seq: 6, parentId: after.id } as SessionEntry;
          if (options.entryIds) {
            await checkRejects(store.append('copied', [impostor], { expectedRevision: 5 }), hasCode('configuration'), 'An append of an entry with the id of entry 1 and other content should be refused with ConfigurationError');
            checkSameJson(idsOf((await loadTranscript(store, 'copied')).entries), idsOf([...written, after]), 'the entries after the refused append');
          } else {
            await store.append('copied', [impostor], { expectedRevision: 5 });
            await checkRejects(loadTranscript(store, 'copied'), hasCode('session-store-corrupt'), 'Loading a session in which an entry has the id of an earlier one and other content should fail with SessionStoreCorruptError');
          }
        }),
    },
    {
      name: 'compare-and-append: an identical replay of a stored append (its reply lost) resolves and stores nothing more, also once the session moved on',
      run: () =>
        withStore(async (fixture, clock) => {
          const { store } = fixture;
          const make = entryMaker('replayed');
          const first = [make.userText('one')];
          const batch = [make.userText('two'), make.toolState('k', { nested: [1, 'x'] })];
          await appendNext(store, 'replayed', first);
          await appendNext(store, 'replayed', batch);
          await replayed(store, 'replayed', batch, 'The same store replaying its last append');
          await replayed(store, 'replayed', first, 'The same store replaying the first append of the session');
          checkSameJson(idsOf(await loadClean(store, 'replayed')), idsOf([...first, ...batch]), 'the session after identical replays');
          const later = [make.userText('four')];
          await appendNext(store, 'replayed', later);
          await replayed(store, 'replayed', batch, 'A replay after another append moved the session on');
          await store.close?.('replayed');
          if (options.peers && fixture.openPeer) {
            const peer = await fixture.openPeer();
            await replayed(peer, 'replayed', batch, 'Another store instance replaying the append');
            await peer.close?.('replayed');
          }
          checkSameJson(idsOf(await loadClean(store, 'replayed')), idsOf([...first, ...batch, ...later]), 'the session after every replay');
          if (options.leases) {
            // A fenced writer whose reply was lost retries after its lease ran out: the entries are stored, so it is not told otherwise.
            const lease = await store.leases!.acquire('replayed', { holder: 'worker-a', ttlMs: 1000 });
            check(lease !== undefined, 'acquire() of a free session gave no lease.');
            const fenced = [make.userText('five')];
            await appendNext(store, 'replayed', fenced, lease.fencingToken);
            clock.advance(1000);
            check((await store.leases!.acquire('replayed', { holder: 'worker-b', ttlMs: 1000 })) !== undefined, 'acquire() after the lease expired gave no lease.');
            await replayed(store, 'replayed', fenced, 'A fenced replay after the lease was taken over', lease.fencingToken);
            checkSameJson(idsOf(await loadClean(store, 'replayed')), idsOf([...first, ...batch, ...later, ...fenced]), 'the session after a fenced replay');
          }
        }),
    },
    {
      name: 'compare-and-append: a replay with other entries at a stored revision is refused with SessionConflictError and stores nothing',
      run: () =>
        withStore(async ({ store }) => {
          const make = entryMaker('differs');
          const stored = [make.userText('one'), make.userText('two')];
          await appendNext(store, 'differs', stored);
          const isConflict = (error: unknown) => SessionConflictError.isInstance(error);
          const edited = { ...stored[1]!, message: { role: 'user', content: [{ type: 'text', text: 'two, edited' }] } } as SessionEntry;
          await checkRejects(
            appendNext(store, 'differs', [edited]),
            isConflict,
            'An append at revision 1 of an entry with the id and seq of the stored entry 2 but other content should be refused with SessionConflictError',
          );
          await checkRejects(
            appendNext(store, 'differs', [entryMaker('differs', 1, 'other-writer').userText('two')]),
            isConflict,
            'An append at revision 1 of another writer\'s entry 2 should be refused with SessionConflictError',
          );
          const longer = [stored[1]!, make.userText('three')];
          await checkRejects(
            appendNext(store, 'differs', longer),
            isConflict,
            'An append at revision 1 of the stored entry 2 and a new entry 3 should be refused with SessionConflictError',
          );
          await checkRejects(appendNext(store, 'differs', [stored[0]!, edited]), isConflict, 'An append at revision 0 of a batch whose second entry differs from the stored one should be refused with SessionConflictError');
          checkSameJson(await loadClean(store, 'differs'), stored, 'the session after the refused replays');
        }),
    },
  ];
}
