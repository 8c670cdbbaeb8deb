import type { SessionEntry } from '../../../state/entries.js';
import { loadEntries } from '../../../session/load-entries.js';
import { check, checkRejects, checkSameJson, checkSameJsonText, show } from '../check.js';
import type { ConformanceCase } from '../conformance-case.js';
import { entryMaker } from '../conformance-entries.js';
import type { ConformanceSetup } from '../session-store-conformance.js';
import { appendNext, hasCode, idsOf, loadClean, sorted } from '../store-calls.js';

/** Strings that break naive storage: NUL, line separators, a lone surrogate (a cut-off emoji), quotes. */
const AWKWARD_TEXT = 'nul:\u0000 ls:\u2028 ps:\u2029 cr:\r lf:\n tab:\t quote:" backslash:\\ emoji:🧪 lone:\ud83e cjk:漢字 rtl:שלום';

/** A value that refers to itself: no JSON writes it. */
function cycle(): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  value.self = value;
  return value;
}

/** Fields that keep an entry from writing as a JSON object, by what they hold. */
const UNWRITABLE: ReadonlyArray<[string, Record<string, unknown>]> = [
  ['a BigInt', { toolUseResult: 10n }],
  ['a cycle', { toolUseResult: cycle() }],
  ['a toJSON that returns undefined', { toJSON: () => undefined }],
  ['a toJSON that returns a string', { toJSON: () => 'an entry' }],
  ['a toJSON that returns an array', { toJSON: () => [1, 2] }],
];

