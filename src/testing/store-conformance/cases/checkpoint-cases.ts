import type { SessionEntry } from '../../../state/entries.js';
import { createSessionState } from '../../../state/session-state.js';
import type { SessionStore } from '../../../session/session-store.js';
import { check, checkSameJson } from '../check.js';
import type { ConformanceCase } from '../conformance-case.js';
import { entryMaker } from '../conformance-entries.js';
import type { ConformanceSetup } from '../session-store-conformance.js';
import { appendNext, idsOf, loadClean } from '../store-calls.js';

/** The entries a load with `fromCheckpoint` yields. */
async function loadFrom(store: SessionStore, sessionId: string, agentId?: string): Promise<SessionEntry[]> {
  const entries: SessionEntry[] = [];
  for await (const entry of store.load(sessionId, { fromCheckpoint: agentId !== undefined ? { agentId } : {} })) entries.push(entry);
  return entries;
}

/**
 * `load` with the `fromCheckpoint` hint (resuming): the whole transcript, or the part from a
 * checkpoint of the agent asked for that directly follows the entry before it, never less than
 * from the agent's last such checkpoint. A store may ignore the hint.
 */
export function checkpointCases({ withStore }: ConformanceSetup): ConformanceCase[] {
  return [
    {
      name: 'load with fromCheckpoint: the whole transcript, or every entry from a checkpoint of that agent (at most its last) on',
      run: () =>
        withStore(async ({ store }) => {
          const make = entryMaker('from-checkpoint');
          const state = (agentId?: string) => createSessionState({ sessionId: 'from-checkpoint', ...(agentId !== undefined ? { agentId } : {}) });
          // Long enough that a store may find reading from a checkpoint worth it (over 256 KiB).
          const long = 'x'.repeat(300_000);
          const written = [
            make.next({ kind: 'checkpoint', state: state(), reason: 'startup' }),
            make.userText(long),
            make.next({ kind: 'checkpoint', state: state(), reason: 'compaction' }),
            make.userText('after the first compaction'),
            make.next({ kind: 'checkpoint', state: state(), reason: 'compaction' }),
            make.userText('after the second compaction, mentioning "checkpoint" in passing'),
            make.next({ kind: 'checkpoint', state: state('helper'), reason: 'startup', agentId: 'helper' }),
            make.next({ kind: 'message', message: { role: 'user', content: [{ type: 'text', text: 'to the helper' }] }, agentId: 'helper' }),
          ];
          await appendNext(store, 'from-checkpoint', written);
          const whole = await loadClean(store, 'from-checkpoint');
          checkSameJson(idsOf(whole), idsOf(written), 'the entries of a load without the hint');
          const suffixOf = (loaded: SessionEntry[], agentId: string | undefined, lastAt: number, what: string) => {
            const start = written.length - loaded.length;
            checkSameJson(loaded, whole.slice(start), `${what}: the entries from where the load started`);
            check(
              start === 0 || (loaded[0]!.kind === 'checkpoint' && loaded[0]!.agentId === agentId && start <= lastAt),
              `${what}: a load with fromCheckpoint should start at the first entry or at a checkpoint of ${agentId === undefined ? 'the main agent' : `"${agentId}"`} no later than its last (entry ${lastAt + 1}), but it started at entry ${start + 1} (${loaded[0]?.kind})`,
            );
          };
          suffixOf(await loadFrom(store, 'from-checkpoint'), undefined, 4, 'fromCheckpoint: {}');
          suffixOf(await loadFrom(store, 'from-checkpoint', 'helper'), 'helper', 6, 'fromCheckpoint: { agentId: "helper" }');
        }),
    },
  ];
}
