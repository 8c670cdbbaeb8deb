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
});
