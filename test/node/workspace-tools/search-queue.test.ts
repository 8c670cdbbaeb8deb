import { describe, expect, it } from 'vitest';
import { SearchQueue } from '../../../src/node/workspace-tools/search-queue.js';

/** Lets every pending promise callback run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('SearchQueue', () => {
  it('gives results in the order the searches started, and holds a search that waits for its turn until it is the oldest', async () => {
    const queue = new SearchQueue<string>();
    const log: string[] = [];
    let finishSmall!: (value: string) => void;
    queue.add(() => new Promise((resolve) => (finishSmall = resolve)));
    queue.add(async (waitForTurn) => {
      log.push('large asked');
      if (!(await waitForTurn())) return 'skipped';
      log.push('large goes on');
      return 'large';
    });
    queue.add(async () => 'quick');
    await settle();
    // The quick one is done, the large one waits: the oldest (the small one) is not taken yet.
    expect(log).toEqual(['large asked']);
    const first = queue.next();
    await settle();
    expect(log).toEqual(['large asked']);
    finishSmall('small');
    expect(await first).toBe('small');
    expect(queue.size).toBe(2);
    const second = queue.next();
    expect(await second).toBe('large');
    expect(log).toEqual(['large asked', 'large goes on']);
    expect(await queue.next()).toBe('quick');
    await queue.close();
  });

  it('the first search never waits: its turn has come', async () => {
    const queue = new SearchQueue<boolean>();
    queue.add((waitForTurn) => waitForTurn());
    await settle();
    expect(await queue.next()).toBe(true);
  });

  it('close() tells the searches still waiting not to go on, and resolves once every search has settled', async () => {
    const queue = new SearchQueue<string>();
    let finishFirst!: () => void;
    queue.add(() => new Promise((resolve) => (finishFirst = () => resolve('first'))));
    const answers: boolean[] = [];
    for (let index = 0; index < 3; index++) {
      queue.add(async (waitForTurn) => {
        const go = await waitForTurn();
        answers.push(go);
        return go ? 'read' : 'not read';
      });
    }
    let closed = false;
    const closing = queue.close().then(() => (closed = true));
    await settle();
    expect(answers).toEqual([false, false, false]);
    // The first is still under way: close() waits for it.
    expect(closed).toBe(false);
    finishFirst();
    await closing;
    expect(closed).toBe(true);
    // Asked after close(): not wanted either.
    const late = new SearchQueue<boolean>();
    await late.close();
    late.add((waitForTurn) => waitForTurn());
    expect(await late.next()).toBe(false);
  });

  it('a search that fails while an earlier one is awaited is no unhandled rejection: next() throws it in its turn', async () => {
    const stray: unknown[] = [];
    const onStray = (reason: unknown) => stray.push(reason);
    process.on('unhandledRejection', onStray);
    try {
      const queue = new SearchQueue<string>();
      let finishFirst!: () => void;
      queue.add(() => new Promise((resolve) => (finishFirst = () => resolve('first'))));
      queue.add(() => Promise.reject(new Error('EIO on the second file')));
      await settle();
      await settle();
      expect(stray).toEqual([]);
      finishFirst();
      expect(await queue.next()).toBe('first');
      await expect(queue.next()).rejects.toThrow('EIO on the second file');
      await queue.close();
    } finally {
      process.off('unhandledRejection', onStray);
    }
  });

  it('next() with no search under way is a programming error, said as such', () => {
    expect(() => new SearchQueue<string>().next()).toThrow(/no search is under way/);
  });
});
