import { describe, expect, it } from 'vitest';
import { createAgent, type AgentOptions } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

// A question for the user (AskUserQuestion) and a plan waiting for approval (ExitPlanMode) reach
// the host whatever a PreToolUse hook or an allow rule says: "allow" grants permission, it does
// not answer for the user.
const questions = [{ question: 'Who reads it?', header: 'Audience', options: [{ label: 'Experts', description: '' }, { label: 'Newcomers', description: '' }], multiSelect: false }];

async function planSession(extra: Partial<AgentOptions>) {
  const asked: string[] = [];
  const agent = createAgent({
    model: scriptedModel([turn(toolCall('AskUserQuestion', { questions }, 'q1')), turn(toolCall('ExitPlanMode', { plan: '1. Write it.' }, 'p1')), 'Waiting.']),
    askUserQuestion: true,
    permissionMode: 'plan',
    canUseTool: (name, _input, context) => {
      asked.push(`${name}:${context.reason.type}`);
      return { behavior: 'deny', message: 'Not yet.' };
    },
    ...extra,
  });
  const result = await agent.run('Plan the article.').result;
  return { agent, asked, result };
}

describe('questions and plan approvals are the host’s to answer', () => {
  it('a PreToolUse hook that allows every call still leaves the question and the plan to the host', async () => {
    const { agent, asked } = await planSession({ hooks: { PreToolUse: [{ hook: () => ({ decision: 'allow' }) }] } });
    expect(asked).toEqual(['AskUserQuestion:question', 'ExitPlanMode:plan-approval']);
    expect(agent.permissionMode).toBe('plan');
    expect(agent.plan).toBeUndefined();
  });

  it('a hook that allows read-only tools (both built-ins are) does not approve the plan', async () => {
    const { agent, asked } = await planSession({
      hooks: { PreToolUse: [{ hook: (input) => ((input.tool as { readOnly?: boolean } | undefined)?.readOnly ? { decision: 'allow' } : {}) }] },
    });
    expect(asked).toEqual(['AskUserQuestion:question', 'ExitPlanMode:plan-approval']);
    expect(agent.permissionMode).toBe('plan');
  });

  it('an allow rule naming ExitPlanMode does not approve the plan', async () => {
    const { agent, asked } = await planSession({ rules: { allow: ['AskUserQuestion', 'ExitPlanMode'] } });
    expect(asked).toEqual(['AskUserQuestion:question', 'ExitPlanMode:plan-approval']);
    expect(agent.permissionMode).toBe('plan');
    expect(agent.plan).toBeUndefined();
  });

  it('the host’s approval still approves (the hook’s allow does not get in the way)', async () => {
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('ExitPlanMode', { plan: '1. Write it.' }, 'p1')), 'Executing.']),
      permissionMode: 'plan',
      hooks: { PreToolUse: [{ hook: () => ({ decision: 'allow' }) }] },
      canUseTool: () => ({ behavior: 'allow' }),
    });
    await agent.run('Plan it.').result;
    expect(agent.plan?.text).toContain('Write it.');
    expect(agent.permissionMode).toBe('default');
  });
});
