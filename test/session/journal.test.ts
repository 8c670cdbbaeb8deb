import { describe, expect, it } from 'vitest';
import { memorySessionStore, type SessionAppendOptions, type SessionEntry, type SessionStore } from 'agent-harness';
import { Journal, type EntryDraft } from '../../src/session/journal.js';
import { loadEntries } from '../../src/session/load-entries.js';
import { tick } from '../helpers.js';

/** A store whose appends wait until the test answers them, one by one, in order. */
function heldStore() {
  const inner = memorySessionStore();
  const calls: Array<{ entries: readonly SessionEntry[]; options: SessionAppendOptions; answer: (error?: Error) => Promise<void> }> = [];
  const store: SessionStore = {
    ...inner,
    append: (sessionId, entries, options) =>
      new Promise<void>((resolve, reject) => {
        calls.push({
          entries,
          options,
          answer: async (error) => {
            if (error) return reject(error);
            await inner.append(sessionId, entries, options).then(resolve, reject);
          },
        });
      }),
  };
  return { store, inner, calls };
}

const say = (text: string): EntryDraft => ({ kind: 'message', message: { role: 'user', content: [{ type: 'text', text }] } });
const texts = (entries: readonly SessionEntry[]) => entries.map((entry) => (entry.kind === 'message' && Array.isArray(entry.message.content) ? (entry.message.content[0] as { text: string }).text : entry.kind));

