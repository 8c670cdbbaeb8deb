// Attack class: the host denies a subagent's call and asks to stop (`interrupt: true`). The stop is
// for the run the host sees — the parent's — live, answered later on the same agent, or answered
// in another process from a snapshot: the parent must not call its model again and go on.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type CanUseTool } from 'agent-harness';
import { scriptedModel, toolCall, turn, validateMessagesRequest } from 'agent-harness/testing';

function fixture(canUseTool?: CanUseTool) {
  const runs: string[] = [];
  const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ text: z.string() }), kind: 'edit', execute: ({ input }) => (runs.push(input.text), 'wrote') });
  const parent = scriptedModel([turn(toolCall('Agent', { description: 'write it', prompt: 'write', subagent_type: 'writer' }, 'p_agent')), 'The parent went on anyway.']);
  const options = {
    tools: [write],
    agents: { writer: { description: 'w', prompt: 'w', model: scriptedModel([turn(toolCall('write', { text: 'child' }, 'c_write')), 'The child went on anyway.']) } },
    ...(canUseTool ? { canUseTool } : {}),
  };
  return { runs, parent, options, agent: createAgent({ model: parent, ...options }) };
}
const stop = { behavior: 'deny' as const, message: 'Stop everything.', interrupt: true };

describe("attack: a subagent's call denied with interrupt", () => {
  it('live, from canUseTool: the parent run ends interrupted without asking its model again', async () => {
    const { agent, parent, runs } = fixture(() => stop);
    const result = await agent.run('go').result;
    expect(result.status).toBe('interrupted');
    expect(parent.requests).toHaveLength(1);
    expect(runs).toEqual([]);
    expect(validateMessagesRequest([...agent.messages, { role: 'assistant', content: 'x' }])).toBeUndefined();
  });

  it('answered later on the same agent: the parent run ends interrupted', async () => {
    const { agent, parent } = fixture();
    const [approval] = (await agent.run('go').result).pendingApprovals;
    const result = await agent.resolveApproval(approval!.id, stop).result;
    expect(result.status).toBe('interrupted');
    expect(parent.requests).toHaveLength(1);
  });

  it('answered in another process from a snapshot: the parent run ends interrupted, and the next prompt runs normally', async () => {
    const { agent, options } = fixture();
    const [approval] = (await agent.run('go').result).pendingApprovals;
    const model = scriptedModel(['Stopped as asked.']);
    const later = createAgent({ model, ...options, resume: JSON.parse(JSON.stringify(agent.snapshot())) });
    const result = await later.resolveApproval(approval!.id, stop).result;
    expect(result.status).toBe('interrupted');
    expect(model.requests).toHaveLength(0);
    // The stop was for that run only.
    expect((await later.run('what now?').result).status).toBe('completed');
    expect(validateMessagesRequest(model.requests[0]!.messages)).toBeUndefined();
  });

  it('a plain denial (no interrupt) still lets the subagent and the parent go on', async () => {
    const { agent, parent } = fixture(() => ({ behavior: 'deny', message: 'Not that.' }));
    expect((await agent.run('go').result).status).toBe('completed');
    expect(parent.requests).toHaveLength(2);
  });
});
