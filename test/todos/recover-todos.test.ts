import { describe, expect, it } from 'vitest';
import { recoverTodos } from '../../src/todos/recover-todos.js';
import type { Todo } from '../../src/types/todo.js';
import { entry, streamed } from '../plan/entry-builders.js';

const list = (...contents: string[]): Todo[] => contents.map((content) => ({ content, status: 'pending', activeForm: `Doing ${content}` }));

describe('recoverTodos', () => {
  it('returns undefined for a session without todos', async () => {
    expect(await recoverTodos({ entries: [entry.user('hi')] })).toBeUndefined();
  });

  it('takes the last successful TodoWrite, preferring the recorded newTodos', async () => {
    const entries = [
      entry.toolUse('t1', 'TodoWrite', { todos: list('a') }),
      entry.toolResult('t1', { toolUseResult: { oldTodos: [], newTodos: list('a', 'recorded') } }),
      entry.toolUse('t2', 'TodoWrite', { todos: list('b') }),
      entry.toolResult('t2'),
    ];
    expect(await recoverTodos({ entries: entries.slice(0, 2) })).toEqual(list('a', 'recorded'));
    expect(await recoverTodos({ entries: streamed(entries) })).toEqual(list('b'));
  });

  it('ignores failed, unanswered and invalid calls', async () => {
    const entries = [
      entry.toolUse('t1', 'TodoWrite', { todos: list('good') }),
      entry.toolResult('t1'),
      entry.toolUse('t2', 'TodoWrite', { todos: [{ content: 'x', status: 'done' }] }),
      entry.toolResult('t2'),
      entry.toolUse('t3', 'TodoWrite', { todos: list('rejected') }),
      entry.toolResult('t3', { isError: true }),
      entry.toolUse('t4', 'TodoWrite', { todos: list('never answered') }),
    ];
    expect(await recoverTodos({ entries })).toEqual(list('good'));
  });

  it('counts todo-update entries in order with the calls', async () => {
    const entries = [entry.toolUse('t1', 'TodoWrite', { todos: list('call') }), entry.toolResult('t1'), entry.todos(list('seeded by host'))];
    expect(await recoverTodos({ entries })).toEqual(list('seeded by host'));
    expect(await recoverTodos({ entries: [entry.todos(list('x')), ...entries.slice(0, 2)] })).toEqual(list('call'));
  });

  it('keeps agents apart', async () => {
    const entries = [entry.todos(list('main')), entry.todos(list('sub'), 'agent-1')];
    expect(await recoverTodos({ entries })).toEqual(list('main'));
    expect(await recoverTodos({ entries, agentId: 'agent-1' })).toEqual(list('sub'));
  });
});
