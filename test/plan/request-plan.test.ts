import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, createPlanPhase, defineTool, PlanExtractionError, requestPlan } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

const plan = { goal: 'g', outline: ['o'], steps: [{ title: 'Write it' }], risks: [] };

function writer(written: string[]) {
  return defineTool({
    name: 'write_section',
    description: 'Writes a section.',
    inputSchema: z.object({ body: z.string() }),
    kind: 'edit',
    execute: ({ input }) => {
      written.push(input.body);
      return 'saved';
    },
  });
}

describe('requestPlan keeps the plan phase on while it asks', () => {
  it('does not let the model write while it is being asked for the plan (acceptEdits + plan phase)', async () => {
    const written: string[] = [];
    const model = scriptedModel([
      // The plan request: the model ignores "do not call any tools" and writes first.
      turn(toolCall('write_section', { body: 'written before any plan was approved' })),
      JSON.stringify(plan),
    ]);
    const phase = createPlanPhase();
    const agent = createAgent({ model, tools: [writer(written)], permissionMode: 'acceptEdits', hooks: { ...phase.hooks } });
    phase.begin();
    const requested = await requestPlan(agent, { phase });
    expect(requested.plan).toEqual(plan);
    expect(written).toEqual([]);
    expect(phase.active).toBe(false);
  });

  it('a write attempted during the plan request is refused, not parked; without a plan the phase stays on', async () => {
    const written: string[] = [];
    const model = scriptedModel([turn(toolCall('write_section', { body: 'x' }))]);
    const phase = createPlanPhase();
    // default mode, no canUseTool: the edit is deferred to the host -> run ends awaiting approval
    const agent = createAgent({ model, tools: [writer(written)], hooks: { ...phase.hooks } });
    phase.begin();
    const error = await requestPlan(agent, { phase }).catch((caught: unknown) => caught);
    expect(PlanExtractionError.isInstance(error)).toBe(true);
    expect(agent.pendingApprovals).toHaveLength(0);
    expect(written).toEqual([]);
    expect(phase.active).toBe(true);
  });

  it('a refused plan: one model call, a PlanExtractionError that names the refusal (not the schema or maxAttempts), the phase stays on', async () => {
    const model = scriptedModel([turn('{"goal": "I cannot', { stopReason: 'refusal' }), JSON.stringify(plan)]);
    const phase = createPlanPhase();
    const agent = createAgent({ model, hooks: { ...phase.hooks } });
    phase.begin();
    const error = await requestPlan(agent, { phase, maxAttempts: 3 }).catch((caught: unknown) => caught);
    expect(PlanExtractionError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('"refusal"');
    expect((error as Error).message).not.toContain('maxAttempts');
    expect(model.requests).toHaveLength(1);
    expect(phase.active).toBe(true);
  });
});