describe('Journal: what is recorded before an append starts goes with it', () => {
  it('entries recorded in a row are one append, on the revision before the first', async () => {
    const { store, inner, calls } = heldStore();
    const journal = new Journal(store, 'session-a', undefined);
    journal.record(say('one'));
    journal.record(say('two'), say('three'));
    journal.record(say('four'));
    await tick();
    expect(calls).toHaveLength(1);
    expect(texts(calls[0]!.entries)).toEqual(['one', 'two', 'three', 'four']);
    expect(calls[0]!.options.expectedRevision).toBe(0);
    expect(calls[0]!.entries.map((entry) => entry.seq)).toEqual([1, 2, 3, 4]);
    await calls[0]!.answer();
    await journal.flush();
    expect(texts(await loadEntries(inner, 'session-a'))).toEqual(['one', 'two', 'three', 'four']);
  });

  it('entries recorded while an append is in flight go together in the next one, after it', async () => {
    const { store, inner, calls } = heldStore();
    const journal = new Journal(store, 'session-b', undefined);
    journal.record(say('one'));
    await tick();
    journal.record(say('two'));
    journal.record(say('three'));
    await tick();
    // The second append waits for the first to end.
    expect(calls).toHaveLength(1);
    await calls[0]!.answer();
    await tick();
    expect(calls).toHaveLength(2);
    expect(texts(calls[1]!.entries)).toEqual(['two', 'three']);
    expect(calls[1]!.options.expectedRevision).toBe(1);
    expect(calls[1]!.entries[0]!.parentId).toBe(calls[0]!.entries[0]!.id);
    journal.record(say('four'));
    await calls[1]!.answer();
    await tick();
    expect(calls).toHaveLength(3);
    expect(calls[2]!.options.expectedRevision).toBe(3);
    await calls[2]!.answer();
    await journal.flush();
    const stored = await loadEntries(inner, 'session-b');
    expect(texts(stored)).toEqual(['one', 'two', 'three', 'four']);
    expect(stored.map((entry) => entry.seq)).toEqual([1, 2, 3, 4]);
  });

  it('continues a stored session on its revision and last id', async () => {
    const { store, calls } = heldStore();
    const journal = new Journal(store, 'session-c', undefined, { lastId: 'entry_last', revision: 41 });
    journal.record(say('one'), say('two'));
    await tick();
    expect(calls[0]!.options.expectedRevision).toBe(41);
    expect(calls[0]!.entries.map((entry) => entry.seq)).toEqual([42, 43]);
    expect(calls[0]!.entries[0]!.parentId).toBe('entry_last');
    expect(journal.revision).toBe(43);
  });

  it('runs an after() once what was recorded before it is stored, never sooner, and in order', async () => {
    const { store, calls } = heldStore();
    const journal = new Journal(store, 'session-d', undefined);
    const seen: string[] = [];
    journal.record(say('one'));
    journal.after(() => seen.push('after one'));
    journal.record(say('two'));
    journal.after(() => seen.push('after two'));
    await tick();
    expect(seen).toEqual([]);
    await calls[0]!.answer();
    await journal.flush();
    expect(seen).toEqual(['after one', 'after two']);
    // With nothing waiting to be stored, an after() runs without an append.
    journal.after(() => seen.push('idle'));
    await journal.flush();
    expect(seen.at(-1)).toBe('idle');
    expect(calls).toHaveLength(1);
  });

  it('a failed append drops the after() of every entry it held, keeps the ones that announce nothing stored, and writes nothing more', async () => {
    const { store, calls } = heldStore();
    const journal = new Journal(store, 'session-e', undefined);
    const seen: string[] = [];
    journal.record(say('stored'));
    journal.after(() => seen.push('stored'));
    await tick();
    await calls[0]!.answer();
    await journal.flush();
    journal.record(say('two'));
    journal.after(() => seen.push('two'));
    journal.record(say('three'));
    journal.after(() => seen.push('three'));
    journal.after(() => seen.push('the end'), true);
    await tick();
    await calls[1]!.answer(new Error('disk full'));
    await journal.flush();
    expect(seen).toEqual(['stored', 'the end']);
    expect(journal.failure?.message).toBe('disk full');
    journal.record(say('four'));
    journal.after(() => seen.push('four'));
    await journal.flush();
    expect(calls).toHaveLength(2);
    expect(seen).toEqual(['stored', 'the end']);
  });

  it('a store that refuses a stale revision refuses the whole append', async () => {
    const inner = memorySessionStore();
    const other = new Journal(inner, 'session-f', undefined);
    other.record(say('theirs'));
    await other.flush();
    const stale = new Journal(inner, 'session-f', undefined);
    stale.record(say('mine'), say('mine too'));
    stale.record(say('and this'));
    await stale.flush();
    expect(stale.failure?.name).toBe('SessionConflictError');
    expect(texts(await loadEntries(inner, 'session-f'))).toEqual(['theirs']);
  });

  it('abandon() ends the wait for an append holding several records', async () => {
    const { store, calls } = heldStore();
    const journal = new Journal(store, 'session-g', undefined);
    const seen: string[] = [];
    journal.record(say('one'));
    journal.after(() => seen.push('one'));
    journal.record(say('two'));
    journal.after(() => seen.push('end'), true);
    await tick();
    expect(journal.writingSince).toBeTypeOf('number');
    journal.abandon(new Error('given up'));
    await journal.flush();
    expect(seen).toEqual(['end']);
    expect(journal.writingSince).toBeUndefined();
    expect(calls).toHaveLength(1);
  });
});

describe('Journal: an entry recorded for later', () => {
  it('recordLater() starts no append: the next record() takes it along, on revision 0', async () => {
    const { store, inner, calls } = heldStore();
    const journal = new Journal(store, 'session-h', undefined);
    journal.recordLater(say('head'));
    expect(journal.revision).toBe(1);
    await tick();
    await tick();
    expect(calls).toHaveLength(0);
    journal.record(say('first'));
    await tick();
    expect(calls).toHaveLength(1);
    expect(texts(calls[0]!.entries)).toEqual(['head', 'first']);
    expect(calls[0]!.options.expectedRevision).toBe(0);
    await calls[0]!.answer();
    await journal.flush();
    expect(texts(await loadEntries(inner, 'session-h'))).toEqual(['head', 'first']);
  });

  it.each([
    ['flush()', (journal: Journal) => void journal.flush()],
    ['after()', (journal: Journal) => journal.after(() => undefined)],
  ])('recordLater(): %s writes it without a record', async (_name, trigger) => {
    const { store, inner, calls } = heldStore();
    const journal = new Journal(store, 'session-i', undefined);
    journal.recordLater(say('head'));
    trigger(journal);
    await tick();
    expect(calls).toHaveLength(1);
    expect(texts(calls[0]!.entries)).toEqual(['head']);
    await calls[0]!.answer();
    await journal.flush();
    expect(texts(await loadEntries(inner, 'session-i'))).toEqual(['head']);
  });

  it('an event waits for an entry recorded for later: after() starts its append', async () => {
    const { store, calls } = heldStore();
    const journal = new Journal(store, 'session-j', undefined);
    const seen: string[] = [];
    journal.recordLater(say('head'));
    journal.after(() => seen.push('event'));
    await tick();
    expect(seen).toEqual([]);
    await calls[0]!.answer();
    await journal.flush();
    expect(seen).toEqual(['event']);
  });
});

