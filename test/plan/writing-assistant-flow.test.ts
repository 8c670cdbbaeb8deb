import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createAgent,
  createPlanPhase,
  defineTool,
  formatPlanAsMarkdown,
  planToTodos,
  PlanExtractionError,
  requestPlan,
  type Todo,
  type ToolResultBlock,
} from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

const plan = {
  goal: 'A short article on tide pools',
  outline: ['Opening', 'Life in a pool'],
  steps: [{ title: 'Write the opening' }, { title: 'Write the body', detail: 'Anemones, crabs, snails' }],
  risks: ['Too technical for the audience'],
};

function writingTools(written: Map<string, string>) {
  const profileReader = defineTool({
    name: 'profile_reader',
    description: "Reads the author's profile.",
    inputSchema: z.object({}),
    readOnly: true,
    execute: () => ({ voice: 'warm', audience: 'curious non-specialists' }),
  });
  const writeSection = defineTool({
    name: 'write_section',
    description: 'Writes a section of the draft.',
    inputSchema: z.object({ heading: z.string(), body: z.string() }),
    kind: 'edit',
    execute: ({ input }) => {
      written.set(input.heading, input.body);
      return `saved ${input.heading}`;
    },
  });
  return [profileReader, writeSection];
}

const todos = (statuses: Todo['status'][]): Todo[] =>
  plan.steps.map((step, index) => ({ content: step.title, status: statuses[index]!, activeForm: step.title.replace(/^Write/, 'Writing') }));

describe('the writing-assistant flow: plan phase in acceptEdits, structured plan, todo handoff', () => {
  it('denies writes while planning, retries an invalid plan once, then executes with the todo list ticking over', async () => {
    const written = new Map<string, string>();
    const model = scriptedModel([
      // Plan phase: explore, try to write too early, then summarize.
      turn('Reading the profile first.', toolCall('profile_reader', {}), toolCall('write_section', { heading: 'Opening', body: 'too early' }, 'early')),
      'I know enough to plan.',
      // requestPlan: one invalid answer (no risks), then a valid one in a fence with prose around it.
      JSON.stringify({ goal: plan.goal, outline: plan.outline, steps: plan.steps }),
      `Here is the fixed plan:\n\`\`\`json\n${JSON.stringify(plan)}\n\`\`\`\nLet me know.`,
      // Execution, tracking todos.
      turn(toolCall('TodoWrite', { todos: todos(['in_progress', 'pending']) }), toolCall('write_section', { heading: 'Opening', body: 'At low tide...' })),
      turn(toolCall('TodoWrite', { todos: todos(['completed', 'in_progress']) }), toolCall('write_section', { heading: 'Life in a pool', body: 'Anemones wait.' })),
      turn(toolCall('TodoWrite', { todos: todos(['completed', 'completed']) })),
      'The draft is written.',
    ]);
    const phase = createPlanPhase();
    const asked: string[] = [];
    const agent = createAgent({
      model,
      tools: writingTools(written),
      permissionMode: 'acceptEdits',
      hooks: { ...phase.hooks },
      canUseTool: phase.wrap((name) => (asked.push(name), { behavior: 'allow' })),
    });
    const updates: Todo[][] = [];
    agent.on('todo-update', (event) => updates.push(event.todos));

    phase.begin();
    const explored = await agent.run('Plan a two-section article about tide pools.').result;
    expect(explored.status).toBe('completed');
    const early = (model.requests[1]!.messages.at(-1)!.content as ToolResultBlock[]).find((block) => block.tool_use_id === 'early')!;
    expect(early.is_error).toBe(true);
    expect(early.content).toMatch(/planning phase is active/);
    expect(written.size).toBe(0);

    const requested = await requestPlan(agent, { phase });
    expect(phase.active).toBe(false);
    expect(requested.attempts).toBe(2);
    expect(requested.plan).toEqual(plan);
    // The retry told the model what was wrong, in the same session (no restart).
    const retry = JSON.stringify(model.requests[3]!.messages.at(-1)!.content);
    expect(retry).toMatch(/risks/);
    expect(model.requests[3]!.messages.length).toBeGreaterThan(model.requests[0]!.messages.length);

    await agent.savePlan(formatPlanAsMarkdown(requested.plan));
    agent.setTodos(planToTodos(requested.plan));
    expect(agent.todos.map((todo) => todo.status)).toEqual(['pending', 'pending']);

    const executed = await agent.run('The plan is approved. Write the draft now, step by step.').result;
    expect(executed.status).toBe('completed');
    expect([...written.keys()]).toEqual(['Opening', 'Life in a pool']);
    expect(agent.todos.every((todo) => todo.status === 'completed')).toBe(true);
    expect(updates.at(-1)!.map((todo) => todo.status)).toEqual(['completed', 'completed']);
    expect(agent.plan?.text).toContain('A short article on tide pools');
    // acceptEdits approved the edits without asking; the guard never needed the callback.
    expect(asked).toEqual([]);
    model.assertAllUsed();
  });

  it('throws a typed error naming the problem when the plan stays invalid', async () => {
    const model = scriptedModel(['no json here', '{"goal": 1}']);
    const agent = createAgent({ model });
    const error = await requestPlan(agent).catch((caught: unknown) => caught);
    expect(PlanExtractionError.isInstance(error)).toBe(true);
    expect((error as PlanExtractionError).attempts).toBe(2);
    expect((error as PlanExtractionError).message).toMatch(/goal/);
  });
});
