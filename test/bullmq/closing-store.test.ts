import { describe, expect, it } from 'vitest';
import { LeaseLostError, memorySessionStore, type SessionEntry, type SessionStore } from 'agent-harness';
import { closingStore } from '../../src/bullmq/closing-store.js';

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
