import { describe, expect, it } from 'vitest';
import { createAgent } from 'agent-harness';
import { scriptedModel } from 'agent-harness/testing';

/** Resolves once every pending microtask and the next macrotask have run (no wall clock). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('attack: listeners a host UI registers', () => {
  it('an async listener that rejects is reported as a non-fatal error event, not an unhandled rejection', async () => {
    const agent = createAgent({ model: scriptedModel([]) });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const errors: Array<{ error: Error; fatal: boolean }> = [];
      const seen: string[] = [];
      agent.on('todo-update', async () => {
        await Promise.resolve();
        throw new Error('async listener bug');
      });
      agent.on('todo-update', () => seen.push('second'));
      agent.on('error', (e) => errors.push(e));
      agent.setTodos([{ content: 'a', status: 'pending', activeForm: 'A' }]);
      await settle();
      await settle();
      expect(unhandled).toEqual([]);
      expect(seen).toEqual(['second']);
      expect(errors.map((e) => [e.error.message, e.fatal])).toEqual([['async listener bug', false]]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('an async error listener that rejects does not become an unhandled rejection either', async () => {
    const agent = createAgent({ model: scriptedModel([]) });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      agent.on('todo-update', () => { throw new Error('sync bug'); });
      agent.on('error', async () => { throw new Error('error listener bug'); });
      agent.setTodos([{ content: 'a', status: 'pending', activeForm: 'A' }]);
      await settle();
      await settle();
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
