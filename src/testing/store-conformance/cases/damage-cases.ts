import { AgentHarnessError } from '../../../errors/agent-harness-error.js';
import { check, checkSameJson, show } from '../check.js';
import type { ConformanceCase } from '../conformance-case.js';
import { entryMaker } from '../conformance-entries.js';
import type { ConformanceSetup } from '../session-store-conformance.js';
import type { SessionEntry } from '../../../state/entries.js';
import type { SessionStore } from '../../../session/session-store.js';
import { appendNext, hasCode, idsOf, loadAll, loadClean } from '../store-calls.js';

/** Torn or corrupt data: what the store's own medium can have go wrong. */
export function damageCases({ options, withStore }: ConformanceSetup): ConformanceCase[] {
  return [
    {
      name: 'damaged data: the store loads what is valid and warns about the rest, or refuses with a clear error, never a raw TypeError',
      ...(options.damage ? {} : { skip: 'the fixture has no damage()' }),
      run: () =>
        withStore(async ({ store, damage }) => {
          check(damage !== undefined, 'The options say damage: true, but the fixture has no damage().');
          const make = entryMaker('damaged');
          const written = [make.userText('one'), make.userText('two'), make.userText('three'), make.userText('four'), make.userText('five')];
          await appendNext(store, 'damaged', written);
          const other = entryMaker('healthy');
          const healthy = [other.userText('untouched')];
          await appendNext(store, 'healthy', healthy);
          await damage('damaged');

          let outcome: Awaited<ReturnType<typeof loadAll>> | undefined;
          try {
            outcome = await loadAll(store, 'damaged');
          } catch (error) {
            check(
              AgentHarnessError.isInstance(error),
              `Loading damaged data should either skip what is damaged (with a warning) or fail with an agent-harness error that says what is wrong, not with ${show(error)}`,
            );
          }
          if (outcome !== undefined) {
            const writtenIds = idsOf(written);
            const loadedIds = idsOf(outcome.entries);
            // A subsequence of what was written, in order: nothing invented, nothing reordered.
            let cursor = 0;
            for (const id of loadedIds) {
              cursor = writtenIds.indexOf(id, cursor);
              check(cursor >= 0, `Loading damaged data yielded entries that were never written or out of order: ${show(loadedIds)} (written: ${show(writtenIds)}).`);
              cursor += 1;
            }
            for (const entry of outcome.entries) checkSameJson(entry, written.find((candidate) => candidate.id === entry.id), `the undamaged entry ${entry.id}`);
            check(outcome.entries.length < written.length, 'damage() changed nothing the load could see: it should damage at least one entry.');
            check(outcome.warnings.length > 0, `Loading damaged data skipped ${written.length - outcome.entries.length} entries without a warning.`);
            for (const warning of outcome.warnings) {
              check(warning.sessionId === 'damaged' && typeof warning.message === 'string' && warning.message.length > 0, `A load warning should name the session and say what was skipped: ${show(warning)}`);
            }
            await appendAfterDamage(store, outcome.entries);
          }
          checkSameJson(await loadClean(store, 'healthy'), healthy, 'another session after one was damaged');
          const more = entryMaker('healthy', 1);
          await appendNext(store, 'healthy', [more.userText('still writable')]);
          await store.delete('damaged');
          checkSameJson(await store.list(), ['healthy'], 'list() after deleting the damaged session');
        }),
    },
  ];
}

/**
 * What a host resuming the damaged session does: it writes after the last entry it loaded. The
 * store either takes the entry (a later load yields it last) or refuses it with
 * `SessionStoreCorruptError`, which says how to repair the session. A `SessionConflictError` would
 * be wrong: the host reloads and gets the same refusal, for ever.
 */
async function appendAfterDamage(store: SessionStore, loaded: readonly SessionEntry[]): Promise<void> {
  const last = loaded.at(-1);
  const revision = last?.seq ?? 0;
  const next = { ...entryMaker('damaged', revision, 'resumed').userText('written after the damage'), parentId: last?.id ?? null } as SessionEntry;
  try {
    await store.append('damaged', [next], { expectedRevision: revision });
  } catch (error) {
    check(
      hasCode('session-store-corrupt')(error),
      `An append after the last entry a load of damaged data yielded (expectedRevision ${revision}) should be stored, or refused with SessionStoreCorruptError (code session-store-corrupt) saying how to repair the session, not ${show(error)}: a SessionConflictError would refuse the host's every retry.`,
    );
    return;
  }
  const after = await loadAll(store, 'damaged');
  check(after.entries.at(-1)?.id === next.id, `An append after damaged data was accepted, but the next load does not end with it: ${show(idsOf(after.entries))}.`);
}
