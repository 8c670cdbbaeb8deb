import { describe, expect, it } from 'vitest';
import { createAgent } from 'agent-harness';
import { scriptedModel } from 'agent-harness/testing';

describe('listeners', () => {
  it('a throwing listener neither stops the other listeners nor vanishes: it becomes an error event', async () => {
    const agent = createAgent({ model: scriptedModel([]) });
    const seen: string[] = [];
    const errors: unknown[] = [];
    agent.on('todo-update', () => { throw new Error('listener bug'); });
    agent.on('todo-update', () => seen.push('second'));
    agent.on('error', (e) => errors.push(e));
    agent.setTodos([{ content: 'a', status: 'pending', activeForm: 'A' }]);
    expect.soft(seen).toEqual(['second']);
    expect.soft(errors.length).toBe(1);
  });

  it('a listener added twice is removed by two off calls, one registration each', () => {
    const agent = createAgent({ model: scriptedModel([]) });
    let calls = 0;
    const listener = () => void calls++;
    const todo = () => agent.setTodos([{ content: 'a', status: 'pending', activeForm: 'A' }]);
    agent.on('todo-update', listener).on('todo-update', listener);
    todo();
    expect(calls).toBe(2);
    agent.off('todo-update', listener);
    todo();
    expect(calls).toBe(3);
    agent.off('todo-update', listener);
    todo();
    expect(calls).toBe(3);
  });

  it('off after a once that fired removes the on registration, not the spent once', () => {
    const agent = createAgent({ model: scriptedModel([]) });
    let calls = 0;
    const listener = () => void calls++;
    const todo = () => agent.setTodos([{ content: 'a', status: 'pending', activeForm: 'A' }]);
    agent.on('todo-update', listener).once('todo-update', listener);
    todo();
    expect(calls).toBe(2);
    agent.off('todo-update', listener);
    todo();
    expect(calls).toBe(2);
  });

  it('off of a once that has not fired removes it', () => {
    const agent = createAgent({ model: scriptedModel([]) });
    let calls = 0;
    const listener = () => void calls++;
    agent.once('todo-update', listener).off('todo-update', listener);
    agent.setTodos([{ content: 'a', status: 'pending', activeForm: 'A' }]);
    expect(calls).toBe(0);
  });
});

