// Attack class: the README's todo handoff, `agent.setTodos(planToTodos(plan))`, fed a plan that
// `requestPlan` accepted from a hostile model — steps past the todo list's limits, or titles a
// reader cannot see. The plan schema must send such a plan back, so the handoff never throws.
import { describe, expect, it } from 'vitest';
import { createAgent, createPlanPhase, MAX_TODO_TEXT_CHARS, MAX_TODOS, planToTodos, requestPlan } from 'agent-harness';
import { scriptedModel } from 'agent-harness/testing';

const good = { goal: 'Write the article.', outline: ['Intro'], steps: [{ title: 'Draft the intro' }, { title: 'Review it' }], risks: [] };

async function handOff(hostile: unknown) {
  const model = scriptedModel([JSON.stringify(hostile), JSON.stringify(good)]);
  const phase = createPlanPhase();
  const agent = createAgent({ model, permissionMode: 'acceptEdits', hooks: { ...phase.hooks } });
  phase.begin();
  const { plan, attempts } = await requestPlan(agent, { phase });
  agent.setTodos(planToTodos(plan)); // as the README writes it: must not throw
  return { agent, attempts, retryPrompt: JSON.stringify(model.requests[1]?.messages.at(-1)) };
}

describe('attack: a plan the todo list cannot hold', () => {
  it(`a step title longer than a todo may be (${MAX_TODO_TEXT_CHARS} characters) is sent back with the limit named`, async () => {
    const { agent, attempts, retryPrompt } = await handOff({ ...good, steps: [{ title: `Draft ${'x'.repeat(MAX_TODO_TEXT_CHARS)}` }] });
    expect(attempts).toBe(2);
    expect(retryPrompt).toContain(String(MAX_TODO_TEXT_CHARS));
    expect(agent.todos.map((todo) => todo.content)).toEqual(['Draft the intro', 'Review it']);
  });

  it('a title just within the limit that starts with no known verb still hands over (its activeForm grows by "Working on: ")', async () => {
    const title = `Ω${'y'.repeat(MAX_TODO_TEXT_CHARS - 1)}`;
    const { agent, attempts } = await handOff({ ...good, steps: [{ title }] });
    expect(attempts).toBe(1);
    expect(agent.todos[0]!.content).toBe(title);
    expect(agent.todos[0]!.activeForm.length).toBeLessThanOrEqual(MAX_TODO_TEXT_CHARS);
  });

  it(`more steps than a todo list may hold (${MAX_TODOS}) are sent back with the limit named`, async () => {
    const steps = Array.from({ length: MAX_TODOS + 1 }, (_, index) => ({ title: `Draft part ${index}` }));
    const { agent, attempts, retryPrompt } = await handOff({ ...good, steps });
    expect(attempts).toBe(2);
    expect(retryPrompt).toContain(String(MAX_TODOS));
    expect(agent.todos).toHaveLength(2);
  });

  it.each([
    ['zero-width spaces', '\u200b\u200b'],
    ['a byte-order mark and a word joiner', '\ufeff\u2060'],
    ['bidi controls around a space', '\u202e \u202c'],
  ])('a step title of only %s (a todo nobody can read) is sent back as blank', async (_name, title) => {
    const { agent, attempts } = await handOff({ ...good, steps: [{ title: 'Draft the intro' }, { title }] });
    expect(attempts).toBe(2);
    expect(agent.todos.map((todo) => todo.content)).toEqual(['Draft the intro', 'Review it']);
  });
});
