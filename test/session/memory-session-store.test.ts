import { describe, expect, it } from 'vitest';
import { ConfigurationError, UnsupportedSchemaVersionError } from '../../src/errors/index.js';
import { memorySessionStore } from '../../src/session/memory-session-store.js';
import type { SessionEntry } from '../../src/state/entries.js';
import { appendEntries, loadAll, makeEntries, textOf } from './session-entries.js';

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

