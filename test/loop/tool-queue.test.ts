import { describe, expect, it } from 'vitest';
import { ToolQueue } from '../../src/loop/tool-queue.js';
import { deferred, tick } from '../helpers.js';

describe('ToolQueue', () => {
  it('is not idle while its first calls wait for p-queue to load, runs them in order, never more than the bound at once', async () => {
    const queue = new ToolQueue(2);
    expect(queue.idle).toBe(true);
    const started: number[] = [];
    const gates = Array.from({ length: 5 }, () => deferred());
    const twoStarted = deferred();
    let running = 0;
    let most = 0;
    const done = gates.map((gate, index) =>
      queue.add(async () => {
        started.push(index);
        if (started.length === 2) twoStarted.resolve();
        most = Math.max(most, ++running);
        await gate.promise;
        running--;
      }),
    );
    // Added but not yet running (the module is still loading): the queue is busy all the same.
    expect(queue.idle).toBe(false);
    // However long the module takes to load, the bound holds once it has.
    await twoStarted.promise;
    await tick();
    expect(started).toEqual([0, 1]);
    gates[0]!.resolve();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    for (const gate of gates) gate.resolve();
    await Promise.all(done);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
    expect(queue.idle).toBe(true);

    // Once loaded, later calls go straight to the queue.
    const later: string[] = [];
    await Promise.all([queue.add(async () => void later.push('a')), queue.add(async () => void later.push('b'))]);
    expect(later).toEqual(['a', 'b']);
  });

  it('passes a failing task on to its caller', async () => {
    const queue = new ToolQueue(1);
    const failure = new Error('tool broke');
    await expect(
      queue.add(async () => {
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(queue.idle).toBe(true);
  });
});
