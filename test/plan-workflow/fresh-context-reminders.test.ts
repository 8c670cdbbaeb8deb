import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type AgentEvent, type CanUseTool } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { validateMessagesRequest } from '../../src/testing/messages-server/validate-messages-request.js';

// An approved plan with clearContext replaces the history by one message. What was queued for
// the model's next turn (a background task's end, say) must reach that fresh context, not be
// written into the history the fresh context throws away.

const PLAN = '1. Read the notes.\n2. Write the draft.';

function gate() {
  let release!: () => void;
  const opened = new Promise<void>((resolve) => (release = resolve));
  const wait = defineTool({ name: 'wait', description: 'Waits.', inputSchema: z.object({}), readOnly: true, execute: async () => (await opened, 'waited') });
  return { wait, release };
}

const background = toolCall('Agent', { description: 'survey', prompt: 'survey the sources', subagent_type: 'worker', run_in_background: true }, 'p_bg');
const textOf = (message: { content: unknown }) => JSON.stringify(message.content);

describe('a fresh context after a plan approval', () => {
  it('carries a background task notification that arrived while the plan waited', async () => {
    const { wait, release } = gate();
    const worker = scriptedModel([turn(toolCall('wait', {}, 'c_wait')), 'Survey done: three sources.']);
    const model = scriptedModel([turn(background), turn(toolCall('ExitPlanMode', { plan: PLAN }, 'p_plan')), 'Carrying it out.']);
    let agentRef: ReturnType<typeof createAgent> | undefined;
    const canUseTool: CanUseTool = async (_name, _input, context) => {
      if (context.reason.type !== 'plan-approval') return { behavior: 'allow' };
      // The background task ends while the user reads the plan.
      const ended = new Promise<AgentEvent>((resolve) => agentRef!.once('background-task-end', resolve));
      release();
      await ended;
      return { behavior: 'allow', clearContext: true };
    };
    const agent = createAgent({ model, tools: [wait], permissionMode: 'plan', canUseTool, agents: { worker: { description: 'w', prompt: 'w', model: worker } } });
    agentRef = agent;
    const result = await agent.run('plan the article').result;
    expect(result.status).toBe('completed');
    const fresh = model.requests[2]!.messages;
    expect(fresh).toHaveLength(1);
    expect(validateMessagesRequest(fresh)).toBeUndefined();
    expect(textOf(fresh[0]!)).toContain(PLAN.split('\n')[0]);
    expect(textOf(fresh[0]!)).toContain('Survey done: three sources.');
    // Said once, and the mode once (the fresh context states the mode itself).
    expect(textOf(fresh[0]!).split('Survey done').length).toBe(2);
    expect(textOf(fresh[0]!).split('Permission mode is now').length).toBeLessThanOrEqual(2);
  });
});
