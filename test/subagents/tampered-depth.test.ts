import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

describe('attack: a snapshot whose parked subagent claims more depth than its type has', () => {
  it.each([5, 1, '3', -1, 1.5])('depthLeft %j: the resumed subagent of a type with maxDepth 0 gets no Agent tool', async (depthLeft) => {
    const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ text: z.string() }), kind: 'edit', execute: () => 'wrote' });
    const worker = scriptedModel([turn(toolCall('write', { text: 'A' }, 'c_w')), 'Sub done.']);
    const agents = { worker: { description: 'w', prompt: 'w', model: worker } };
    const model = scriptedModel([turn(toolCall('Agent', { description: 'd', prompt: 'Work.', subagent_type: 'worker' }, 'p_agent'))]);
    const agent = createAgent({ model, tools: [write], agents, canUseTool: () => ({ behavior: 'defer' }) });
    await agent.run('go').result;
    const text = JSON.stringify(agent.snapshot());
    expect(text).toContain('"depthLeft":0');
    const tampered = JSON.parse(text.replaceAll('"depthLeft":0', `"depthLeft":${JSON.stringify(depthLeft)}`));
    const resumed = createAgent({ model: scriptedModel(['Noted.']), tools: [write], resume: tampered, agents });
    const result = await resumed.resolveApproval(resumed.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
    expect(result.status).toBe('completed');
    expect(worker.requests).toHaveLength(2);
    expect(worker.requests[1]!.request.tools.map((tool) => tool.name)).not.toContain('Agent');
  });
});
