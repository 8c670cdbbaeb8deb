import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { createAgent } from 'agent-harness';
import { scriptedModel } from 'agent-harness/testing';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionConflictError, ConfigurationError, SessionLockedError, SessionStoreCorruptError, UnsupportedSchemaVersionError } from '../../src/errors/index.js';
import { fileSessionStore } from '../../src/node/file-session-store.js';
import type { SessionStore, SessionStoreWarning } from '../../src/session/session-store.js';
import type { SessionEntry } from '../../src/state/entries.js';
import { entryMaker } from '../../src/testing/store-conformance/conformance-entries.js';
import { appendAsLoaded, appendEntries, loadAll, makeEntries, textOf } from '../session/session-entries.js';
import { expectUnwritableEntriesRefused } from '../session/unwritable-entry-scenarios.js';

let dir: string;
const stores: SessionStore[] = [];

/** A store whose sessions are closed after the test. */
function storeFor(options: Parameters<typeof fileSessionStore>[0]): SessionStore {
  const store = fileSessionStore(options);
  stores.push(store);
  return store;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'file-session-store-'));
});

afterEach(async () => {
  for (const store of stores.splice(0)) {
    for (const sessionId of await store.list().catch(() => [])) await store.close?.(sessionId).catch(() => undefined);
  }
  rmSync(dir, { recursive: true, force: true });
});

const fileOf = (sessionId: string) => join(dir, `${sessionId}.jsonl`);

