import { describe, expect, it } from 'vitest';
import { createAgent, foldEntries, LeaseLostError, memorySessionStore, type SessionEntry, type SessionStore } from 'agent-harness';
import { scriptedModel } from 'agent-harness/testing';
import { closingStore } from '../../src/bullmq/closing-store.js';
import { entryBatchesOf } from '../../src/session/entry-batches.js';
import { entryMaker } from '../../src/testing/store-conformance/conformance-entries.js';

const entry = (seq: number): SessionEntry =>
  ({ $schemaVersion: 2, id: `e${seq}`, parentId: seq === 1 ? null : `e${seq - 1}`, seq, timestamp: '2026-12-04T00:00:00.000Z', sessionId: 's', kind: 'reminder', text: `r${seq}` }) as SessionEntry;

describe('closingStore', () => {
  it('lets the appends under way land, refuses the later ones, and resolves shut once those under way settled', async () => {
    const inner = memorySessionStore();
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const slow: SessionStore = { ...inner, append: async (...args) => (await gate, inner.append(...args)), load: (id, options) => inner.load(id, options), list: () => inner.list(), delete: (id) => inner.delete(id) };
    const journal = closingStore(slow);
    const underWay = journal.store.append('s', [entry(1)], { expectedRevision: 0 });
    let shut = false;
    const shutting = journal.shut(() => new LeaseLostError({ sessionId: 's', fencingToken: 1, currentLease: undefined, now: 0 })).then(() => (shut = true));
    await expect(journal.store.append('s', [entry(2)], { expectedRevision: 1 })).rejects.toThrow(LeaseLostError);
    await Promise.resolve();
    expect(shut).toBe(false);
    open();
    await underWay;
    await shutting;
    const stored: SessionEntry[] = [];
    for await (const stored1 of inner.load('s')) stored.push(stored1);
    expect(stored.map((stored1) => stored1.seq)).toEqual([1]);
  });

  it('calls a class store\'s methods on the store itself (its private fields stay reachable)', async () => {
    class PrivateStore {
      readonly #inner = memorySessionStore();
      append(...args: Parameters<SessionStore['append']>) {
        return this.#inner.append(...args);
      }
      load(...args: Parameters<SessionStore['load']>) {
        return this.#inner.load(...args);
      }
      list() {
        return this.#inner.list();
      }
      delete(id: string) {
        return this.#inner.delete(id);
      }
      get leases() {
        return this.#inner.leases;
      }
    }
    const journal = closingStore(new PrivateStore());
    await journal.store.append('s', [entry(1)], { expectedRevision: 0 });
    expect(await journal.store.list()).toEqual(['s']);
    expect(journal.store.leases).toBeDefined();
  });
});

