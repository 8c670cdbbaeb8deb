import { describe, expect, it } from 'vitest';
import { ApprovalNotFoundError, createAgent, defineTool } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { z } from 'zod';

const publish = defineTool({ name: 'publish', description: 'Publishes.', inputSchema: z.object({}), execute: () => 'published' });

async function parked() {
  const agent = createAgent({ model: scriptedModel([turn(toolCall('publish', {}, 'toolu_publish_1')), 'done']), tools: [publish] });
  const result = await agent.run('publish it').result;
  expect(result.status).toBe('awaiting-approval');
  return agent;
}

describe('ApprovalNotFoundError', () => {
  it('for an unknown id, lists the ids pending now; the approval stays pending', async () => {
    const agent = await parked();
    const [pending] = agent.pendingApprovals;
    let thrown: unknown;
    try {
      agent.resolveApproval('nope', { behavior: 'allow' });
    } catch (error) {
      thrown = error;
    }
    expect(ApprovalNotFoundError.isInstance(thrown)).toBe(true);
    expect((thrown as ApprovalNotFoundError).approvalId).toBe('nope');
    expect((thrown as Error).message).toContain(`Pending now: "${pending!.id}"`);
    expect(agent.pendingApprovals).toHaveLength(1);
  });

  it("for a pending call's toolUseId, names the approval to pass instead", async () => {
    const agent = await parked();
    const [pending] = agent.pendingApprovals;
    expect(pending!.toolUseId).toBe('toolu_publish_1');
    expect(pending!.id).not.toBe('toolu_publish_1');
    expect(() => agent.resolveApproval('toolu_publish_1', { behavior: 'allow' })).toThrow(
      `that is the toolUseId of the call that approval "${pending!.id}" asks about. Pass the approval's id (PendingApproval.id), not its toolUseId.`,
    );
    expect((await agent.resolveApproval(pending!.id, { behavior: 'allow' }).result).status).toBe('completed');
  });
});
