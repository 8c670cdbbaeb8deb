import type { SessionEntry } from '../../../state/entries.js';
import { check, checkRejects, checkSameJson } from '../check.js';
import type { ConformanceCase } from '../conformance-case.js';
import { entryMaker } from '../conformance-entries.js';
import type { ConformanceSetup } from '../session-store-conformance.js';
import { appendNext, hasCode, idsOf, loadClean } from '../store-calls.js';

/**
 * An id names one entry of a session: an append that gives a stored entry's id (or one id twice)
 * to other content is refused with `ConfigurationError` and stores nothing, whichever instance
 * sends it — a session with two entries that cannot be told apart no longer loads. The same entry
 * again under a new number is not refused (loading skips it as a copy; see the replay cases).
 */
export function entryIdCases({ options, withStore }: ConformanceSetup): ConformanceCase[] {
  if (!options.entryIds) return [];
  return [
    {
      name: 'compare-and-append: an entry with the id of a stored entry and other content (or one id twice in an append) is refused with ConfigurationError and stores nothing',
      run: () =>
        withStore(async (fixture) => {
          const { store } = fixture;
          const make = entryMaker('ids');
          const stored = [make.userText('one'), make.userText('two')];
          await appendNext(store, 'ids', stored);
          const isRefusal = hasCode('configuration');
          const taken = { ...entryMaker('ids', 2).userText('three'), id: stored[0]!.id } as SessionEntry;
          await checkRejects(appendNext(store, 'ids', [taken]), isRefusal, 'An append at revision 2 of an entry with the id of the stored entry 1 and other content should be refused with ConfigurationError');
          const later = entryMaker('ids', 2);
          const twice = [later.userText('three'), later.userText('four')];
          twice[1] = { ...twice[1]!, id: twice[0]!.id } as SessionEntry;
          await checkRejects(appendNext(store, 'ids', twice), isRefusal, 'An append of two entries with one id and other content should be refused with ConfigurationError');
          await store.close?.('ids');
          if (options.peers && fixture.openPeer) {
            const peer = await fixture.openPeer();
            await checkRejects(appendNext(peer, 'ids', [taken]), isRefusal, 'Another store instance appending an entry with the id of the stored entry 1 and other content should be refused with ConfigurationError');
            await peer.close?.('ids');
          }
          checkSameJson(idsOf(await loadClean(store, 'ids')), idsOf(stored), 'the session after the refused appends');
          // Nothing was stored: the session goes on at revision 2.
          const next = [entryMaker('ids', 2).userText('three')];
          await appendNext(store, 'ids', next);
          const loaded = await loadClean(store, 'ids');
          check(loaded.length === 3, `After the refused appends, an append at revision 2 should store entry 3, but the session holds ${loaded.length} entries.`);
          await store.close?.('ids');
        }),
    },
  ];
}
