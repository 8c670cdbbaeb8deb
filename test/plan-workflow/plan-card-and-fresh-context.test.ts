// The plan card and the fresh context, attacked: a plan that renders as nothing (blanks, zero-width
// characters), from the model or from the host's edit, is never approved; the user's answers to
// questions asked in the same answer as the plan reach the fresh context that carries it out.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memorySessionStore, type AgentEvent, type CanUseTool, type ToolResultBlock } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

const read = defineTool({ name: 'read', description: 'Reads.', inputSchema: z.object({ path: z.string() }), readOnly: true, execute: ({ input }) => `contents of ${input.path}` });
const PLAN = '# Plan\n1. Read the notes\n2. Write the draft';

const resultOf = (messages: readonly { role: string; content: unknown }[], id: string) =>
  messages.flatMap((message) => (Array.isArray(message.content) ? (message.content as ToolResultBlock[]) : [])).find((block) => block.type === 'tool_result' && block.tool_use_id === id);

describe('attack: a blank plan', () => {
  it.each([
    ['spaces and newlines', ' \n\t \n'],
    ['zero-width and bidi characters', '\u200b\u202e\ufeff \u2060'],
  ])('of %s from the model: refused before the host is asked, no card, nothing saved, still planning', async (_label, plan) => {
    let asked = 0;
    const events: AgentEvent[] = [];
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('ExitPlanMode', { plan }, 'toolu_plan')), 'Revising.']),
      tools: [read],
      permissionMode: 'plan',
      canUseTool: () => (asked++, { behavior: 'allow' }),
    });
    agent.on('plan-approval-request', (event) => events.push(event));
    agent.on('plan-approved', (event) => events.push(event));
    const result = await agent.run('plan it').result;
    expect(result.status).toBe('completed');
    expect(asked).toBe(0);
    expect(events).toEqual([]);
    expect(agent.plan).toBeUndefined();
    expect(agent.permissionMode).toBe('plan');
    expect(resultOf(agent.messages, 'toolu_plan')).toMatchObject({ is_error: true, content: expect.stringContaining('The plan is blank') });
  });

  it("from the host's edit: not approved, nothing saved, still planning, the model told the edit was refused", async () => {
    const canUseTool: CanUseTool = (_name, _input, context) =>
      context.reason.type === 'plan-approval' ? { behavior: 'allow', updatedInput: { plan: ' \u200b\n' } } : { behavior: 'allow' };
    const approved: AgentEvent[] = [];
    const agent = createAgent({ model: scriptedModel([turn(toolCall('ExitPlanMode', { plan: PLAN }, 'toolu_plan')), 'Waiting.']), tools: [read], permissionMode: 'plan', canUseTool });
    agent.on('plan-approved', (event) => approved.push(event));
    await agent.run('plan it').result;
    expect(approved).toEqual([]);
    expect(agent.plan).toBeUndefined();
    expect(agent.permissionMode).toBe('plan');
    expect(resultOf(agent.messages, 'toolu_plan')).toMatchObject({ is_error: true, content: expect.stringContaining('The plan is blank') });
  });

  it('a plan with text among the hidden characters is still a plan', async () => {
    const agent = createAgent({ model: scriptedModel([turn(toolCall('ExitPlanMode', { plan: '\u200b1. Write' }, 'toolu_plan')), 'Done.']), tools: [read], permissionMode: 'plan', canUseTool: () => ({ behavior: 'allow' }) });
    await agent.run('plan it').result;
    expect(agent.plan?.text).toBe('\u200b1. Write');
    expect(agent.permissionMode).toBe('default');
  });
});

const question = { question: 'Which audience?', header: 'Audience', options: [{ label: 'Experts', description: 'Deep detail' }, { label: 'Kids', description: 'Plain words' }], multiSelect: false };
const answer = { behavior: 'allow', updatedInput: { questions: [question], answers: { 'Which audience?': 'Kids' } } } as const;

describe('attack: a question asked beside the plan, the plan approved into a fresh context', () => {
  it.each([
    ['the question first', () => [toolCall('AskUserQuestion', { questions: [question] }, 'toolu_q'), toolCall('ExitPlanMode', { plan: PLAN }, 'toolu_plan')]],
    ['the plan first', () => [toolCall('ExitPlanMode', { plan: PLAN }, 'toolu_plan'), toolCall('AskUserQuestion', { questions: [question] }, 'toolu_q')]],
  ])('%s, answered through canUseTool: the fresh context holds the plan and the answer, not the exploration', async (_label, calls) => {
    const model = scriptedModel([turn(toolCall('read', { path: 'notes.md' }, 'toolu_read')), turn(...calls()), 'Writing for kids.']);
    const canUseTool: CanUseTool = (_name, _input, context) =>
      context.reason.type === 'plan-approval' ? { behavior: 'allow', clearContext: true } : context.reason.type === 'question' ? answer : { behavior: 'allow' };
    const agent = createAgent({ model, tools: [read], askUserQuestion: true, permissionMode: 'plan', canUseTool });
    const result = await agent.run('plan the article').result;
    expect(result.status).toBe('completed');
    const fresh = model.requests[2]!.messages;
    expect(fresh).toHaveLength(1);
    const text = JSON.stringify(fresh[0]!.content);
    expect(text).toContain('1. Read the notes');
    expect(text).toContain('\\"Which audience?\\" = \\"Kids\\"');
    expect(text).not.toContain('contents of notes.md');
  });

  it('both deferred and answered later in another agent resumed from the store, the plan answered first: the answer is there too', async () => {
    const store = memorySessionStore();
    const calls = [toolCall('AskUserQuestion', { questions: [question] }, 'toolu_q'), toolCall('ExitPlanMode', { plan: PLAN }, 'toolu_plan')];
    const first = createAgent({ model: scriptedModel([turn(...calls)]), tools: [read], askUserQuestion: true, permissionMode: 'plan', store });
    expect((await first.run('plan the article').result).status).toBe('awaiting-approval');
    await first.close();
    const model = scriptedModel(['Writing for kids.']);
    const second = createAgent({ model, tools: [read], askUserQuestion: true, store, resume: first.sessionId });
    await second.ready;
    const plan = second.pendingApprovals.find((approval) => approval.toolName === 'ExitPlanMode')!;
    const asked = second.pendingApprovals.find((approval) => approval.toolName === 'AskUserQuestion')!;
    expect((await second.resolveApproval(plan.id, { behavior: 'allow', clearContext: true }).result).status).toBe('awaiting-approval');
    expect((await second.resolveApproval(asked.id, answer).result).status).toBe('completed');
    const fresh = model.requests[0]!.messages;
    expect(fresh).toHaveLength(1);
    expect(JSON.stringify(fresh[0]!.content)).toContain('\\"Which audience?\\" = \\"Kids\\"');
  });
});
