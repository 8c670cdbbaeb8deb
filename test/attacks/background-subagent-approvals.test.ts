// Attack class: "A background subagent cannot wait for approval: what it would have to ask is
// denied" (README, Subagents). The plain case (no canUseTool) is pinned in
// test/subagents/background-tasks.test.ts; here every other way a call can be parked for the host
// is tried: a canUseTool that defers, a PreToolUse hook that defers (which parks the call without
// asking canUseTool), and a foreground subagent started by a background one.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type AgentEvent, type AgentOptions } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

const background = (id: string) => toolCall('Agent', { description: 'long job', prompt: 'do the long job', subagent_type: 'worker', run_in_background: true }, id);

function writeTool() {
  const writes: string[] = [];
  const tool = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({}), kind: 'edit', execute: () => (writes.push('x'), 'wrote') });
  return { tool, writes };
}

async function runBackground(extra: Partial<AgentOptions>) {
  const { tool, writes } = writeTool();
  const worker = scriptedModel([turn(toolCall('write', {}, 'c_w')), 'Could not write.']);
  const agent = createAgent({ model: scriptedModel([turn(background('p_bg')), 'ok']), tools: [tool], agents: { worker: { description: 'w', prompt: 'w', model: worker } }, ...extra });
  const ended = new Promise<AgentEvent>((resolve) => agent.once('background-task-end', resolve));
  const result = await agent.run('go').result;
  const end = await ended;
  return { agent, result, end, writes, worker };
}

describe('attack: a background subagent asked to wait for the host', () => {
  it('a canUseTool that defers: the call is denied, the task goes on and completes', async () => {
    const { agent, result, end, writes } = await runBackground({ canUseTool: async () => ({ behavior: 'defer' }) });
    expect(result.status).toBe('completed');
    expect(end).toMatchObject({ output: 'Could not write.', task: { status: 'completed' } });
    expect(writes).toEqual([]);
    expect(agent.pendingApprovals).toEqual([]);
  });

  it('a PreToolUse hook that defers: the call is denied (not parked), the task goes on and completes', async () => {
    const { agent, result, end, writes, worker } = await runBackground({ hooks: { PreToolUse: [{ matcher: 'write', hook: () => ({ decision: 'defer' }) }] } });
    expect(result.status).toBe('completed');
    expect(end).toMatchObject({ output: 'Could not write.', task: { status: 'completed' } });
    expect(writes).toEqual([]);
    expect(agent.pendingApprovals).toEqual([]);
    // The subagent's model was told why, and went on.
    expect(JSON.stringify(worker.requests[1]!.messages.at(-1))).toContain('cannot wait');
  });

  it.each([
    ['a canUseTool that defers', { canUseTool: async () => ({ behavior: 'defer' as const }) }],
    ['a PreToolUse hook that defers', { hooks: { PreToolUse: [{ matcher: 'write', hook: () => ({ decision: 'defer' as const }) }] } }],
  ])('a foreground subagent started by a background one cannot wait either (%s)', async (_name, extra) => {
    const { tool, writes } = writeTool();
    const inner = scriptedModel([turn(toolCall('write', {}, 'c_w')), 'Could not write.']);
    const outer = scriptedModel([turn(toolCall('Agent', { description: 'inner job', prompt: 'write', subagent_type: 'inner' }, 'o_agent')), 'Inner done.']);
    const agent = createAgent({
      model: scriptedModel([turn(background('p_bg')), 'ok']),
      tools: [tool],
      ...extra,
      agents: { worker: { description: 'w', prompt: 'w', model: outer, maxDepth: 1 }, inner: { description: 'i', prompt: 'i', model: inner } },
    });
    const ended = new Promise<AgentEvent>((resolve) => agent.once('background-task-end', resolve));
    await agent.run('go').result;
    expect(await ended).toMatchObject({ output: 'Inner done.', task: { status: 'completed' } });
    expect(writes).toEqual([]);
    expect(agent.pendingApprovals).toEqual([]);
  });
});
