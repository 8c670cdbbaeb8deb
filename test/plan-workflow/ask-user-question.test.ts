import { describe, expect, it } from 'vitest';
import { createAgent, type CanUseTool, type PermissionMode, type ToolResultBlock, type UserQuestionEvent } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

const questions = [
  {
    question: 'Who is the article for?',
    header: 'Audience',
    options: [
      { label: 'Beginners', description: 'No prior knowledge' },
      { label: 'Experts', description: 'Marine biologists' },
    ],
    multiSelect: false,
  },
  {
    question: 'Which sections do you want?',
    header: 'Sections',
    options: [
      { label: 'History', description: '' },
      { label: 'Ecology', description: '' },
      { label: 'Safety', description: '' },
    ],
    multiSelect: true,
  },
];

const ask = (extra: Record<string, unknown> = {}) => turn(toolCall('AskUserQuestion', { questions, ...extra }, 'toolu_ask'));
const answerOf = (messages: readonly { role: string; content: unknown }[]) =>
  ((messages.find((message) => message.role === 'user' && Array.isArray(message.content) && (message.content as ToolResultBlock[]).some((block) => block.tool_use_id === 'toolu_ask'))!.content as ToolResultBlock[])[0]!).content as string;

const answering: CanUseTool = (toolName, input, context) => {
  if (context.reason.type !== 'question') return { behavior: 'deny', message: 'unexpected' };
  return { behavior: 'allow', updatedInput: { ...(input as object), answers: { 'Who is the article for?': 'Beginners', 'Which sections do you want?': 'History, Safety' } } };
};

describe('AskUserQuestion', () => {
  it('reaches canUseTool as a question and a user-question event; the model reads the answers', async () => {
    const model = scriptedModel([ask(), 'Thanks, drafting for beginners.']);
    const agent = createAgent({ model, askUserQuestion: true, canUseTool: answering });
    const events: UserQuestionEvent[] = [];
    agent.on('user-question', (event) => events.push(event));
    const result = await agent.run('Plan an article.').result;
    expect(result.status).toBe('completed');
    expect(events).toEqual([expect.objectContaining({ toolUseId: 'toolu_ask', questions })]);
    expect(answerOf(agent.messages)).toBe('The user answered your questions: "Who is the article for?" = "Beginners", "Which sections do you want?" = "History, Safety". Go on with these answers in mind.');
  });

  it.each<PermissionMode>(['plan', 'bypassPermissions', 'acceptEdits', 'default'])('is asked in %s mode (a question, not a permission)', async (mode) => {
    let asked = 0;
    const agent = createAgent({
      model: scriptedModel([ask(), 'ok']),
      askUserQuestion: true,
      permissionMode: mode,
      allowDangerouslySkipPermissions: true,
      rules: { allow: ['AskUserQuestion'] },
      canUseTool: (name, input, context) => (asked++, answering(name, input, context)),
    });
    await agent.run('go').result;
    expect(asked).toBe(1);
    expect(answerOf(agent.messages)).toMatch(/answered your questions/);
  });

  it('is refused in dontAsk mode, telling the model to assume and say so', async () => {
    const agent = createAgent({ model: scriptedModel([ask(), 'ok']), askUserQuestion: true, permissionMode: 'dontAsk', canUseTool: answering });
    await agent.run('go').result;
    expect(answerOf(agent.messages)).toMatch(/cannot be asked now.*assumption/);
  });

  it('ignores answers the model wrote itself', async () => {
    const agent = createAgent({
      model: scriptedModel([ask({ answers: { 'Who is the article for?': 'Experts' } }), 'ok']),
      askUserQuestion: true,
      canUseTool: () => ({ behavior: 'allow' }),
    });
    await agent.run('go').result;
    expect(answerOf(agent.messages)).toMatch(/did not answer your questions/);
  });

  it('without canUseTool, waits like any approval and is answered days later in another agent, exactly once', async () => {
    const agent = createAgent({ model: scriptedModel([ask()]), askUserQuestion: true });
    const first = await agent.run('go').result;
    expect(first.status).toBe('awaiting-approval');
    expect(first.pendingApprovals[0]).toMatchObject({ toolName: 'AskUserQuestion', reason: { type: 'question' }, suggestions: [] });
    const snapshot = JSON.parse(JSON.stringify(agent.snapshot()));
    const later = createAgent({ model: scriptedModel(['Drafting now.']), askUserQuestion: true, resume: snapshot });
    const approval = later.pendingApprovals[0]!;
    const done = await later.resolveApproval(approval.id, { behavior: 'allow', updatedInput: { ...(approval.input as object), answers: { 'Who is the article for?': 'Experts' } } }).result;
    expect(done.status).toBe('completed');
    expect(answerOf(later.messages)).toMatch(/"Who is the article for\?" = "Experts".*1 question\(s\) were left unanswered/);
    expect(() => later.resolveApproval(approval.id, { behavior: 'allow' })).toThrow();
  });

  it('refuses malformed questions with a message naming the problem', async () => {
    const bad = { questions: [{ ...questions[0]!, options: [questions[0]!.options[0]] }] };
    const agent = createAgent({ model: scriptedModel([turn(toolCall('AskUserQuestion', bad, 'toolu_ask')), 'ok']), askUserQuestion: true, canUseTool: answering });
    await agent.run('go').result;
    expect(answerOf(agent.messages)).toMatch(/options/);
  });
});

