import { check, checkSameJson, show } from '../check.js';
import { groupDigits } from '../../../model/group-digits.js';
import type { ConformanceCase } from '../conformance-case.js';
import { entryMaker } from '../conformance-entries.js';
import type { ConformanceSetup } from '../session-store-conformance.js';
import { appendNext, loadClean } from '../store-calls.js';

/** Sessions far bigger than the usual ones. */
export function largeCases({ options, withStore }: ConformanceSetup): ConformanceCase[] {
  const count = options.largeSessionEntries;
  const chars = options.largeEntryChars;
  return [
    {
      name: `a session of ${groupDigits(count)} entries loads back whole and in order`,
      run: () =>
        withStore(async ({ store }) => {
          const make = entryMaker('large');
          const entries = Array.from({ length: count }, (_, index) => make.toolState('step', { index, note: `entry ${index + 1}` }));
          const half = Math.floor(count / 2);
          await appendNext(store, 'large', entries.slice(0, half));
          for (let start = half; start < count; start += 100) await appendNext(store, 'large', entries.slice(start, start + 100));
          const loaded = await loadClean(store, 'large');
          check(loaded.length === count, `Loaded ${loaded.length} of ${count} entries.`);
          for (const [index, entry] of loaded.entries()) {
            check(entry.id === entries[index]!.id, `Entry ${index + 1} of the large session is ${show(entry.id)}, expected ${show(entries[index]!.id)}.`);
          }
          checkSameJson(loaded[0], entries[0], 'the first entry of the large session');
          checkSameJson(loaded.at(-1), entries.at(-1), 'the last entry of the large session');
        }),
    },
    {
      name: `an entry of ${groupDigits(chars)} characters round-trips exactly`,
      run: () =>
        withStore(async ({ store }) => {
          const make = entryMaker('big-entry');
          const unit = 'Line of tool output with ünïcödé, "quotes" and a tab\t. ';
          const content = unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars);
          const entries = [make.toolResult('toolu_big', content), make.userText('after the big one')];
          await appendNext(store, 'big-entry', entries);
          const loaded = await loadClean(store, 'big-entry');
          check(loaded.length === 2, `Loaded ${loaded.length} entries of 2.`);
          const result = loaded[0]!.kind === 'tool-result' ? loaded[0]!.result.content : undefined;
          check(result === content, `The big tool result came back changed (${typeof result === 'string' ? `${result.length} characters` : show(result)}, expected ${content.length}).`);
          checkSameJson(loaded[1], entries[1], 'the entry after the big one');
        }),
    },
  ];
}