describe('closingStore.loadForJob: one read of the session per job', () => {
  /** A store that counts its loads, and hands over `loaded` one entry at a time (a host's store) with warnings where given. */
  function hostStore(loaded: Array<SessionEntry | { warn: string }>) {
    const loads: Array<{ sessionId: string; fromCheckpoint: boolean }> = [];
    let failAfter: number | undefined;
    const store: SessionStore = {
      append: async () => undefined,
      async *load(sessionId, options) {
        loads.push({ sessionId, fromCheckpoint: options?.fromCheckpoint !== undefined });
        let yielded = 0;
        for (const item of loaded) {
          if ('warn' in item) options?.onWarning?.({ sessionId, message: item.warn });
          else {
            if (failAfter !== undefined && yielded === failAfter) throw new Error('the store went away');
            yielded++;
            yield item;
          }
        }
      },
      list: async () => [],
      delete: async () => undefined,
    };
    return { store, loads, failAfter: (count: number | undefined) => (failAfter = count) };
  }

  /** What a load through `store` yields and warns, in order. */
  async function read(store: SessionStore, sessionId: string, options: { fromCheckpoint?: object } = {}): Promise<string[]> {
    const seen: string[] = [];
    for await (const loaded of store.load(sessionId, { ...options, onWarning: (warning) => seen.push(`warn: ${warning.message}`) })) seen.push(String(loaded.id));
    return seen;
  }

  it('answers the next load of the session from what the worker read, warnings in their places, without reading the store again', async () => {
    const make = entryMaker('s');
    const entries = [make.userText('one'), make.userText('two'), make.userText('three')];
    const { store, loads } = hostStore([{ warn: 'first' }, entries[0]!, entries[1]!, { warn: 'torn line' }, entries[2]!, { warn: 'stray row' }]);
    const journal = closingStore(store);
    expect((await journal.loadForJob('s')).map((loaded) => loaded.id)).toEqual(entries.map((loaded) => loaded.id));
    expect(loads).toHaveLength(1);
    expect(await read(journal.store, 's')).toEqual(['warn: first', entries[0]!.id, entries[1]!.id, 'warn: torn line', entries[2]!.id, 'warn: stray row']);
    expect(loads).toHaveLength(1);
    // Once: the next load reads the store.
    expect(await read(journal.store, 's')).toHaveLength(6);
    expect(loads).toHaveLength(2);
  });

  it('hands a library store\'s entries over in arrays again, and the agent resumes the session as from the store', async () => {
    const inner = memorySessionStore();
    const make = entryMaker('s');
    const written = [make.userText('hello'), make.next({ kind: 'reminder', text: 'r' })];
    await inner.append('s', written, { expectedRevision: 0 });
    let loads = 0;
    const counting: SessionStore = { ...inner, load: (id, options) => (loads++, inner.load(id, options)), append: (...args) => inner.append(...args), list: () => inner.list(), delete: (id) => inner.delete(id) };
    const journal = closingStore(counting);
    await journal.loadForJob('s');
    expect(entryBatchesOf(journal.store.load('s', {}))).toBeDefined();
    expect(loads).toBe(1);
    await journal.loadForJob('s');
    const agent = createAgent({ model: scriptedModel(['Hi.']), store: journal.store, resume: 's' });
    await agent.ready;
    expect(loads).toBe(2);
    expect(agent.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hello' }] }]);
    await agent.close();
  });

  it('starts at the last checkpoint a store would start at when asked, with no warning about what is before it', async () => {
    const make = entryMaker('s');
    const before = [make.userText('old'), make.userText('older')];
    const checkpoint = make.next({ kind: 'checkpoint', state: foldEntries(before, { sessionId: 's' }), reason: 'compaction' });
    const after = make.userText('new');
    const { store } = hostStore([before[0]!, { warn: 'before' }, before[1]!, checkpoint, { warn: 'after' }, after]);
    const journal = closingStore(store);
    await journal.loadForJob('s');
    expect(await read(journal.store, 's', { fromCheckpoint: {} })).toEqual([checkpoint.id, 'warn: after', after.id]);
  });

  it('passes over a checkpoint that does not follow the entry before it, or copies an earlier one, and reads everything without one', async () => {
    const make = entryMaker('s');
    const first = make.userText('one');
    const state = foldEntries([first], { sessionId: 's' });
    const good = make.next({ kind: 'checkpoint', state, reason: 'compaction' });
    const middle = make.userText('two');
    // A copy of the good checkpoint stored later under a new number.
    const copy = { ...good, seq: middle.seq + 1, parentId: middle.id } as SessionEntry;
    const { store } = hostStore([first, good, middle, copy]);
    const journal = closingStore(store);
    await journal.loadForJob('s');
    expect(await read(journal.store, 's', { fromCheckpoint: {} })).toEqual([good.id, middle.id, copy.id]);

    // Another agent's checkpoint only: the whole transcript.
    const other = entryMaker('t');
    const mine = other.userText('mine');
    const theirs = other.next({ kind: 'checkpoint', state, reason: 'compaction', agentId: 'sub-1' });
    const journal2 = closingStore(hostStore([mine, theirs]).store);
    await journal2.loadForJob('t');
    expect(await read(journal2.store, 't', { fromCheckpoint: {} })).toEqual([mine.id, theirs.id]);
  });

  it('reads the store again after an append or a delete through it, for another session, and after a load that failed', async () => {
    const make = entryMaker('s');
    const entries = [make.userText('one'), make.userText('two')];
    const host = hostStore(entries);
    const journal = closingStore(host.store);
    await journal.loadForJob('s');
    await journal.store.append('s', [make.userText('three')], { expectedRevision: 2 });
    await read(journal.store, 's');
    expect(host.loads).toHaveLength(2);

    await journal.loadForJob('s');
    await journal.store.delete('s');
    await read(journal.store, 's');
    expect(host.loads).toHaveLength(4);

    await journal.loadForJob('s');
    await read(journal.store, 'another');
    expect(host.loads.map((load) => load.sessionId)).toEqual(['s', 's', 's', 's', 's', 'another']);
    await read(journal.store, 's');
    expect(host.loads).toHaveLength(6);

    host.failAfter(1);
    await expect(journal.loadForJob('s')).rejects.toThrow('the store went away');
    host.failAfter(undefined);
    expect(await read(journal.store, 's')).toEqual(entries.map((loaded) => loaded.id));
    expect(host.loads).toHaveLength(8);
  });

  it('a writer outside the lease that moved the session after the read: the agent\'s first append is refused, nothing is lost nor written', async () => {
    const inner = memorySessionStore();
    const seed = createAgent({ model: scriptedModel(['Hello.']), store: inner, sessionId: 's' });
    await seed.run('Hi.').result;
    await seed.close();
    const journal = closingStore(inner);
    const read = await journal.loadForJob('s');
    const outside = { ...entryMaker('s', read.length, 'outside').userText('written meanwhile'), parentId: read.at(-1)!.id } as SessionEntry;
    await inner.append('s', [outside], { expectedRevision: read.length });
    const agent = createAgent({ model: scriptedModel(['Again.']), store: journal.store, resume: 's' });
    await agent.ready;
    const result = await agent.run('More.').result;
    expect(result.status).toBe('error');
    expect(result.error?.name).toBe('SessionConflictError');
    await agent.close();
    const stored: SessionEntry[] = [];
    for await (const entry of inner.load('s')) stored.push(entry);
    expect(stored.map((entry) => entry.id)).toEqual([...read.map((entry) => entry.id), outside.id]);
  });
});