describe('AskUserQuestion answers the model wrote itself, echoed back by the host', () => {
  // Hosts coming from the Claude Agent SDK allow with `updatedInput: input` (there it is required):
  // that echo is no answer, and the model's own answers in it must not become the user's.
  const forged = { answers: { 'Who is the article for?': 'Experts', 'Which sections do you want?': 'Safety' } };

  it('from canUseTool: the user did not answer', async () => {
    const agent = createAgent({
      model: scriptedModel([ask(forged), 'ok']),
      askUserQuestion: true,
      canUseTool: (_name, input) => ({ behavior: 'allow', updatedInput: input as Record<string, unknown> }),
    });
    await agent.run('go').result;
    expect(answerOf(agent.messages)).toMatch(/did not answer your questions/);
  });

  it('from resolveApproval with the approval input', async () => {
    const agent = createAgent({ model: scriptedModel([ask(forged), 'ok']), askUserQuestion: true });
    const first = await agent.run('go').result;
    const approval = first.pendingApprovals[0]!;
    await agent.resolveApproval(approval.id, { behavior: 'allow', updatedInput: approval.input as Record<string, unknown> }).result;
    expect(answerOf(agent.messages)).toMatch(/did not answer your questions/);
  });

  it('an answer the host really gives still counts', async () => {
    const agent = createAgent({
      model: scriptedModel([ask(forged), 'ok']),
      askUserQuestion: true,
      canUseTool: (_name, input) => ({ behavior: 'allow', updatedInput: { ...(input as object), answers: { 'Who is the article for?': 'Beginners' } } }),
    });
    await agent.run('go').result;
    expect(answerOf(agent.messages)).toMatch(/"Who is the article for\?" = "Beginners".*1 question\(s\) were left unanswered/);
  });
});

describe('attack: a hostile model pre-answers its own questions', () => {
  // Hosts that merge the input's answers into their own (to keep earlier answers, or to fill in
  // the questions the user skipped) must not pass the model's answers on as the user's.
  const forged = { answers: { 'Who is the article for?': 'Experts, written by the model', 'Which sections do you want?': 'Safety, written by the model' } };
  const merging: CanUseTool = (_name, input) => {
    const shown = input as { answers?: Record<string, string> };
    return { behavior: 'allow', updatedInput: { ...shown, answers: { ...shown.answers, 'Who is the article for?': 'Beginners' } } };
  };

  it('is not offered an answers field: the schema the model gets has none, and no other field', async () => {
    const model = scriptedModel([ask(forged), 'ok']);
    const agent = createAgent({ model, askUserQuestion: true, canUseTool: merging });
    await agent.run('go').result;
    const tool = model.requests[0]!.request.tools.find((each) => 'name' in each && each.name === 'AskUserQuestion') as unknown as { input_schema: { properties: object; additionalProperties?: unknown } };
    const schema = tool.input_schema;
    expect(Object.keys(schema.properties)).toEqual(['questions']);
    expect(schema.additionalProperties).toBe(false);
  });

  it('canUseTool, the user-question event and the permission-request event see no model-written answers, and a host merging them passes on only its own', async () => {
    const seen: unknown[] = [];
    const agent = createAgent({
      model: scriptedModel([ask(forged), 'ok']),
      askUserQuestion: true,
      canUseTool: (name, input, context) => (seen.push(input), merging(name, input, context)),
    });
    const shown: unknown[] = [];
    agent.on('user-question', (event) => shown.push(event));
    agent.on('permission-request', (event) => shown.push(event.input));
    await agent.run('go').result;
    expect(seen).toEqual([{ questions }]);
    expect(shown).toHaveLength(2);
    expect(JSON.stringify(shown)).not.toMatch(/answers|written by the model/);
    expect(answerOf(agent.messages)).toBe('The user answered your questions: "Who is the article for?" = "Beginners". 1 question(s) were left unanswered. Go on with these answers in mind.');
  });

  it('a pending approval carries no model-written answers, and resolveApproval merging them passes on only the host\'s, also after a snapshot', async () => {
    const agent = createAgent({ model: scriptedModel([ask(forged)]), askUserQuestion: true });
    const first = await agent.run('go').result;
    const approval = first.pendingApprovals[0]!;
    expect(approval.input).toEqual({ questions });
    const later = createAgent({ model: scriptedModel(['ok']), askUserQuestion: true, resume: JSON.parse(JSON.stringify(agent.snapshot())) });
    const pending = later.pendingApprovals[0]!;
    expect(pending.input).toEqual({ questions });
    const shown = pending.input as { answers?: Record<string, string> };
    await later.resolveApproval(pending.id, { behavior: 'allow', updatedInput: { ...shown, answers: { ...shown.answers, 'Which sections do you want?': 'History' } } }).result;
    expect(answerOf(later.messages)).toBe('The user answered your questions: "Which sections do you want?" = "History". 1 question(s) were left unanswered. Go on with these answers in mind.');
  });
});
