import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type AgentEvent } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

/** $0.30 a call on claude-sonnet-4-6 ($3 per million input tokens), well inside the window. */
const CALL = { inputTokens: 100_000, outputTokens: 0 };
const SONNET = { modelId: 'claude-sonnet-4-6' };
const probe = defineTool({ name: 'probe', description: 'Probes.', inputSchema: z.object({}), readOnly: true, execute: () => 'ok' });
/** Twelve turns that each call `probe`, at $0.30 a call. */
const busyTurns = () => Array.from({ length: 12 }, () => turn(toolCall('probe', {}), { usage: CALL }));
/** A model that calls `probe` on every turn, at $0.30 a call. */
const busyModel = () => scriptedModel(busyTurns(), SONNET);
const agentCall = (subagentType: string, id: string) => toolCall('Agent', { description: `task ${id}`, prompt: 'Dig deep.', subagent_type: subagentType }, id);

describe('maxBudgetUsd covers the run’s subagents while they run', () => {
  it('a subagent stops before a model call once the run’s cost reaches the budget, and the run ends budget-exceeded', async () => {
    const model = scriptedModel([turn(agentCall('worker', 'toolu_agent')), ...busyTurns(), 'sub done', 'parent done'], SONNET);
    const agent = createAgent({ model, tools: [probe], maxBudgetUsd: 0.5, agents: { worker: { description: 'Works.', prompt: 'Work.' } } });
    const result = await agent.run('go').result;
    // The parent's call, then the subagent's two $0.30 calls: $0.60 reached the $0.50 budget.
    expect(model.requests).toHaveLength(3);
    expect(result.status).toBe('budget-exceeded');
    expect(result.subagents).toHaveLength(1);
    expect(result.subagents![0]!.status).toBe('budget-exceeded');
    expect(result.subagents![0]!.turns).toBe(2);
    expect(result.costUsd!).toBeGreaterThanOrEqual(0.6);
    expect(result.costUsd!).toBeLessThan(0.61);
  });

  it('parallel subagents share one running total: together they stop at the budget, not each at its own', async () => {
    const first = busyModel();
    const second = busyModel();
    const model = scriptedModel([turn(agentCall('first', 'toolu_a'), agentCall('second', 'toolu_b')), 'parent done'], SONNET);
    const agent = createAgent({
      model,
      tools: [probe],
      maxBudgetUsd: 1,
      agents: { first: { description: 'One.', prompt: 'Work.', model: first }, second: { description: 'Two.', prompt: 'Work.', model: second } },
    });
    const result = await agent.run('go').result;
    expect(result.status).toBe('budget-exceeded');
    expect(result.subagents!.map((summary) => summary.status)).toEqual(['budget-exceeded', 'budget-exceeded']);
    // Four calls ($1.20) reach the $1 budget; each subagent alone would have made four (eight in
    // all). Which of them makes the fourth depends on how their turns interleave, and the other may
    // have checked the budget at $0.90 just before: one call more at most.
    const calls = first.requests.length + second.requests.length;
    expect(calls).toBeGreaterThanOrEqual(4);
    expect(calls).toBeLessThanOrEqual(5);
    // At most one call past the budget for each run in flight.
    expect(result.costUsd!).toBeLessThan(1 + 2 * 0.3 + 0.01);
    expect(model.requests).toHaveLength(1);
  });

  it('a nested subagent counts its ancestors’ calls so far: it stops once the whole run reached the budget', async () => {
    const grandchild = busyModel();
    const child = scriptedModel([turn(agentCall('digger', 'toolu_child_agent'), { usage: CALL }), 'child done'], SONNET);
    const model = scriptedModel([turn(agentCall('lead', 'toolu_agent'), { usage: CALL }), 'parent done'], SONNET);
    const agent = createAgent({
      model,
      tools: [probe],
      maxBudgetUsd: 1,
      agents: { lead: { description: 'Leads.', prompt: 'Lead.', model: child, maxDepth: 1 }, digger: { description: 'Digs.', prompt: 'Dig.', model: grandchild } },
    });
    const result = await agent.run('go').result;
    // $0.30 (parent) + $0.30 (child) + two grandchild calls = $1.20; a third would have followed.
    expect(grandchild.requests).toHaveLength(2);
    expect(child.requests).toHaveLength(1);
    expect(model.requests).toHaveLength(1);
    expect(result.status).toBe('budget-exceeded');
    expect(result.subagents!.map((summary) => [summary.subagentType, summary.status])).toEqual([
      ['lead', 'budget-exceeded'],
      ['digger', 'budget-exceeded'],
    ]);
    expect(result.costUsd!).toBeCloseTo(1.2, 6);
  });

  it('a background subagent, which outlives the run, stops at a budget of its own', async () => {
    const worker = busyModel();
    const model = scriptedModel([turn(toolCall('Agent', { description: 'long job', prompt: 'Dig.', subagent_type: 'worker', run_in_background: true })), 'Started it.'], SONNET);
    const agent = createAgent({ model, tools: [probe], maxBudgetUsd: 0.5, agents: { worker: { description: 'Works.', prompt: 'Work.', model: worker } } });
    const ended = new Promise<AgentEvent>((resolve) => agent.once('background-task-end', resolve));
    expect((await agent.run('go').result).status).toBe('completed');
    const end = await ended;
    expect(end.type === 'background-task-end' && end.output).toMatch(/budget-exceeded/);
    // Two $0.30 calls reached the $0.50 budget.
    expect(worker.requests).toHaveLength(2);
  });
});
