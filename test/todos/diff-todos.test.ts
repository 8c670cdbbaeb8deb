import { describe, expect, it } from 'vitest';
import { diffTodos } from '../../src/todos/diff-todos.js';
import type { Todo, TodoStatus } from '../../src/types/todo.js';

const todo = (content: string, status: TodoStatus = 'pending'): Todo => ({ content, status, activeForm: `Doing ${content}` });

describe('diffTodos', () => {
  it('reports added, removed and status changes, matching items by content', () => {
    const previous = [todo('a', 'completed'), todo('b', 'in_progress'), todo('c')];
    const next = [todo('a', 'completed'), todo('b', 'completed'), todo('c', 'in_progress'), todo('d')];
    expect(diffTodos(previous, next)).toEqual({
      added: [todo('d')],
      removed: [],
      statusChanges: [
        { todo: todo('b', 'completed'), from: 'in_progress', to: 'completed' },
        { todo: todo('c', 'in_progress'), from: 'pending', to: 'in_progress' },
      ],
      changed: true,
    });
  });

  it('treats a reworded item as removed and added', () => {
    const result = diffTodos([todo('Draft intro')], [todo('Draft the introduction')]);
    expect(result.added).toEqual([todo('Draft the introduction')]);
    expect(result.removed).toEqual([todo('Draft intro')]);
  });

  it('matches duplicates in order', () => {
    const result = diffTodos([todo('x'), todo('x')], [todo('x', 'completed')]);
    expect(result.statusChanges).toEqual([{ todo: todo('x', 'completed'), from: 'pending', to: 'completed' }]);
    expect(result.removed).toEqual([todo('x')]);
  });

  it('notices order and activeForm changes, and nothing for equal lists', () => {
    expect(diffTodos([todo('a'), todo('b')], [todo('b'), todo('a')])).toMatchObject({ added: [], removed: [], statusChanges: [], changed: true });
    expect(diffTodos([todo('a')], [{ ...todo('a'), activeForm: 'Working on a' }]).changed).toBe(true);
    expect(diffTodos([todo('a')], [todo('a')])).toEqual({ added: [], removed: [], statusChanges: [], changed: false });
    expect(diffTodos([], [])).toEqual({ added: [], removed: [], statusChanges: [], changed: false });
  });
});
