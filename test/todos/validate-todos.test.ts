import { describe, expect, it } from 'vitest';
import { validateTodos } from '../../src/todos/validate-todos.js';

const good = { content: 'Draft the intro', status: 'pending', activeForm: 'Drafting the intro' };

describe('validateTodos', () => {
  it('accepts a list, also with several items in progress, and keeps only the known fields', () => {
    const input = { todos: [good, { ...good, status: 'in_progress', extra: 1 }, { ...good, status: 'in_progress' }] };
    const result = validateTodos(input);
    expect(result).toEqual({ ok: true, todos: [good, { ...good, status: 'in_progress' }, { ...good, status: 'in_progress' }] });
    expect(validateTodos({ todos: [] })).toEqual({ ok: true, todos: [] });
  });

  it('names the bad field in each issue', () => {
    const result = validateTodos({ todos: [good, { content: '', status: 'done' }] });
    expect(result).toEqual({
      ok: false,
      issues: [
        'todos[1].content: must not be empty',
        'todos[1].status: must be one of "pending", "in_progress", "completed", got "done"',
        'todos[1].activeForm: is missing (expected string)',
      ],
    });
  });

  it('explains a wrong top-level shape', () => {
    const result = validateTodos([good]);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues).toEqual([expect.stringMatching(/^\(the whole value\): expected object, got \[\{"content":"Draft the intro".*\.\.\.$/)]);
    expect(validateTodos({})).toEqual({ ok: false, issues: ['todos: is missing (expected array)'] });
  });
});
