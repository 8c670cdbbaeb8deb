import { describe, expect, it } from 'vitest';
import { ConfigurationError, UnsupportedSchemaVersionError } from '../../src/errors/index.js';
import { memorySessionStore } from '../../src/session/memory-session-store.js';
import type { SessionEntry } from '../../src/state/entries.js';
import { appendEntries, loadAll, makeEntries, textOf } from './session-entries.js';
import { expectUnwritableEntriesRefused } from './unwritable-entry-scenarios.js';
import { entryMaker } from '../../src/testing/store-conformance/conformance-entries.js';
import { foldEntries } from '../../src/state/fold-entries.js';

describe('memorySessionStore', () => {
  it('round-trips entries in order, per session', async () => {
    const store = memorySessionStore();
    const a = makeEntries('a');
    const b = makeEntries('b');
    await appendEntries(store, 'a', [a('one'), a('two')]);
    await appendEntries(store, 'b', [b('other')]);
    await appendEntries(store, 'a', [a('three')]);
    expect((await loadAll(store.load('a'))).map(textOf)).toEqual(['one', 'two', 'three']);
    expect((await loadAll(store.load('b'))).map(textOf)).toEqual(['other']);
    expect(await store.list()).toEqual(['a', 'b']);
  });

  it('loads nothing for an unknown session and deletes idempotently', async () => {
    const store = memorySessionStore();
    expect(await loadAll(store.load('missing'))).toEqual([]);
    await appendEntries(store, 'a', [makeEntries('a')('x')]);
    await store.delete('a');
    await store.delete('a');
    expect(await loadAll(store.load('a'))).toEqual([]);
    expect(await store.list()).toEqual([]);
  });

  it('keeps its own copies: changing an appended or a loaded entry changes nothing stored', async () => {
    const store = memorySessionStore();
    const entry = makeEntries('a')('original');
    await appendEntries(store, 'a', [entry]);
    (entry.message.content as Array<{ text: string }>)[0]!.text = 'changed by the caller';
    const [loaded] = await loadAll(store.load('a'));
    expect(textOf(loaded!)).toBe('original');
    (loaded as { id: string }).id = 'changed by a reader';
    const [again] = await loadAll(store.load('a'));
    expect(again!.id).toBe('entry-1');
  });

  it('stores nothing when an entry cannot be written as JSON (a function, a BigInt, a cycle)', async () => {
    const store = memorySessionStore();
    const next = makeEntries('a');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const field of [() => 'a function', 10n, cyclic]) {
      const bad = { ...next('bad'), toolUseResult: field } as unknown as SessionEntry;
      await expect(appendEntries(store, 'a', [next('fine'), bad])).rejects.toThrow();
      expect(await loadAll(store.load('a'))).toEqual([]);
    }
  });

  it('refuses an entry that writes as no JSON object (a toJSON returning something else, a BigInt, a cycle) with a ConfigurationError, storing nothing', () =>
    expectUnwritableEntriesRefused(memorySessionStore(), 'memorySessionStore'));

  it('indexes the ids it stored, not what the caller\'s objects say: an entry whose JSON (toJSON) names another id is indexed by the one stored', async () => {
    const store = memorySessionStore();
    const make = entryMaker('s');
    const first = make.userText('one');
    // Its own id says another than its JSON does.
    const shifty = { ...first, id: 'elsewhere', toJSON: () => first };
    await store.append('s', [shifty as SessionEntry], { expectedRevision: 0 });
    const taken = { ...entryMaker('s', 1).userText('other content'), id: first.id } as SessionEntry;
    await expect(store.append('s', [taken], { expectedRevision: 1 })).rejects.toThrow(/already has with other content/);
    // The last id stored is the one written too: the next writer names it as the entry it follows.
    const next = entryMaker('s', 1);
    await store.append('s', [next.userText('two')], { expectedRevision: 1 });
    expect((await loadAll(store.load('s'))).map((entry) => entry.id)).toEqual(['s-entry-1', 's-entry-2']);
  });

  it('keeps no object of the caller\'s in its pending approvals: an approval\'s input or a nested run changed after the append is listed as appended', async () => {
    const store = memorySessionStore();
    const make = entryMaker('s');
    const opened = [make.userText('go'), make.assistantCalls('t1', 't2')];
    const pending = make.approvalPending('a1', 't1');
    await store.append('s', [...opened, pending], { expectedRevision: 0 });
    (pending as { approval: { input: { content: string } } }).approval.input.content = 'changed by the caller';
    const nestedState = foldEntries(
      (() => {
        const inner = entryMaker('nested');
        return [inner.userText('sub task'), inner.assistantCalls('inner-t'), inner.approvalPending('inner-a', 'inner-t')];
      })(),
      { sessionId: 'nested' },
    );
    // Another session whose only wait is the nested run.
    const other = entryMaker('n');
    const called = [other.userText('go'), other.assistantCalls('t2')];
    const suspended = other.next({ kind: 'call-suspended', toolUseId: 't2', nested: { agentId: 'sub-1', state: nestedState } } as never);
    await store.append('n', [...called, suspended], { expectedRevision: 0 });
    (nestedState.openBatch!.calls[0]!.approval as { input: { content: string } }).input.content = 'changed too';
    nestedState.openBatch!.calls.length = 0;
    const listed = await store.listPending!();
    expect(listed.map(({ sessionId, approvals }) => [sessionId, approvals.map((approval) => [approval.id, (approval.input as { content: string }).content])])).toEqual([
      ['n', [['inner-a', 'draft']]],
      ['s', [['a1', 'draft']]],
    ]);
  });
  it('reads back what the other stores would (JSON): an undefined field is left out, a date is its string', async () => {
    const store = memorySessionStore();
    const entry = { ...makeEntries('a')('dated'), toolUseResult: { at: new Date(0), gone: undefined, ratio: Number.NaN } } as unknown as SessionEntry;
    await appendEntries(store, 'a', [entry]);
    const [loaded] = await loadAll(store.load('a'));
    expect((loaded as unknown as { toolUseResult: unknown }).toolUseResult).toStrictEqual({ at: '1970-01-01T00:00:00.000Z', ratio: null });
  });

  it('does not show appends made while a load iterates', async () => {
    const store = memorySessionStore();
    const next = makeEntries('a');
    await appendEntries(store, 'a', [next('one'), next('two')]);
    const seen: string[] = [];
    for await (const entry of store.load('a')) {
      seen.push(textOf(entry));
      if (seen.length === 1) await appendEntries(store, 'a', [next('three')]);
    }
    expect(seen).toEqual(['one', 'two']);
    expect(await loadAll(store.load('a'))).toHaveLength(3);
  });

  it('refuses an entry version it cannot read, naming the supported versions', async () => {
    const store = memorySessionStore();
    await appendEntries(store, 'a', [{ ...makeEntries('a')('future'), $schemaVersion: 7 }]);
    const error = await loadAll(store.load('a')).catch((caught: unknown) => caught);
    expect(UnsupportedSchemaVersionError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/\$schemaVersion 7.*reads \$schemaVersion 1/);
  });

  it('refuses an empty session id', async () => {
    const store = memorySessionStore();
    await expect(appendEntries(store, '', [])).rejects.toSatisfy(ConfigurationError.isInstance);
    await expect(loadAll(store.load(''))).rejects.toSatisfy(ConfigurationError.isInstance);
  });

  it('has a close that keeps the session usable', async () => {
    const store = memorySessionStore();
    const next = makeEntries('a');
    await appendEntries(store, 'a', [next('one')]);
    await store.close?.('a');
    await appendEntries(store, 'a', [next('two')]);
    expect(await loadAll(store.load('a'))).toHaveLength(2);
  });

  it('refuses a misspelt or wrong option when made, instead of ignoring it (a clock that never took effect)', () => {
    expect(() => memorySessionStore({ clock: () => 0 } as never)).toThrow(ConfigurationError);
    expect(() => memorySessionStore({ clock: () => 0 } as never)).toThrow(/`clock` is not an option of memorySessionStore/);
    expect(() => memorySessionStore({ now: 5 } as never)).toThrow(/memorySessionStore: `now` must be a function, got 5/);
    expect(() => memorySessionStore('sessions' as never)).toThrow(/memorySessionStore takes an options object, such as memorySessionStore\(\{ now: \(\) => clock \}\); got the string "sessions"/);
  });
});

