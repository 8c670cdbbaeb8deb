import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type Tool } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

// The last check before a call starts ("plan mode never writes", whatever was decided before)
// reads a tool's per-call opinion the way the permission pipeline does: only `true` is
// read-only, and a check that throws counts as "not read-only" (the call is refused, the run goes on).

function writer(isReadOnlyCall: (input: unknown) => unknown) {
  const writes: string[] = [];
  const tool = defineTool({ name: 'Save', description: 'Saves.', inputSchema: z.object({}), kind: 'edit', execute: () => (writes.push('saved'), 'saved') }) as Tool;
  return { tool: { ...tool, isReadOnlyCall: isReadOnlyCall as (input: unknown) => boolean }, writes };
}

describe('the plan-mode guard at execution', () => {
  it.each([
    ['returns a promise (an async check from JavaScript)', () => Promise.resolve(false)],
    ['returns a truthy non-boolean', () => 'no'],
    ['throws', () => { throw new Error('cannot tell'); }],
  ])('refuses a call allowed before the mode became plan, when its per-call check %s', async (_label, check) => {
    const { tool, writes } = writer(check);
    // One batch: EnterPlanMode (approved) runs first, then the call allowed in default mode.
    const model = scriptedModel([turn(toolCall('EnterPlanMode', {}, 'enter'), toolCall('Save', {}, 'save')), 'Planning now.']);
    const agent = createAgent({ model, tools: [tool], enterPlanMode: true, canUseTool: () => ({ behavior: 'allow' }) });
    const result = await agent.run('go').result;
    expect(agent.permissionMode).toBe('plan');
    expect(writes).toEqual([]);
    expect(result.status).toBe('completed');
    expect(JSON.stringify(agent.messages)).toContain('plan mode is active');
  });
});