/** Append, load, list and delete. */
export function basicCases({ options, withStore }: ConformanceSetup): ConformanceCase[] {
  return [
    {
      name: 'an unknown session loads empty, is not listed, and deletes as a no-op',
      run: () =>
        withStore(async ({ store }) => {
          checkSameJson(await loadClean(store, 'never-written'), [], 'load() of an unknown session');
          checkSameJson(await store.list(), [], 'list() of an empty store');
          await store.delete('never-written');
          checkSameJson(await store.list(), [], 'list() after deleting an unknown session');
        }),
    },
    {
      name: 'entries load back exactly, in order, across appends and sessions',
      run: () =>
        withStore(async ({ store }) => {
          const a = entryMaker('session-a');
          const b = entryMaker('session-b');
          const first = [a.userText('Draft the outline.'), a.assistantCalls('toolu_a1', 'toolu_a2')];
          const second = [
            a.toolResult('toolu_a1', 'written'),
            a.approvalPending('approval_a2', 'toolu_a2'),
            a.toolState('read-files', { 'notes/a.md': 3 }),
            // An entry with an optional field, written with it and without it.
            a.next({ kind: 'compaction-pause', resumesAt: 4_200 }),
            a.next({ kind: 'compaction-pause' }),
          ];
          const other = [b.userText('Another session.')];
          await appendNext(store, 'session-a', first);
          await appendNext(store, 'session-b', other);
          await appendNext(store, 'session-a', second);
          checkSameJson(await loadClean(store, 'session-a'), [...first, ...second], 'load("session-a")');
          checkSameJson(await loadClean(store, 'session-b'), other, 'load("session-b")');
          checkSameJson(sorted(await store.list()), ['session-a', 'session-b'], 'list()');
        }),
    },
    {
      name: 'values round-trip exactly: NUL, line separators, lone surrogates, emoji, numbers, nesting',
      run: () =>
        withStore(async ({ store }) => {
          const make = entryMaker('awkward');
          const entries = [
            make.userText(AWKWARD_TEXT),
            make.toolState('values', { big: 9007199254740991, negative: -12.5, tiny: 1e-7, zero: 0, yes: true, no: false, none: null, empty: {}, list: [[], [1, [2, [3]]], ''] }),
            make.toolResult('toolu_awkward', AWKWARD_TEXT.repeat(20)),
          ];
          await appendNext(store, 'awkward', entries);
          checkSameJson(await loadClean(store, 'awkward'), entries, 'load() of entries with awkward values');
        }),
    },
    {
      name: "messages and tool results load back with their object keys in the order they were written (a tool call's input is part of the prompt: reordered, a resumed session no longer reads its history from the prompt cache)",
      ...(options.keyOrder ? {} : { skip: 'the store was declared to reorder object keys (keyOrder: false)' }),
      run: () =>
        withStore(async ({ store }) => {
          const make = entryMaker('key-order');
          // Keys in neither alphabetical nor length order, at every depth, as a model writes a
          // tool call's input; none looks like an array index (JavaScript orders those itself).
          const input = { file_path: 'notes/tide-pools.md', content: 'Anemones.', mode: 'overwrite', options: { zeta: true, alpha: 1, createDirectories: false, b: null } };
          const entries = [
            make.next({ kind: 'message', message: { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_order', name: 'Write', input }] } }),
            make.next({ kind: 'tool-result', toolUseId: 'toolu_order', toolName: 'Write', result: { type: 'tool_result', tool_use_id: 'toolu_order', content: [{ type: 'text', text: 'written' }], is_error: false } }),
          ];
          await appendNext(store, 'key-order', entries);
          const loaded = await loadClean(store, 'key-order');
          // What goes into a prompt: the message and the result (an entry's own fields may be kept in any order).
          const prompt = (list: readonly SessionEntry[]) => JSON.stringify(list.map((entry) => ('message' in entry ? entry.message : 'result' in entry ? entry.result : undefined)));
          checkSameJsonText(
            prompt(loaded),
            prompt(entries),
            'Entries should load with the keys of their message and result in the order they were written',
            "A resumed session's requests then differ from the ones sent before (a tool call's input is rendered in the order of its keys), and the API's prompt cache reads nothing after the first reordered call. Keep each entry's JSON text (a json or text column, not jsonb), or declare keyOrder: false.",
          );
        }),
    },
    {
      name: 'delete removes one session; the others stay, and the deleted id starts again at revision 0',
      run: () =>
        withStore(async ({ store }) => {
          const keep = entryMaker('keep');
          const gone = entryMaker('gone');
          const kept = [keep.userText('stays')];
          await appendNext(store, 'keep', kept);
          await appendNext(store, 'gone', [gone.userText('one'), gone.userText('two')]);
          await store.delete('gone');
          checkSameJson(await loadClean(store, 'gone'), [], 'load() of a deleted session');
          checkSameJson(await store.list(), ['keep'], 'list() after delete');
          checkSameJson(await loadClean(store, 'keep'), kept, 'load() of the session that was not deleted');
          const again = entryMaker('gone');
          const fresh = [again.userText('new life')];
          await appendNext(store, 'gone', fresh);
          checkSameJson(await loadClean(store, 'gone'), fresh, 'load() of a session written again after delete');
          await store.delete('gone');
          await store.delete('gone');
        }),
    },
    {
      name: 'the store keeps its own copies: changing an appended or a loaded entry changes nothing stored',
      run: () =>
        withStore(async ({ store }) => {
          const make = entryMaker('copies');
          const entry = make.userText('original');
          const expected = structuredClone(entry);
          const batch = [entry];
          await appendNext(store, 'copies', batch);
          (entry as { id: string }).id = 'changed-by-the-writer';
          batch.push(make.userText('pushed after the append'));
          const [loaded] = await loadClean(store, 'copies');
          checkSameJson(loaded, expected, 'the entry after the writer changed its object');
          (loaded as { id: string }).id = 'changed-by-a-reader';
          checkSameJson(await loadClean(store, 'copies'), [expected], 'the entry after a reader changed its copy');
        }),
    },
    {
      name: 'a load shows the session as it was when loading began',
      run: () =>
        withStore(async ({ store }) => {
          const make = entryMaker('moving');
          await appendNext(store, 'moving', [make.userText('one'), make.userText('two')]);
          const seen: SessionEntry[] = [];
          for await (const entry of store.load('moving')) {
            seen.push(entry);
            if (seen.length === 1) await appendNext(store, 'moving', [make.userText('three')]);
          }
          checkSameJson(idsOf(seen), ['moving-entry-1', 'moving-entry-2'], 'entries of a load during which another entry was appended');
          check((await loadClean(store, 'moving')).length === 3, 'The entry appended during the load is missing from the next load.');
        }),
    },
    {
      name: 'an empty append stores nothing and checks nothing',
      run: () =>
        withStore(async ({ store }) => {
          await store.append('empty', [], { expectedRevision: 7 });
          checkSameJson(await store.list(), [], 'list() after an empty append');
          checkSameJson(await loadClean(store, 'empty'), [], 'load() after an empty append');
        }),
    },
    {
      name: 'bad arguments are refused with a ConfigurationError, and nothing is stored',
      run: () =>
        withStore(async ({ store }) => {
          const make = entryMaker('args');
          const entry = make.userText('hello');
          const isConfiguration = hasCode('configuration');
          const refuse = (promise: Promise<unknown>, what: string) => checkRejects(promise, isConfiguration, `${what} should be refused with a ConfigurationError`);
          await refuse(store.append('args', [entry], undefined as never), 'append() without options');
          await refuse(store.append('args', [entry], { expectedRevision: -1 }), 'append() with expectedRevision -1');
          await refuse(store.append('args', [entry], { expectedRevision: 0.5 }), 'append() with expectedRevision 0.5');
          await refuse(store.append('args', [entry], { expectedRevision: 0, fencingToken: 0 }), 'append() with fencingToken 0');
          await refuse(store.append('', [entry], { expectedRevision: 0 }), 'append() to session id ""');
          // UTF-8 has no lone surrogate: two such ids would become one (U+FFFD) in a database.
          await refuse(store.append('\ud800', [entryMaker('\ud800').userText('x')], { expectedRevision: 0 }), 'append() to a session id with a lone surrogate');
          // Entries numbered otherwise than from expectedRevision + 1.
          const skipped = entryMaker('args', 1).userText('numbered 2 at position 1');
          await refuse(store.append('args', [skipped], { expectedRevision: 0 }), 'append() of an entry whose seq skips a number');
          const second = make.userText('numbered 2');
          await refuse(store.append('args', [entry, entry, second], { expectedRevision: 0 }), 'append() of a batch whose seqs repeat');
          checkSameJson(await loadClean(store, 'args'), [], 'load() after refused appends');
          checkSameJson(await store.list(), [], 'list() after refused appends');
          await checkRejects(loadClean(store, ''), isConfiguration, 'load() of session id "" should be refused with a ConfigurationError');
        }),
    },
    {
      name: 'an entry that does not write as a JSON object (a BigInt, a cycle, a toJSON that returns no object) is refused with a ConfigurationError, and nothing of its append is stored',
      run: () =>
        withStore(async ({ store }) => {
          const make = entryMaker('unwritable');
          const kept = [make.userText('kept')];
          await appendNext(store, 'unwritable', kept);
          const isConfiguration = hasCode('configuration');
          for (const [what, change] of UNWRITABLE) {
            // The entry that cannot be written comes first, then after a good one: a store that
            // writes entry by entry would have stored the good one.
            for (const place of [0, 1]) {
              const later = entryMaker('unwritable', 1);
              const unwritable = () => ({ ...later.userText(what), ...change }) as unknown as SessionEntry;
              const entries = place === 0 ? [unwritable(), later.userText('fine')] : [later.userText('fine'), unwritable()];
              await checkRejects(appendNext(store, 'unwritable', entries), isConfiguration, `An append whose entry ${place + 1} holds ${what} should be refused with a ConfigurationError`);
              checkSameJson(idsOf(await loadClean(store, 'unwritable')), idsOf(kept), `the session after the refused append of an entry holding ${what} (entry ${place + 1} of 2)`);
            }
          }
          // Nothing was stored: the session goes on at revision 1.
          const next = [entryMaker('unwritable', 1).userText('next')];
          await appendNext(store, 'unwritable', next);
          checkSameJson(await loadClean(store, 'unwritable'), [...kept, ...next], 'the session after the refused appends and one at revision 1');
          await store.close?.('unwritable');
        }),
    },
    {
      name: 'the revision is the last entry seq: loadEntries continues where the store is',
      run: () =>
        withStore(async ({ store }) => {
          const make = entryMaker('revision');
          await appendNext(store, 'revision', [make.userText('a'), make.userText('b'), make.userText('c')]);
          const entries = await loadEntries(store, 'revision');
          check(entries.at(-1)?.seq === 3, `The last loaded entry should have seq 3, got ${show(entries.at(-1)?.seq)}.`);
          await appendNext(store, 'revision', [make.userText('d')]);
          checkSameJson(
            (await loadEntries(store, 'revision')).map((entry) => entry.seq),
            [1, 2, 3, 4],
            'seqs after appending at the loaded revision',
          );
        }),
    },
  ];
}
