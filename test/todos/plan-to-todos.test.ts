import { describe, expect, it } from 'vitest';
import { toActiveForm } from '../../src/todos/active-form.js';
import { planToTodos } from '../../src/todos/plan-to-todos.js';
import { validateTodos } from '../../src/todos/validate-todos.js';

describe('planToTodos', () => {
  it("turns a plan's steps into pending todos, in order", () => {
    const todos = planToTodos({ steps: [{ title: 'Draft the introduction', detail: 'short' }, { title: ' Review tone ' }] });
    expect(todos).toEqual([
      { content: 'Draft the introduction', status: 'pending', activeForm: 'Drafting the introduction' },
      { content: 'Review tone', status: 'pending', activeForm: 'Reviewing tone' },
    ]);
    expect(validateTodos({ todos }).ok).toBe(true);
  });

  it('takes a custom activeForm', () => {
    expect(planToTodos({ steps: [{ title: 'Intro' }] }, { activeForm: (step) => `On ${step.title}` })[0]?.activeForm).toBe('On Intro');
  });
});

describe('toActiveForm', () => {
  it.each([
    ['Draft the introduction', 'Drafting the introduction'],
    ['Write tests', 'Writing tests'],
    ['Plan the launch', 'Planning the launch'],
    ['Set up CI', 'Setting up CI'],
    ['run the suite', 'running the suite'],
    ['Format the table', 'Formatting the table'],
    ['Proofread chapter 2', 'Proofreading chapter 2'],
    ['Fix the bug', 'Fixing the bug'],
    ['Introduction', 'Working on: Introduction'],
    ['  ', 'Working on: '],
  ])('%j → %j', (title, expected) => {
    expect(toActiveForm(title)).toBe(expected);
  });
});