describe('fileSessionStore', () => {
  it('round-trips entries, one line each, and lists sessions', async () => {
    const store = storeFor({ dir });
    const next = makeEntries('s1');
    const written = [next('one'), next('two'), next('three ✓ with "quotes"\nand a newline')];
    await appendEntries(store, 's1', written.slice(0, 2));
    await appendEntries(store, 's1', written.slice(2));
    await appendEntries(store, 's2', [makeEntries('s2')('other')]);
    expect(await loadAll(store.load('s1'))).toEqual(written);
    const lines = readFileSync(fileOf('s1'), 'utf8').split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe('');
    expect(await store.list()).toEqual(['s1', 's2']);
  });

  it('refuses an entry that writes as no JSON object (a toJSON returning something else, a BigInt, a cycle) with a ConfigurationError, writing nothing', async () => {
    await expectUnwritableEntriesRefused(storeFor({ dir }), 'fileSessionStore');
    expect(readFileSync(fileOf('unwritable'), 'utf8').split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { id: string }).id)).toEqual(['unwritable-entry-1', 'unwritable-entry-2']);
  });

  it('closes the transcript and lets go of the lock of a store dropped without close() once it is collected', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      const make = entryMaker('s1');
      const first = make.userText('from the dropped store');
      // Not in `stores`: once let go here, nothing reaches it.
      let dropped: SessionStore | undefined = fileSessionStore({ dir });
      await dropped.append('s1', [first], { expectedRevision: 0 });
      expect(existsSync(`${fileOf('s1')}.lock`)).toBe(true);
      const other = storeFor({ dir });
      const next = make.userText('from another store');
      const attempt = () =>
        other.append('s1', [next], { expectedRevision: 1 }).then(
          () => true,
          (error: unknown) => {
            if (!SessionLockedError.isInstance(error)) throw error;
            return false;
          },
        );
      // Refused while the store lives.
      expect(await attempt()).toBe(false);
      dropped = undefined;
      let appended = false;
      for (let round = 0; round < 20 && !appended; round++) {
        await new Promise((resolve) => setImmediate(resolve));
        gc();
        appended = await attempt();
      }
      // Taken once it was collected.
      expect(appended).toBe(true);
      expect((await loadAll(other.load('s1'))).map(textOf)).toEqual(['from the dropped store', 'from another store']);
      await other.close?.('s1');
      expect(existsSync(`${fileOf('s1')}.lock`)).toBe(false);
      // Closed by the store, not by the garbage collector.
      expect(warnings.filter((message) => /file descriptor|FileHandle/.test(message))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('lets go of the transcripts and locks of agents dropped without close() once they are collected, the store itself kept', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const store = storeFor({ dir });
    const locks = () => readdirSync(dir).filter((name) => name.endsWith('.lock')).length;
    const sessionIds: string[] = [];
    await (async () => {
      for (let index = 0; index < 5; index++) {
        const agent = createAgent({ model: scriptedModel(['Hi.']), store });
        await agent.run('Hello').result;
        sessionIds.push(agent.sessionId);
      }
    })();
    expect(locks()).toBe(5);
    for (let round = 0; round < 20 && locks() > 0; round++) {
      gc();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(locks()).toBe(0);
    // Another store of the process takes each session at once.
    const other = storeFor({ dir });
    for (const sessionId of sessionIds) {
      const resumed = createAgent({ model: scriptedModel(['Again.']), store: other, resume: sessionId });
      expect((await resumed.run('Once more').result).status).toBe('completed');
      await resumed.close();
    }
  });

  it('goes on appending through methods taken from a store that was then collected: the lock let go is taken again', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    // The store object itself is dropped at once; its methods are kept.
    const { append, close } = fileSessionStore({ dir }) as Required<SessionStore>;
    const make = entryMaker('s1');
    const texts = ['one', 'two', 'three', 'four'];
    await append('s1', [make.userText(texts[0]!)], { expectedRevision: 0 });
    const lockFile = `${fileOf('s1')}.lock`;
    for (let round = 0; round < 20 && existsSync(lockFile); round++) {
      gc();
      await new Promise((resolve) => setImmediate(resolve));
    }
    // Collected: its writer closed, its lock let go.
    expect(existsSync(lockFile)).toBe(false);
    for (const [index, text] of texts.entries()) if (index > 0) await append('s1', [make.userText(text)], { expectedRevision: index });
    expect(existsSync(lockFile)).toBe(true);
    await close('s1');
    expect(existsSync(`${fileOf('s1')}.lock`)).toBe(false);
    expect((await loadAll(storeFor({ dir }).load('s1'))).map(textOf)).toEqual(texts);
  });

  it('creates the directory on the first append, and reads a missing one as empty', async () => {
    const nested = join(dir, 'a', 'b');
    const store = storeFor({ dir: nested });
    expect(existsSync(nested)).toBe(false);
    expect(await store.list()).toEqual([]);
    expect(await loadAll(store.load('nothing'))).toEqual([]);
    await store.delete('nothing');
    expect(existsSync(nested)).toBe(false);
    await appendEntries(store, 's', [makeEntries('s')('x')]);
    expect(existsSync(join(nested, 's.jsonl'))).toBe(true);
  });

  it.each([true, false])('lock %s: makes a missing folder on the first append, and again when it was removed between two sessions', async (lock) => {
    const nested = join(dir, 'x', 'y');
    const store = storeFor({ dir: nested, lock });
    await appendEntries(store, 'first', [makeEntries('first')('one')]);
    expect((await loadAll(store.load('first'))).map(textOf)).toEqual(['one']);
    await store.close?.('first');
    rmSync(join(dir, 'x'), { recursive: true, force: true });
    await appendEntries(store, 'second', [makeEntries('second')('two')]);
    expect(existsSync(join(nested, 'second.jsonl'))).toBe(true);
    expect((await loadAll(store.load('second'))).map(textOf)).toEqual(['two']);
    expect(existsSync(join(nested, 'second.jsonl.lock'))).toBe(lock);
  });

  it('takes a lease, and appends fenced by it, in a folder that does not exist yet', async () => {
    const nested = join(dir, 'leased', 'here');
    const store = storeFor({ dir: nested });
    const lease = await store.leases!.acquire('s', { holder: 'worker-1', ttlMs: 60_000 });
    expect(lease).toBeDefined();
    const next = makeEntries('s');
    await store.append('s', [next('one')], { expectedRevision: 0, fencingToken: lease!.fencingToken });
    expect((await loadAll(store.load('s'))).map(textOf)).toEqual(['one']);
  });

  it('keeps the order of concurrent appends, without interleaving', async () => {
    const store = storeFor({ dir });
    const next = makeEntries('s');
    const batches = Array.from({ length: 200 }, (_, index) => Array.from({ length: (index % 3) + 1 }, (__, part) => next(`${index}.${part} ${'y'.repeat(index * 37)}`)));
    const other = makeEntries('t');
    await Promise.all([...batches.map((batch) => appendEntries(store, 's', batch)), ...batches.map((_, index) => appendEntries(store, 't', [other(String(index))]))]);
    expect(await loadAll(store.load('s'))).toEqual(batches.flat());
    expect((await loadAll(store.load('t'))).map(textOf)).toEqual(batches.map((_, index) => String(index)));
  });

  it('lets a load see appends still queued', async () => {
    const store = storeFor({ dir });
    const next = makeEntries('s');
    void appendEntries(store, 's', [next('queued 1')]);
    void appendEntries(store, 's', [next('queued 2')]);
    expect((await loadAll(store.load('s'))).map(textOf)).toEqual(['queued 1', 'queued 2']);
  });

  it('writes what an entry was when append was called', async () => {
    const store = storeFor({ dir });
    const entry = makeEntries('s')('before');
    const pending = appendEntries(store, 's', [entry]);
    (entry.message.content as Array<{ text: string }>)[0]!.text = 'after';
    await pending;
    expect(textOf((await loadAll(store.load('s')))[0]!)).toBe('before');
  });

  it('skips a torn last line with a warning, then appends on a fresh line', async () => {
    const first = storeFor({ dir });
    const next = makeEntries('s');
    await appendEntries(first, 's', [next('one'), next('two')]);
    await first.close?.('s');
    const torn = JSON.stringify(next('torn')).slice(0, 40);
    appendFileSync(fileOf('s'), torn);

    const warnings: SessionStoreWarning[] = [];
    const loaded = await loadAll(first.load('s', { onWarning: (warning) => warnings.push(warning) }));
    expect(loaded.map(textOf)).toEqual(['one', 'two']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ sessionId: 's', line: 3 });
    expect(warnings[0]!.message).toMatch(/last line \(3\).*cut short/);

    const second = storeFor({ dir });
    await appendAsLoaded(second, 's', 'after the crash');
    expect(readFileSync(fileOf('s'), 'utf8').split('\n')).toEqual([expect.any(String), expect.any(String), torn, expect.stringContaining('after the crash'), '']);
    const again: SessionStoreWarning[] = [];
    expect((await loadAll(second.load('s', { onWarning: (warning) => again.push(warning) }))).map(textOf)).toEqual(['one', 'two', 'after the crash']);
    expect(again).toEqual([expect.objectContaining({ line: 3, message: expect.stringMatching(/line 3 .*not valid JSON/) })]);
  });

  it('keeps a complete last line that only lacks its newline, in every later load too', async () => {
    const next = makeEntries('s');
    mkdirSync(dir, { recursive: true });
    writeFileSync(fileOf('s'), `${JSON.stringify(next('one'))}\n${JSON.stringify(next('complete'))}`);
    const store = storeFor({ dir });
    const warnings: SessionStoreWarning[] = [];
    expect((await loadAll(store.load('s', { onWarning: (warning) => warnings.push(warning) }))).map(textOf)).toEqual(['one', 'complete']);
    await appendEntries(store, 's', [next('three')]);
    expect((await loadAll(store.load('s', { onWarning: (warning) => warnings.push(warning) }))).map(textOf)).toEqual(['one', 'complete', 'three']);
    expect(warnings).toEqual([]);
  });

  it('skips damaged lines in the middle with a warning naming the line; uses the store-wide onWarning by default', async () => {
    const warnings: SessionStoreWarning[] = [];
    const store = storeFor({ dir, onWarning: (warning) => warnings.push(warning) });
    const next = makeEntries('s');
    await appendEntries(store, 's', [next('one')]);
    appendFileSync(fileOf('s'), '{"$schemaVersion":1,"id":\n\n[1,2]\n');
    await appendEntries(store, 's', [next('two')]);
    expect((await loadAll(store.load('s'))).map(textOf)).toEqual(['one', 'two']);
    expect(warnings.map((warning) => warning.line)).toEqual([2, 4]);
    expect(warnings[0]!.message).toMatch(/line 2 .*not valid JSON/);
    expect(warnings[1]!.message).toMatch(/line 4 .*not a transcript entry/);
  });

  it('ignores a byte order mark at the start of the file', async () => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(fileOf('s'), `\uFEFF${JSON.stringify(makeEntries('s')('one'))}\n`);
    const warnings: SessionStoreWarning[] = [];
    expect((await loadAll(storeFor({ dir }).load('s', { onWarning: (warning) => warnings.push(warning) }))).map(textOf)).toEqual(['one']);
    expect(warnings).toEqual([]);
  });

  it('fails on an entry version it cannot read, naming the supported versions and the line', async () => {
    const store = storeFor({ dir });
    const next = makeEntries('s');
    await appendEntries(store, 's', [next('one'), { ...next('future'), $schemaVersion: 99 }]);
    const error = await loadAll(store.load('s')).catch((caught: unknown) => caught);
    expect(UnsupportedSchemaVersionError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ found: 99, supported: [1, 2] });
    expect((error as Error).message).toMatch(/line 2 of .*s\.jsonl with \$schemaVersion 99: this version of agent-harness reads \$schemaVersion 1, 2/);

    appendFileSync(fileOf('missing-version'), '{"kind":"message"}\n');
    // No version at all is damage, not a newer writer: no advice to upgrade.
    const missing = await loadAll(store.load('missing-version')).catch((caught: unknown) => caught);
    expect(SessionStoreCorruptError.isInstance(missing)).toBe(true);
    expect((missing as Error).message).toMatch(/line 1 of .*missing-version\.jsonl has no \$schemaVersion field/);
  });

  it('lists the other sessions\' approvals when one was written by a newer agent-harness', async () => {
    const store = storeFor({ dir });
    for (const sessionId of ['a-newer', 'b-waiting']) {
      const make = entryMaker(sessionId);
      await store.append(sessionId, [make.userText('Go.'), make.assistantCalls('toolu_1'), make.approvalPending(`approval_${sessionId}`, 'toolu_1')], { expectedRevision: 0 });
    }
    const next = entryMaker('a-newer', 3);
    await store.append('a-newer', [{ ...next.userText('from the future'), $schemaVersion: 99 } as unknown as SessionEntry], { expectedRevision: 3 });
    expect((await store.listPending!()).map((session) => session.sessionId)).toEqual(['b-waiting']);
  });

  it('stops reading cleanly when the reader breaks early', async () => {
    const store = storeFor({ dir });
    const next = makeEntries('s');
    await appendEntries(store, 's', Array.from({ length: 50 }, (_, index) => next(String(index))));
    for await (const entry of store.load('s')) {
      expect(textOf(entry)).toBe('0');
      break;
    }
    await appendEntries(store, 's', [next('more')]);
    expect(await loadAll(store.load('s'))).toHaveLength(51);
  });

  it.each([
    ['../escape'],
    ['a/b'],
    ['a\\b'],
    [''],
    ['.hidden'],
    ['a..b'],
    ['with space'],
    ['tab\there'],
    ['x'.repeat(201)],
  ])('refuses the session id %j with a ConfigurationError naming it', async (sessionId) => {
    const store = storeFor({ dir });
    const entries = [makeEntries(sessionId)('x')];
    for (const attempt of [
      () => appendEntries(store, sessionId, entries),
      () => loadAll(store.load(sessionId)),
      () => store.delete(sessionId),
      () => store.close!(sessionId),
    ]) {
      const error = await attempt().catch((caught: unknown) => caught);
      expect(ConfigurationError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain(JSON.stringify(sessionId).slice(0, 10));
    }
    expect(await store.list()).toEqual([]);
  });

  it('accepts the ids the agent generates, and UUIDs', async () => {
    const store = storeFor({ dir });
    for (const sessionId of ['session_V1StGXR8Z5jdHi6B', '-_dash-first', 'f47ac10b-58cc-4372-a567-0e02b2c3d479', 'v1.2']) {
      await appendEntries(store, sessionId, [makeEntries(sessionId)('x')]);
    }
    expect(await store.list()).toEqual(['-_dash-first', 'f47ac10b-58cc-4372-a567-0e02b2c3d479', 'session_V1StGXR8Z5jdHi6B', 'v1.2']);
  });

  it('refuses a missing dir', () => {
    expect(() => fileSessionStore({} as never)).toThrow("fileSessionStore: `dir` is required, as in fileSessionStore({ dir: \"./.sessions\" }).");
  });

  it('lists only transcripts, not locks or other files', async () => {
    const store = storeFor({ dir });
    await appendEntries(store, 's', [makeEntries('s')('x')]);
    writeFileSync(join(dir, 'notes.txt'), 'x');
    writeFileSync(join(dir, '.hidden.jsonl'), 'x');
    expect(existsSync(join(dir, 's.jsonl.lock'))).toBe(true);
    expect(await store.list()).toEqual(['s']);
  });

  it('deletes a session with its lock, and can write it again afterwards', async () => {
    const store = storeFor({ dir });
    const next = makeEntries('s');
    await appendEntries(store, 's', [next('one')]);
    await store.delete('s');
    expect(existsSync(fileOf('s'))).toBe(false);
    expect(existsSync(`${fileOf('s')}.lock`)).toBe(false);
    expect(await loadAll(store.load('s'))).toEqual([]);
    // A deleted session starts again at revision 0: an append after the old revision is stale.
    await expect(appendEntries(store, 's', [next('stale')])).rejects.toSatisfy(SessionConflictError.isInstance);
    await appendEntries(store, 's', [makeEntries('s')('two')]);
    expect((await loadAll(store.load('s'))).map(textOf)).toEqual(['two']);
  });

  it('flushes every append with fsync: true', async () => {
    const probe = await open(join(dir, 'probe'), 'w');
    const prototype = Object.getPrototypeOf(probe) as { sync: () => Promise<void> };
    await probe.close();
    const sync = vi.spyOn(prototype, 'sync');
    try {
      const store = storeFor({ dir, fsync: true });
      const next = makeEntries('s');
      await appendEntries(store, 's', [next('one')]);
      await appendEntries(store, 's', [next('two'), next('three')]);
      // Two appends, plus the directory once for the new file.
      expect(sync.mock.calls.length).toBeGreaterThanOrEqual(2);
      const callsBefore = sync.mock.calls.length;
      const lazy = storeFor({ dir: join(dir, 'lazy') });
      await appendEntries(lazy, 's', [makeEntries('s')('no flush')]);
      expect(sync.mock.calls.length).toBe(callsBefore);
      expect((await loadAll(store.load('s'))).map(textOf)).toEqual(['one', 'two', 'three']);
    } finally {
      sync.mockRestore();
    }
  });

  it('writes nothing and takes no lock for an empty append', async () => {
    const store = storeFor({ dir });
    await appendEntries(store, 's', []);
    expect(existsSync(fileOf('s'))).toBe(false);
    expect(existsSync(`${fileOf('s')}.lock`)).toBe(false);
  });
});
