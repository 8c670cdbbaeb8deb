// The README's "Two ways to plan" snippets, run as written with a scripted model in place of
// anthropicModel: the promises in their comments (a denied plan stays in plan mode; the approval's
// setMode wins; the plan-phase guard refuses writes at once, with no card and no callback; the
// todo handoff; your own plan shape rendered by formatPlanAsMarkdown) are checked, not just typed.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createAgent,
  createPlanPhase,
  defineTool,
  formatPlanAsMarkdown,
  planToTodos,
  requestPlan,
  type AgentEvent,
  type CanUseTool,
  type Todo,
} from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

describe('README: native plan mode', () => {
  it('a plan without risks is denied and stays in plan mode; the one with risks is approved into acceptEdits', async () => {
    const asked: string[] = [];
    const canUseTool: CanUseTool = (toolName, input, context) => {
      asked.push(toolName);
      if (context.reason.type === 'plan-approval') {
        const plan = (input as { plan: string }).plan;
        if (!plan.includes('Risks')) return { behavior: 'deny', message: 'Add the risks, please.' };
        return { behavior: 'allow', updatedPermissions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }] };
      }
      return { behavior: 'defer' };
    };
    const model = scriptedModel([
      turn(toolCall('ExitPlanMode', { plan: '1. Intro\n2. Species' }, 'toolu_1')),
      turn(toolCall('ExitPlanMode', { plan: '1. Intro\n2. Species\n\nRisks: tides' }, 'toolu_2')),
      'Writing.',
    ]);
    const agent = createAgent({ model, canUseTool, permissionMode: 'plan', planModeInstructions: 'Outline the article; write nothing yet.' });
    const cards: string[] = [];
    const modes: string[] = [];
    agent.on('plan-approval-request', ({ plan }) => cards.push(plan));
    agent.on('mode-change', ({ to }) => modes.push(to));
    const result = await agent.run('Plan an article about tide pools.').result;
    expect(result.status).toBe('completed');
    expect(cards).toHaveLength(2);
    expect(asked).toEqual(['ExitPlanMode', 'ExitPlanMode']);
    // After the denial the model still plans, and is told why.
    expect(JSON.stringify(model.requests[1]!.messages.at(-1))).toContain('Add the risks, please.');
    expect(modes).toEqual(['acceptEdits']);
    expect(agent.permissionMode).toBe('acceptEdits');
    expect(agent.plan?.name).toMatch(/\.md$/);
    expect(agent.plan?.text).toContain('Risks');
    expect(JSON.stringify(model.requests[0]!.messages)).toContain('Outline the article; write nothing yet.');
  });
});

describe('README: the plan-phase guard', () => {
  it('refuses writes at once (no card, no callback), hands the plan over as todos, and the agent keeps them up to date', async () => {
    let written = 0;
    let asked = 0;
    const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ text: z.string() }), kind: 'edit', execute: () => (written++, 'ok') });
    const plan = { goal: 'An article on tide pools.', outline: ['Intro'], steps: [{ title: 'Draft the intro' }, { title: 'Review it' }], risks: ['Tides'] };
    const model = scriptedModel([
      turn(toolCall('write', { text: 'too early' }, 'toolu_w1')),
      'Researched.',
      JSON.stringify(plan),
      turn(
        toolCall('write', { text: 'intro' }, 'toolu_w2'),
        toolCall('TodoWrite', { todos: [{ content: 'Draft the intro', status: 'completed', activeForm: 'Drafting the intro' }, { content: 'Review it', status: 'in_progress', activeForm: 'Reviewing it' }] }, 'toolu_t'),
      ),
      'Written.',
    ]);
    const phase = createPlanPhase();
    const agent = createAgent({ model, tools: [write], permissionMode: 'acceptEdits', hooks: { ...phase.hooks }, canUseTool: () => (asked++, { behavior: 'allow' }) });
    const events: AgentEvent[] = [];
    agent.on('permission-request', (event) => events.push(event));
    agent.on('plan-approval-request', (event) => events.push(event));
    phase.begin();
    await agent.run('Research tide pools for an article.').result;
    expect(written).toBe(0);
    expect(asked).toBe(0);
    expect(events).toEqual([]);
    const { plan: requested } = await requestPlan(agent, { phase });
    expect(requested).toEqual(plan);
    const updates: Array<{ todos: Todo[] }> = [];
    agent.on('todo-update', ({ todos, changes }) => updates.push({ todos, ...changes }));
    await agent.savePlan(formatPlanAsMarkdown(requested));
    agent.setTodos(planToTodos(requested));
    await agent.run('The plan is approved. Write it, step by step.').result;
    expect(written).toBe(1);
    expect(updates).toHaveLength(2);
    expect(agent.todos.map((todo) => todo.status)).toEqual(['completed', 'in_progress']);
    expect(agent.plan?.text).toContain('Draft the intro');
  });

  it('your own plan shape: typed by the schema, rendered with its title and numbered sections', async () => {
    const ArticlePlan = z.object({
      headline: z.string(),
      sections: z.array(z.object({ title: z.string(), detail: z.string().optional(), sources: z.array(z.string()) })),
      openQuestions: z.array(z.string()),
    });
    const answer = { headline: 'Life in a tide pool', sections: [{ title: 'Anemones', detail: 'How they feed.', sources: ['NOAA'] }], openQuestions: ['Photos?'] };
    const phase = createPlanPhase();
    const agent = createAgent({ model: scriptedModel(['Researched.', JSON.stringify(answer)]), permissionMode: 'acceptEdits', hooks: { ...phase.hooks } });
    phase.begin();
    await agent.run('Research tide pools for an article.').result;
    const { plan } = await requestPlan(agent, { phase, schema: ArticlePlan });
    const markdown = formatPlanAsMarkdown(plan, { title: plan.headline });
    expect(markdown).toMatch(/^# Life in a tide pool/);
    expect(markdown).toMatch(/## Sections\n+1\. Anemones\n\s+How they feed\./);
    await agent.savePlan(markdown);
    const todos: Todo[] = plan.sections.map((section) => ({ content: `Write "${section.title}"`, activeForm: `Writing "${section.title}"`, status: 'pending' }));
    agent.setTodos(todos);
    expect(agent.todos).toEqual(todos);
    expect(phase.active).toBe(false);
  });
});