describe('Journal: the answer that completes a batch, held for the message carrying it', () => {
  const result = (id: string, text: string) => ({ type: 'tool_result' as const, tool_use_id: id, content: text });
  const answered = (block: ReturnType<typeof result>): EntryDraft => ({ kind: 'tool-result', toolUseId: block.tool_use_id, toolName: 'note', result: block });
  const carrying = (...blocks: Array<ReturnType<typeof result>>): EntryDraft => ({ kind: 'message', message: { role: 'user', content: blocks } });

  it('goes in one append with the message, which alone stores the result; the event comes once that append is stored', async () => {
    const { store, inner, calls } = heldStore();
    const journal = new Journal(store, 'hold-a', undefined);
    const block = result('c1', 'done');
    const heard: string[] = [];
    journal.hold([answered(block)], () => heard.push('tool-result'), 'message');
    await tick();
    await tick();
    // Held: nothing is appended, nothing announced.
    expect(calls).toHaveLength(0);
    expect(journal.writingSince).toBeUndefined();
    journal.record(carrying(block));
    journal.after(() => heard.push('turn-start'));
    await tick();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.entries.map((entry) => entry.kind)).toEqual(['message']);
    expect(calls[0]!.entries[0]!.seq).toBe(1);
    expect(calls[0]!.entries[0]!.parentId).toBeNull();
    expect(heard).toEqual([]);
    await calls[0]!.answer();
    await journal.flush();
    expect(heard).toEqual(['tool-result', 'turn-start']);
    expect(journal.revision).toBe(1);
    const stored = await loadEntries(inner, 'hold-a');
    expect(stored.map((entry) => [entry.seq, entry.kind])).toEqual([[1, 'message']]);
  });

  it('keeps every entry held with it and each result the message does not carry, in order before the message', async () => {
    const { store, inner, calls } = heldStore();
    const journal = new Journal(store, 'hold-b', undefined);
    const carried = result('c2', 'two');
    const other = result('c9', 'nine');
    journal.hold([answered(other), answered(carried), { kind: 'tool-state', key: 'k', value: null }], () => undefined, 'message');
    // A block equal to the held one but another object: not the batch's result, so not taken for it.
    journal.record(carrying(carried, result('c9', 'nine')));
    await tick();
    expect(calls[0]!.entries.map((entry) => (entry.kind === 'tool-result' ? `tool-result ${entry.toolUseId}` : entry.kind))).toEqual(['tool-result c9', 'tool-state', 'message']);
    expect(calls[0]!.entries.map((entry) => entry.seq)).toEqual([1, 2, 3]);
    expect(calls[0]!.entries[2]!.parentId).toBe(calls[0]!.entries[1]!.id);
    await calls[0]!.answer();
    await journal.flush();
    expect((await loadEntries(inner, 'hold-b')).map((entry) => entry.seq)).toEqual([1, 2, 3]);
  });

  it.each([
    ['record() of another entry', (journal: Journal): void => journal.record(say('next'))],
    ['after()', (journal: Journal): void => journal.after(() => undefined)],
    ['flush()', (journal: Journal): void => void journal.flush()],
    ['a read of revision', (journal: Journal): void => expect(journal.revision).toBe(1)],
    ['recordLater()', (journal: Journal): void => journal.recordLater(say('later'))],
  ] as const)('is appended as it is, first, by %s, and announced once stored', async (_what, release) => {
    const { store, inner, calls } = heldStore();
    const journal = new Journal(store, 'hold-c', undefined);
    const heard: string[] = [];
    journal.hold([answered(result('c1', 'done'))], () => heard.push('tool-result'), 'message');
    release(journal);
    await tick();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.entries[0]).toMatchObject({ seq: 1, kind: 'tool-result', toolUseId: 'c1' });
    expect(heard).toEqual([]);
    await calls[0]!.answer();
    await journal.flush();
    expect(heard).toEqual(['tool-result']);
    expect((await loadEntries(inner, 'hold-c'))[0]).toMatchObject({ kind: 'tool-result', toolUseId: 'c1' });
  });

  it.each([
    ['held until the append in flight ends', [['write-ends']]],
    ['held for a message, then until the append in flight ends', [['message'], ['write-ends']]],
  ] as const)('%s: appended when that append ends, behind its events, and announced once stored', async (_what, holds) => {
    const { store, inner, calls } = heldStore();
    const journal = new Journal(store, 'hold-e', undefined);
    const heard: string[] = [];
    journal.record(say('first'));
    journal.after(() => heard.push('first'));
    await tick();
    expect(calls).toHaveLength(1);
    holds.forEach(([until], index) => journal.hold([answered(result(`c${index}`, 'done'))], () => heard.push(`c${index}`), until));
    await tick();
    expect(calls).toHaveLength(1);
    await calls[0]!.answer();
    await tick();
    await tick();
    // Nothing else was recorded: the held answers went in an append of their own once the first ended.
    expect(calls).toHaveLength(2);
    expect(calls[1]!.entries.map((entry) => (entry.kind === 'tool-result' ? entry.toolUseId : entry.kind))).toEqual(holds.map((_, index) => `c${index}`));
    expect(heard).toEqual(['first']);
    await calls[1]!.answer();
    await journal.flush();
    expect(heard).toEqual(['first', ...holds.map((_, index) => `c${index}`)]);
    expect((await loadEntries(inner, 'hold-e')).map((entry) => entry.seq)).toEqual([1, ...holds.map((_, index) => index + 2)]);
  });

  it('held until the append in flight ends, then taken by the message recorded before it ends: stored only in the message', async () => {
    const { store, inner, calls } = heldStore();
    const journal = new Journal(store, 'hold-f', undefined);
    journal.record(say('first'));
    await tick();
    const early = result('c1', 'early');
    const last = result('c2', 'last');
    journal.hold([answered(early)], () => undefined, 'write-ends');
    journal.hold([answered(last)], () => undefined, 'message');
    journal.record(carrying(early, last));
    await calls[0]!.answer();
    await tick();
    await tick();
    expect(calls[1]!.entries.map((entry) => entry.kind)).toEqual(['message']);
    await calls[1]!.answer();
    await journal.flush();
    expect((await loadEntries(inner, 'hold-f')).map((entry) => entry.kind)).toEqual(['message', 'message']);
  });

  it.each([
    ['with the message', (journal: Journal, block: ReturnType<typeof result>) => journal.record(carrying(block))],
    ['by flush()', (journal: Journal) => void journal.flush()],
  ] as const)('a failed append %s: the held answer is not announced, and nothing more is written', async (_how, release) => {
    const { store, calls } = heldStore();
    const journal = new Journal(store, 'hold-d', undefined);
    const block = result('c1', 'done');
    const heard: string[] = [];
    journal.hold([answered(block)], () => heard.push('tool-result'), 'message');
    release(journal, block);
    journal.after(() => heard.push('run-end'), true);
    await tick();
    await calls[0]!.answer(new Error('disk full'));
    await journal.flush();
    expect(heard).toEqual(['run-end']);
    expect(journal.failure?.message).toBe('disk full');
  });
});
