import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memorySessionStore } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ n: z.number() }), execute: ({ input }) => `wrote ${input.n}` });

describe('a snapshot of a batch whose calls are partly decided', () => {
  it('resumes as it is, without a JSON round trip (decided calls leave no undefined fields in it)', async () => {
    const model = scriptedModel([turn(toolCall('write', { n: 1 }, 'toolu_1'), toolCall('write', { n: 2 }, 'toolu_2')), 'Done.']);
    const agent = createAgent({ model, tools: [write], canUseTool: () => ({ behavior: 'defer' }) });
    const first = await agent.run('Write twice.').result;
    expect(first.status).toBe('awaiting-approval');
    const [one] = agent.pendingApprovals;
    await agent.resolveApproval(one!.id, { behavior: "deny", message: "No." }).result;
    const snapshot = agent.snapshot();
    const resumed = createAgent({ model, tools: [write], resume: snapshot });
    await resumed.ready;
    expect(resumed.pendingApprovals.map((approval) => approval.toolUseId)).toEqual(['toolu_2']);
    // The same snapshot through JSON resumes alike.
    const viaJson = createAgent({ model, tools: [write], resume: JSON.parse(JSON.stringify(snapshot)) });
    await viaJson.ready;
    expect(viaJson.pendingApprovals.map((approval) => approval.toolUseId)).toEqual(['toolu_2']);
  });
});

describe('a partly decided batch in a stored checkpoint', () => {
  it('a fork written to the memory store (structured copies, undefined fields kept) resumes from it', async () => {
    const store = memorySessionStore();
    const model = scriptedModel([turn(toolCall('write', { n: 1 }, 'toolu_1'), toolCall('write', { n: 2 }, 'toolu_2')), 'Done.']);
    const agent = createAgent({ model, tools: [write], store, canUseTool: () => ({ behavior: 'defer' }) });
    expect((await agent.run('Write twice.').result).status).toBe('awaiting-approval');
    await agent.resolveApproval(agent.pendingApprovals[0]!.id, { behavior: 'deny', message: 'No.' }).result;
    const fork = await agent.fork();
    const forkId = fork.sessionId;
    await fork.close();
    const resumed = createAgent({ model, tools: [write], store, resume: forkId });
    await resumed.ready;
    expect(resumed.pendingApprovals.map((approval) => approval.toolUseId)).toEqual(['toolu_2']);
  });
});
