// Attack class: the plan workflow end to end — questions the model asks while planning, the
// approval (with and without a fresh context), an interrupt or a crash between the approval and
// the first execute turn, the plan's name and store, recovery from tampered transcripts, the todo
// handoff across resume and fork, and the events a host draws its plan card and todo list from.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createAgent,
  createPlanPhase,
  defineTool,
  memoryPlanStore,
  memorySessionStore,
  planToTodos,
  recoverPlan,
  recoverTodos,
  requestPlan,
  type AgentEvent,
  type CanUseTool,
  type PlanStore,
  type SessionEntry,
  type SessionStore,
  type ToolResultBlock,
} from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { deferred } from '../helpers.js';

const read = defineTool({ name: 'read', description: 'Reads.', inputSchema: z.object({ path: z.string() }), readOnly: true, execute: ({ input }) => `contents of ${input.path}` });
const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ path: z.string() }), kind: 'edit', execute: ({ input }) => `wrote ${input.path}` });
const tools = [read, write];
const PLAN = '# Plan\n1. Read the notes\n2. Write the draft';

const allowAll: CanUseTool = () => ({ behavior: 'allow' });
const approveFresh: CanUseTool = (_name, _input, context) => (context.reason.type === 'plan-approval' ? { behavior: 'allow', clearContext: true } : { behavior: 'allow' });

const resultOf = (messages: readonly { role: string; content: unknown }[], id: string) =>
  messages.flatMap((message) => (Array.isArray(message.content) ? (message.content as ToolResultBlock[]) : [])).find((block) => block.type === 'tool_result' && block.tool_use_id === id);

/** The planning turns: read the notes, present the plan. */
const planningTurns = () => [turn(toolCall('read', { path: 'notes.md' }, 'toolu_read')), turn(toolCall('ExitPlanMode', { plan: PLAN }, 'toolu_plan'))];

const question = (text: string, labels = ['Yes', 'No']) => ({
  question: text,
  header: 'Choice',
  options: labels.map((label) => ({ label, description: `means ${label}` })),
  multiSelect: false,
});

describe('attack: the events of the plan card, in order, with their fields', () => {
  it('plan-approval-request, then plan-approved with the name, then the mode change out of plan mode; the tool result last', async () => {
    const events: AgentEvent[] = [];
    const agent = createAgent({ model: scriptedModel([...planningTurns(), 'Executing.']), tools, permissionMode: 'plan', canUseTool: allowAll });
    for (const type of ['plan-approval-request', 'plan-approved', 'mode-change', 'tool-result'] as const) agent.on(type, (event) => events.push(event));
    await agent.run('plan it').result;
    const relevant = events.filter((event) => event.type !== 'tool-result' || event.toolUseId === 'toolu_plan');
    expect(relevant.map((event) => event.type)).toEqual(['plan-approval-request', 'plan-approved', 'mode-change', 'tool-result']);
    expect(relevant[0]).toMatchObject({ toolUseId: 'toolu_plan', plan: PLAN });
    expect(relevant[1]).toMatchObject({ toolUseId: 'toolu_plan', plan: PLAN, name: agent.plan!.name });
    expect(relevant[2]).toMatchObject({ from: 'plan', to: 'default', reason: 'plan-approved' });
  });

  it('a user-question event reaches the host before canUseTool is asked, with the call id, as a copy a listener cannot change', async () => {
    const order: string[] = [];
    let seenId: string | undefined;
    const asked = question('Which audience?', ['Experts', 'Beginners']);
    const canUseTool: CanUseTool = (_name, input, context) => {
      order.push('canUseTool');
      seenId = context.toolUseId;
      return context.reason.type === 'question' ? { behavior: 'allow', updatedInput: { ...(input as object), answers: { 'Which audience?': 'Experts' } } } : { behavior: 'allow' };
    };
    const model = scriptedModel([turn(toolCall('AskUserQuestion', { questions: [asked] }, 'toolu_q')), 'ok']);
    const agent = createAgent({ model, askUserQuestion: true, permissionMode: 'plan', canUseTool });
    agent.on('user-question', (event) => {
      order.push(`user-question:${event.toolUseId}`);
      event.questions[0]!.question = 'Tampered?';
    });
    await agent.run('plan').result;
    expect(order).toEqual(['user-question:toolu_q', 'canUseTool']);
    expect(seenId).toBe('toolu_q');
    expect(resultOf(agent.messages, 'toolu_q')!.content).toContain('"Which audience?" = "Experts"');
  });
});

describe('attack: hostile questions in plan mode', () => {
  it.each([
    ['five options', { questions: [question('Pick?', ['a', 'b', 'c', 'd', 'e'])] }],
    ['a label of 81 characters', { questions: [question('Pick?', ['x'.repeat(81), 'y'])] }],
    ['duplicate labels', { questions: [question('Pick?', ['Same', 'Same'])] }],
    ['the same question twice', { questions: [question('Pick?'), question('Pick?')] }],
    ['five questions', { questions: ['a?', 'b?', 'c?', 'd?', 'e?'].map((text) => question(text)) }],
    ['options that are not objects', { questions: [{ question: 'Pick?', header: 'H', options: ['a', 'b'], multiSelect: false }] }],
  ])('%s: refused before the host is asked, the model told why, still in plan mode', async (_label, input) => {
    let asked = 0;
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('AskUserQuestion', input, 'toolu_q')), 'ok']),
      askUserQuestion: true,
      permissionMode: 'plan',
      canUseTool: () => (asked++, { behavior: 'allow' }),
    });
    const events: AgentEvent[] = [];
    agent.on('user-question', (event) => events.push(event));
    await agent.run('plan').result;
    expect(asked).toBe(0);
    expect(events).toEqual([]);
    expect(resultOf(agent.messages, 'toolu_q')).toMatchObject({ is_error: true });
    expect(agent.permissionMode).toBe('plan');
  });

  it.each(['constructor', 'toString', 'hasOwnProperty'])('a question whose text is %j gets the answer the host gave', async (text) => {
    const canUseTool: CanUseTool = (_name, input, context) =>
      context.reason.type === 'question' ? { behavior: 'allow', updatedInput: { ...(input as object), answers: Object.fromEntries([[text, 'Yes']]) } } : { behavior: 'allow' };
    const agent = createAgent({ model: scriptedModel([turn(toolCall('AskUserQuestion', { questions: [question(text)] }, 'toolu_q')), 'ok']), askUserQuestion: true, permissionMode: 'plan', canUseTool });
    await agent.run('plan').result;
    expect(resultOf(agent.messages, 'toolu_q')!.content).toContain(`"${text}" = "Yes"`);
  });

  it('a question whose text is "__proto__" (an answer the host gives it would be lost) is refused before the host is asked', async () => {
    let asked = 0;
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('AskUserQuestion', { questions: [question('__proto__')] }, 'toolu_q')), 'ok']),
      askUserQuestion: true,
      permissionMode: 'plan',
      canUseTool: () => (asked++, { behavior: 'allow' }),
    });
    await agent.run('plan').result;
    expect(asked).toBe(0);
    expect(resultOf(agent.messages, 'toolu_q')).toMatchObject({ is_error: true, content: expect.stringContaining('"__proto__"') });
  });

  it('an answer that arrives after the run was interrupted is not shown to the model as the user\'s answer', async () => {
    const answer = deferred<{ behavior: 'allow'; updatedInput: unknown }>();
    const waiting = deferred();
    const canUseTool: CanUseTool = (_name, input) => {
      waiting.resolve();
      return answer.promise.then(() => ({ behavior: 'allow', updatedInput: { ...(input as object), answers: { 'Pick?': 'Yes' } } }) as const);
    };
    const model = scriptedModel([turn(toolCall('AskUserQuestion', { questions: [question('Pick?')] }, 'toolu_q')), 'ok', 'ok']);
    const agent = createAgent({ model, askUserQuestion: true, permissionMode: 'plan', canUseTool });
    const run = agent.run('plan');
    await waiting.promise;
    agent.interrupt();
    answer.resolve({ behavior: 'allow', updatedInput: {} });
    const result = await run.result;
    expect(result.status).toBe('interrupted');
    expect(JSON.stringify(resultOf(agent.messages, 'toolu_q'))).not.toContain('"Pick?" = "Yes"');
    expect(agent.pendingApprovals).toEqual([]);
    // The next run does not ask again nor run the old answer.
    await agent.run('go on').result;
    expect(JSON.stringify(agent.messages)).not.toContain('"Pick?" = "Yes"');
  });

  it('a deferred question answered in another agent resumed from the store gets the answer there, once', async () => {
    const store = memorySessionStore();
    const first = createAgent({ model: scriptedModel([turn(toolCall('AskUserQuestion', { questions: [question('Pick?')] }, 'toolu_q'))]), askUserQuestion: true, permissionMode: 'plan', store });
    expect((await first.run('plan').result).status).toBe('awaiting-approval');
    await first.close();
    const second = createAgent({ model: scriptedModel(['Thanks.']), askUserQuestion: true, store, resume: first.sessionId });
    await second.ready;
    const [pending] = second.pendingApprovals;
    expect(pending).toMatchObject({ toolName: 'AskUserQuestion', reason: { type: 'question' } });
    await second.resolveApproval(pending!.id, { behavior: 'allow', updatedInput: { ...(pending!.input as object), answers: { 'Pick?': 'No' } } }).result;
    expect(resultOf(second.messages, 'toolu_q')!.content).toContain('"Pick?" = "No"');
    expect(second.permissionMode).toBe('plan');
    expect(() => second.resolveApproval(pending!.id, { behavior: 'allow' })).toThrow();
  });
});

/** A session store a test can "kill": once frozen, appends never land (the process died). */
function killableStore() {
  const inner = memorySessionStore();
  let frozen = false;
  const store: SessionStore = {
    ...inner,
    append: (sessionId, entries, options) => (frozen ? new Promise<never>(() => {}) : inner.append(sessionId, entries, options)),
  };
  return { store, inner, kill: () => (frozen = true) };
}

/**
 * A plan-mode agent whose process dies right after the plan store took its approved plan: nothing
 * written after that lands. Resolves once it died, with what the next process finds.
 */
async function killedOnceThePlanIsSaved(canUseTool: CanUseTool, onAgent?: (agent: ReturnType<typeof createAgent>) => void) {
  const { store, inner, kill } = killableStore();
  const plans = memoryPlanStore();
  const saved = deferred();
  const dying: PlanStore = { ...plans, write: async (name, text) => (await plans.write(name, text), kill(), saved.resolve()) };
  const agent = createAgent({ model: scriptedModel([...planningTurns(), 'never']), tools, permissionMode: 'plan', canUseTool, store, planStore: dying });
  onAgent?.(agent);
  void agent.run('plan it');
  await saved.promise;
  return { agent, inner, plans };
}

describe('attack: stopped between the approval and the first execute turn', () => {
  it('interrupted once the plan is approved: the next run executes, nothing asked again, approved once', async () => {
    const store = memorySessionStore();
    const model = scriptedModel([...planningTurns()]);
    const approvals: AgentEvent[] = [];
    const agent = createAgent({ model, tools, permissionMode: 'plan', canUseTool: allowAll, store });
    agent.on('plan-approved', () => agent.interrupt());
    agent.on('plan-approval-request', (event) => approvals.push(event));
    const result = await agent.run('plan it').result;
    expect(result.status).toBe('interrupted');
    expect(agent.permissionMode).toBe('default');
    expect(resultOf(agent.messages, 'toolu_plan')).toMatchObject({ content: expect.stringContaining('approved your plan') });
    await agent.close();

    const next = scriptedModel([turn(toolCall('write', { path: 'draft.md' }, 'toolu_write')), 'Done.']);
    const resumed = createAgent({ model: next, tools, store, resume: agent.sessionId, canUseTool: allowAll });
    resumed.on('plan-approval-request', (event) => approvals.push(event));
    const after = await resumed.run('go on').result;
    expect(after.status).toBe('completed');
    expect(approvals).toHaveLength(1);
    expect(resumed.plan?.text).toBe(PLAN);
    expect(resultOf(resumed.messages, 'toolu_write')).toMatchObject({ content: 'wrote draft.md' });
  });

  it('with a fresh context: interrupted once approved, the resumed run starts from the plan, not the exploration', async () => {
    const store = memorySessionStore();
    const agent = createAgent({ model: scriptedModel([...planningTurns()]), tools, permissionMode: 'plan', canUseTool: approveFresh, store });
    agent.on('plan-approved', () => agent.interrupt());
    expect((await agent.run('plan it').result).status).toBe('interrupted');
    await agent.close();

    const next = scriptedModel(['Executing.']);
    const resumed = createAgent({ model: next, tools, store, resume: agent.sessionId, canUseTool: approveFresh });
    await resumed.run('go on').result;
    const sent = JSON.stringify(next.requests[0]!.messages);
    expect(sent).toContain('Read the notes');
    expect(sent).toContain('go on');
    expect(sent).not.toContain('contents of notes.md');
    expect(resumed.permissionMode).toBe('default');
  });

  it.each(['run', 'continue'] as const)('killed once the approved plan was saved, before its result was stored: on resume (%s) the approval holds, the plan is not asked for again', async (how) => {
    const { agent, inner, plans } = await killedOnceThePlanIsSaved(allowAll);

    const next = scriptedModel([turn(toolCall('write', { path: 'draft.md' }, 'toolu_write')), 'Done.']);
    const approvals: AgentEvent[] = [];
    const resumed = createAgent({ model: next, tools, store: inner, planStore: plans, resume: agent.sessionId, canUseTool: allowAll });
    resumed.on('plan-approval-request', (event) => approvals.push(event));
    await resumed.ready;
    expect(resumed.pendingApprovals).toEqual([]);
    const result = await (how === 'run' ? resumed.run('go on') : resumed.continue()).result;
    expect(result.status).toBe('completed');
    expect(approvals).toEqual([]);
    expect(resumed.plan?.text).toBe(PLAN);
    expect(resultOf(resumed.messages, 'toolu_plan')).toMatchObject({ content: expect.stringContaining('approved your plan') });
    expect(resultOf(resumed.messages, 'toolu_plan')!.is_error).toBeUndefined();
    expect(resultOf(resumed.messages, 'toolu_write')).toMatchObject({ content: 'wrote draft.md' });
    expect(await plans.list()).toEqual([resumed.plan!.name]);
  });
});

describe('attack: a fresh context keeps what was promised and only that', () => {
  it('approved while another call of the batch waits; answered in another agent from the snapshot: the fresh context starts there', async () => {
    const model = scriptedModel([turn(toolCall('read', { path: 'secret-notes.md' }, 'toolu_read'), toolCall('ExitPlanMode', { plan: PLAN }, 'toolu_plan'))]);
    // The read waits for the host; the plan is approved with a fresh context at once.
    const canUseTool: CanUseTool = (name, _input, context) => (context.reason.type === 'plan-approval' ? { behavior: 'allow', clearContext: true } : { behavior: 'defer' });
    const readAsks = defineTool({
      name: 'read',
      description: 'Reads.',
      inputSchema: z.object({ path: z.string() }),
      readOnly: true,
      checkPermissions: () => ({ behavior: 'ask', message: 'Read?' }),
      execute: ({ input }) => `contents of ${input.path}`,
    });
    const agent = createAgent({ model, tools: [readAsks, write], permissionMode: 'plan', canUseTool });
    agent.setTodos([{ content: 'Write the draft', status: 'pending', activeForm: 'Writing the draft' }]);
    const first = await agent.run('plan it').result;
    expect(first.status).toBe('awaiting-approval');
    const next = scriptedModel(['Executing.']);
    const resumed = createAgent({ model: next, tools: [readAsks, write], resume: JSON.parse(JSON.stringify(agent.snapshot())), canUseTool });
    await resumed.resolveApproval(resumed.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
    const sent = next.requests[0]!.messages;
    expect(sent).toHaveLength(1);
    const text = JSON.stringify(sent);
    expect(text).toContain('Read the notes');
    expect(text).toContain('Write the draft');
    expect(text).not.toContain('secret-notes.md');
    expect(resumed.plan?.text).toBe(PLAN);
  });
});

describe('attack: two sessions save their first plan at once into one store', () => {
  it('each gets its own name: neither plan overwrites the other', async () => {
    const plans = memoryPlanStore();
    const crypto = globalThis.crypto;
    const original = crypto.getRandomValues.bind(crypto);
    // The two sessions draw the same first slug (each slug takes three numbers), then others.
    let draws = 0;
    crypto.getRandomValues = (<T extends ArrayBufferView | null>(array: T) => {
      if (array instanceof Uint32Array) array.fill((Math.floor(draws++ / 6) * 0x0b0b_0b0b) % 0x1_0000_0000);
      return array;
    }) as typeof crypto.getRandomValues;
    try {
      const one = createAgent({ model: scriptedModel([]), planStore: plans });
      const two = createAgent({ model: scriptedModel([]), planStore: plans });
      const [first, second] = await Promise.all([one.savePlan('Plan of one'), two.savePlan('Plan of two')]);
      expect(first.name).not.toBe(second.name);
      expect(await plans.read(first.name)).toBe('Plan of one');
      expect(await plans.read(second.name)).toBe('Plan of two');
      expect(one.plan?.name).toBe(first.name);
      expect(two.plan?.name).toBe(second.name);
    } finally {
      crypto.getRandomValues = original;
    }
  });
});

describe('attack: recoverPlan on tampered or truncated transcripts', () => {
  const approvedCall = (plan: unknown): SessionEntry[] =>
    [
      { kind: 'message', message: { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_plan', name: 'ExitPlanMode', input: { plan } }] } },
      { kind: 'message', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_plan', content: 'approved' }] } },
    ] as never;

  it('entries that are not whole (null, wrong kinds, wrong field types) are passed over, and the plan is still found', async () => {
    const tampered = [
      null,
      42,
      'text',
      { kind: 'plan-reference', name: 42 },
      { kind: 'plan-snapshot', text: 7, name: {} },
      { kind: 'session-meta', slug: { evil: true } },
      { kind: 'message', message: null },
      { kind: 'message', message: { role: 'user', content: [null, 5, { type: 'tool_result' }] } },
      ...approvedCall(PLAN),
    ] as unknown as SessionEntry[];
    const recovered = await recoverPlan({ entries: tampered, store: memoryPlanStore() });
    expect(recovered).toMatchObject({ text: PLAN, source: 'exit-plan-mode' });
  });

  it('a slug in the transcript that points outside the store is never read', async () => {
    const reads: string[] = [];
    const plans = memoryPlanStore({ initial: { 'passwd.md': 'not a plan of this session' } });
    const watching: PlanStore = { ...plans, read: (name) => (reads.push(name), plans.read(name)) };
    const entries = [{ kind: 'session-meta', slug: '../../etc/passwd' }, ...approvedCall(PLAN)] as unknown as SessionEntry[];
    const recovered = await recoverPlan({ entries, store: watching });
    expect(recovered).toMatchObject({ text: PLAN, source: 'exit-plan-mode' });
    expect(reads).toEqual([]);
  });

  it('a plan that is not a string in an approved ExitPlanMode call is passed over for an earlier good one', async () => {
    const entries = [...approvedCall(PLAN), ...approvedCall({ toString: 'evil' }).map((entry) => JSON.parse(JSON.stringify(entry).replaceAll('toolu_plan', 'toolu_plan2')))] as SessionEntry[];
    expect(await recoverPlan({ entries })).toMatchObject({ text: PLAN });
  });
});

describe('attack: todos across resume, fork and a fresh context', () => {
  it('survive a resume from the store and a fork; the fork\'s changes stay its own', async () => {
    const store = memorySessionStore();
    const todos = [
      { content: 'Write the intro', status: 'completed' as const, activeForm: 'Writing the intro' },
      { content: 'Write the intro', status: 'in_progress' as const, activeForm: 'Writing the intro again' },
      { content: 'Review', status: 'in_progress' as const, activeForm: 'Reviewing' },
    ];
    const model = scriptedModel([turn(toolCall('TodoWrite', { todos }, 'toolu_todo')), 'Noted.']);
    const agent = createAgent({ model, store });
    await agent.run('track').result;
    await agent.close();
    const resumed = createAgent({ model: scriptedModel([turn(toolCall('TodoWrite', { todos: [] }, 'toolu_clear')), 'Cleared.']), store, resume: agent.sessionId });
    await resumed.ready;
    expect(resumed.todos).toEqual(todos);
    const fork = await resumed.fork();
    expect(fork.todos).toEqual(todos);
    await fork.run('clear').result;
    expect(fork.todos).toEqual([]);
    expect(resumed.todos).toEqual(todos);
  });

  it('a host list that is invalid is refused by setTodos, the list and the events untouched', () => {
    const agent = createAgent({ model: scriptedModel([]) });
    const events: AgentEvent[] = [];
    agent.on('todo-update', (event) => events.push(event));
    agent.setTodos([{ content: 'A', status: 'pending', activeForm: 'Doing A' }]);
    for (const bad of [[{ content: '', status: 'pending', activeForm: 'x' }], [{ content: 'A', status: 'done', activeForm: 'x' }], [null], 'list']) {
      expect(() => agent.setTodos(bad as never)).toThrow(/todos/);
    }
    expect(agent.todos).toEqual([{ content: 'A', status: 'pending', activeForm: 'Doing A' }]);
    expect(events).toHaveLength(1);
  });

  it('todo-update events carry the full list, the previous one and the changes, in the order the model wrote them', async () => {
    const step = (statuses: Array<'pending' | 'in_progress' | 'completed'>) => ({ todos: statuses.map((status, index) => ({ content: `Step ${index + 1}`, status, activeForm: `Doing step ${index + 1}` })) });
    // Completed out of order: step 2 before step 1.
    const model = scriptedModel([turn(toolCall('TodoWrite', step(['pending', 'pending']), 't1')), turn(toolCall('TodoWrite', step(['pending', 'completed']), 't2')), turn(toolCall('TodoWrite', step(['completed', 'completed']), 't3')), 'Done.']);
    const agent = createAgent({ model });
    const events: Extract<AgentEvent, { type: 'todo-update' }>[] = [];
    agent.on('todo-update', (event) => events.push(event));
    await agent.run('go').result;
    expect(events.map((event) => event.todos.map((todo) => todo.status))).toEqual([
      ['pending', 'pending'],
      ['pending', 'completed'],
      ['completed', 'completed'],
    ]);
    expect(events[1]!.previous.map((todo) => todo.status)).toEqual(['pending', 'pending']);
    expect(events[1]!.changes).toMatchObject({ added: [], removed: [] });
    expect(JSON.stringify(events[2]!.changes)).toContain('Step 1');
  });
});

describe('attack: verifyPlanOnCompletion and a second plan in the same session', () => {
  const verdict = JSON.stringify({ verdict: 'compliant', summary: 'Done as planned.', steps: [{ step: 'Write', status: 'done', evidence: 'write ran' }] });
  const done = (content: string) => ({ todos: [{ content, status: 'completed', activeForm: content }] });

  it('a plan approved after the first one was carried out and verified is verified too', async () => {
    const model = scriptedModel([
      turn(toolCall('ExitPlanMode', { plan: '1. Write the intro.' }, 'p1')),
      turn(toolCall('TodoWrite', done('Write the intro'), 't1')),
      'Intro done.',
      verdict,
    ]);
    const agent = createAgent({ model, tools, permissionMode: 'plan', canUseTool: allowAll, verifyPlanOnCompletion: true });
    const first = await agent.run('plan the intro').result;
    expect(first.planVerification).toMatchObject({ verdict: 'compliant' });

    agent.setPermissionMode('plan');
    model.push(turn(toolCall('ExitPlanMode', { plan: '1. Write the conclusion.' }, 'p2')), turn(toolCall('TodoWrite', done('Write the conclusion'), 't2')), 'Conclusion done.', verdict);
    const second = await agent.run('plan the conclusion').result;
    expect(agent.plan?.text).toBe('1. Write the conclusion.');
    expect(second.planVerification).toMatchObject({ verdict: 'compliant' });
    expect(JSON.stringify(model.requests.at(-1)!.messages)).toContain('1. Write the conclusion.');
  });
});

describe('attack: the todo handoff of a plan a hostile model wrote', () => {
  it('a step whose title is blank is sent back as invalid, so planToTodos never hands setTodos an empty todo', async () => {
    const blank = { goal: 'Write the article.', outline: ['Intro'], steps: [{ title: 'Draft the intro' }, { title: '   ' }], risks: [] };
    const good = { ...blank, steps: [{ title: 'Draft the intro' }, { title: 'Review it' }] };
    const model = scriptedModel([JSON.stringify(blank), JSON.stringify(good)]);
    const phase = createPlanPhase();
    const agent = createAgent({ model, permissionMode: 'acceptEdits', hooks: { ...phase.hooks } });
    phase.begin();
    const { plan, attempts } = await requestPlan(agent, { phase });
    expect(attempts).toBe(2);
    expect(() => agent.setTodos(planToTodos(plan))).not.toThrow();
    expect(agent.todos.map((todo) => todo.content)).toEqual(['Draft the intro', 'Review it']);
  });

  it('duplicate step titles become duplicate todos, each tracked on its own', async () => {
    const plan = { goal: 'g', outline: [], steps: [{ title: 'Review' }, { title: 'Review' }], risks: [] };
    const agent = createAgent({ model: scriptedModel([turn(toolCall('TodoWrite', { todos: [{ content: 'Review', status: 'completed', activeForm: 'Reviewing' }, { content: 'Review', status: 'pending', activeForm: 'Reviewing' }] }, 't1')), 'ok']) });
    agent.setTodos(planToTodos(plan));
    const events: Extract<AgentEvent, { type: 'todo-update' }>[] = [];
    agent.on('todo-update', (event) => events.push(event));
    await agent.run('go').result;
    expect(agent.todos.map((todo) => todo.status)).toEqual(['completed', 'pending']);
    expect(events[0]!.changes).toMatchObject({ added: [], removed: [], changed: true });
    expect(events[0]!.changes.statusChanges).toEqual([expect.objectContaining({ from: 'pending', to: 'completed' })]);
  });
});

describe('attack: odd but legal answers to a plan approval', () => {
  it.each([
    ['an empty plan', { plan: '' }],
    ['a plan that is not text', { plan: 42 }],
    ['no plan at all', {}],
  ])('an edit to %s is not run: nothing saved, still planning, the model told why', async (_label, updatedInput) => {
    const approved: AgentEvent[] = [];
    const agent = createAgent({
      model: scriptedModel([...planningTurns(), 'Revising.']),
      tools,
      permissionMode: 'plan',
      canUseTool: (_name, _input, context) => (context.reason.type === 'plan-approval' ? { behavior: 'allow', updatedInput } : { behavior: 'allow' }),
    });
    agent.on('plan-approved', (event) => approved.push(event));
    await agent.run('plan it').result;
    expect(approved).toEqual([]);
    expect(agent.plan).toBeUndefined();
    expect(agent.permissionMode).toBe('plan');
    expect(resultOf(agent.messages, 'toolu_plan')).toMatchObject({ is_error: true });
  });

  it('the host leaves plan mode while the plan waits, then approves it: the plan is saved and the mode the host chose stays', async () => {
    const agent = createAgent({ model: scriptedModel([...planningTurns(), 'Executing.']), tools, permissionMode: 'plan' });
    expect((await agent.run('plan it').result).status).toBe('awaiting-approval');
    agent.setPermissionMode('acceptEdits');
    await agent.resolveApproval(agent.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
    expect(agent.plan?.text).toBe(PLAN);
    expect(agent.permissionMode).toBe('acceptEdits');
    expect(resultOf(agent.messages, 'toolu_plan')).toMatchObject({ content: expect.stringContaining('approved your plan') });
  });

  it('an approval that keeps plan mode (setMode: plan) does not tell the model it left plan mode, and writes stay refused', async () => {
    const model = scriptedModel([turn(toolCall('ExitPlanMode', { plan: PLAN }, 'toolu_plan')), turn(toolCall('write', { path: 'draft.md' }, 'toolu_write')), 'ok']);
    const agent = createAgent({
      model,
      tools,
      permissionMode: 'plan',
      canUseTool: (_name, _input, context) =>
        context.reason.type === 'plan-approval' ? { behavior: 'allow', updatedPermissions: [{ type: 'setMode', mode: 'plan', destination: 'session' }] } : { behavior: 'allow' },
    });
    await agent.run('plan it').result;
    expect(agent.permissionMode).toBe('plan');
    expect(resultOf(agent.messages, 'toolu_plan')!.content).not.toMatch(/no longer in plan mode/);
    expect(resultOf(agent.messages, 'toolu_write')).toMatchObject({ is_error: true });
  });

  it('two ExitPlanMode calls in one turn, both approved: the host saw both, the last approved is the plan kept and in the store', async () => {
    const other = '# Other plan\n1. Something else';
    const model = scriptedModel([turn(toolCall('ExitPlanMode', { plan: PLAN }, 'toolu_p1'), toolCall('ExitPlanMode', { plan: other }, 'toolu_p2')), 'ok']);
    const plans = memoryPlanStore();
    const approved: string[] = [];
    const agent = createAgent({ model, tools, permissionMode: 'plan', canUseTool: allowAll, planStore: plans });
    agent.on('plan-approved', (event) => approved.push(event.plan));
    await agent.run('plan it').result;
    expect(approved).toEqual([PLAN, other]);
    expect(agent.plan?.text).toBe(other);
    expect(await plans.read(agent.plan!.name)).toBe(other);
    expect(await plans.list()).toEqual([agent.plan!.name]);
    expect(agent.permissionMode).toBe('default');
  });
});

describe('attack: recoverTodos on tampered or truncated transcripts', () => {
  it('entries that are not whole are passed over, and the last good list is still found', async () => {
    const list = [{ content: 'Write', status: 'in_progress', activeForm: 'Writing' }];
    const tampered = [
      { kind: 'message', message: { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'TodoWrite', input: { todos: list } }] } },
      { kind: 'message', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] } },
      null,
      7,
      { kind: 'message', message: null },
      { kind: 'message', message: { role: 'user', content: null } },
      { kind: 'message', message: { role: 'assistant', content: [null, 3] } },
      { kind: 'todo-update', todos: 'not a list' },
    ] as unknown as SessionEntry[];
    expect(await recoverTodos({ entries: tampered })).toEqual(list);
  });
});

describe('attack: killed before the result of an approval with a fresh context was stored', () => {
  it.each(['run', 'continue'] as const)('on resume (%s) the execution starts in the fresh context with the plan, the exploration not sent', async (how) => {
    const approved: AgentEvent[] = [];
    const { agent, inner, plans } = await killedOnceThePlanIsSaved(approveFresh, (started) => started.on('plan-approved', (event) => approved.push(event)));

    const next = scriptedModel(['Executing.']);
    const resumed = createAgent({ model: next, tools, store: inner, planStore: plans, resume: agent.sessionId, canUseTool: approveFresh });
    resumed.on('plan-approved', (event) => approved.push(event));
    await (how === 'run' ? resumed.run('go on') : resumed.continue()).result;
    expect(approved.at(-1)).toMatchObject({ type: 'plan-approved', toolUseId: 'toolu_plan', plan: PLAN, clearContext: true });
    const sent = JSON.stringify(next.requests[0]!.messages);
    expect(sent).toContain('Read the notes');
    expect(sent).not.toContain('contents of notes.md');
    expect(resumed.permissionMode).toBe('default');
    if (how === 'run') expect(sent).toContain('go on');
  });
});

describe('attack: a fork of a session whose plan waits for approval', () => {
  it('approved in the fork: the fork saves its own plan under its own name, the parent still waits and has none', async () => {
    const plans = memoryPlanStore();
    const store = memorySessionStore();
    const parent = createAgent({ model: scriptedModel([...planningTurns()]), tools, permissionMode: 'plan', store, planStore: plans });
    expect((await parent.run('plan it').result).status).toBe('awaiting-approval');
    const fork = await parent.fork();
    expect(fork.pendingApprovals).toHaveLength(1);
    expect(fork.permissionMode).toBe('plan');
    await fork.resolveApproval(fork.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
    expect(fork.plan?.text).toBe(PLAN);
    expect(parent.plan).toBeUndefined();
    expect(parent.permissionMode).toBe('plan');
    expect(parent.pendingApprovals).toHaveLength(1);
    await parent.resolveApproval(parent.pendingApprovals[0]!.id, { behavior: 'allow', updatedInput: { plan: `${PLAN}\n3. Parent's own step` } }).result;
    expect(parent.plan!.name).not.toBe(fork.plan!.name);
    expect(await plans.read(fork.plan!.name)).toBe(PLAN);
    expect(await plans.read(parent.plan!.name)).toContain("Parent's own step");
  });
});

describe('attack: the plan store fails while an approved plan is saved', () => {
  it('the call fails, nothing is approved, the session stays in plan mode; presented again once the store works, it is saved', async () => {
    const plans = memoryPlanStore();
    let failing = true;
    const flaky: PlanStore = { ...plans, write: async (name, text) => (failing ? Promise.reject(new Error('disk full')) : plans.write(name, text)) };
    const model = scriptedModel([turn(toolCall('ExitPlanMode', { plan: PLAN }, 'toolu_p1')), turn(toolCall('ExitPlanMode', { plan: PLAN }, 'toolu_p2')), 'Executing.']);
    const approved: AgentEvent[] = [];
    const modes: AgentEvent[] = [];
    const agent = createAgent({ model, tools, permissionMode: 'plan', planStore: flaky, canUseTool: allowAll });
    agent.on('plan-approved', (event) => approved.push(event));
    agent.on('mode-change', (event) => modes.push(event));
    agent.on('tool-result', (event) => {
      if (event.toolUseId === 'toolu_p1') failing = false;
    });
    await agent.run('plan it').result;
    expect(resultOf(agent.messages, 'toolu_p1')).toMatchObject({ is_error: true, content: expect.stringContaining('disk full') });
    expect(resultOf(agent.messages, 'toolu_p2')).toMatchObject({ content: expect.stringContaining('approved your plan') });
    expect(approved).toHaveLength(1);
    expect(modes).toEqual([expect.objectContaining({ from: 'plan', to: 'default' })]);
    expect(await plans.read(agent.plan!.name)).toBe(PLAN);
  });
});

describe('attack: a plan approval that arrives after the run was interrupted', () => {
  it('is not applied: nothing saved, no plan-approved, still in plan mode; the next run does not start executing', async () => {
    const answer = deferred();
    const waiting = deferred();
    const canUseTool: CanUseTool = async (_name, _input, context) => {
      if (context.reason.type !== 'plan-approval') return { behavior: 'allow' };
      waiting.resolve();
      await answer.promise;
      return { behavior: 'allow', clearContext: true };
    };
    const plans = memoryPlanStore();
    const approved: AgentEvent[] = [];
    const agent = createAgent({ model: scriptedModel([...planningTurns(), 'Still planning.']), tools, permissionMode: 'plan', canUseTool, planStore: plans });
    agent.on('plan-approved', (event) => approved.push(event));
    const run = agent.run('plan it');
    await waiting.promise;
    agent.interrupt();
    answer.resolve();
    expect((await run.result).status).toBe('interrupted');
    expect(approved).toEqual([]);
    expect(agent.plan).toBeUndefined();
    expect(await plans.list()).toEqual([]);
    expect(agent.permissionMode).toBe('plan');
    await agent.run('go on').result;
    expect(agent.permissionMode).toBe('plan');
    expect(JSON.stringify(agent.messages)).toContain('contents of notes.md');
  });
});

describe('attack: a host that edits the list agent.todos gave it', () => {
  it('does not change the agent\'s list (the single source of truth): no change without setTodos, and a snapshot agrees with the store', async () => {
    const store = memorySessionStore();
    const agent = createAgent({ model: scriptedModel([]), store });
    agent.setTodos([{ content: 'Write', status: 'pending', activeForm: 'Writing' }]);
    await agent.flush();
    const list = agent.todos;
    list[0]!.status = 'completed';
    expect(agent.todos[0]!.status).toBe('pending');
    expect(agent.snapshot().todos).toEqual([{ content: 'Write', status: 'pending', activeForm: 'Writing' }]);
  });
});

describe('attack: a snapshot that shows an approved ExitPlanMode as allowed', () => {
  it('is not run on its word: answered as interrupted, nothing saved, still in plan mode', async () => {
    const agent = createAgent({ model: scriptedModel([...planningTurns()]), tools, permissionMode: 'plan' });
    expect((await agent.run('plan it').result).status).toBe('awaiting-approval');
    const snapshot = JSON.parse(JSON.stringify(agent.snapshot()));
    const call = snapshot.openBatch.calls.find((entry: { toolUseId: string }) => entry.toolUseId === 'toolu_plan');
    // Tampered: the pending approval turned into an allowed call that leaves plan mode for acceptEdits.
    call.state = 'allowed';
    call.input = { plan: PLAN };
    call.heldUpdates = [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }];
    delete call.approval;
    const plans = memoryPlanStore();
    const resumed = createAgent({ model: scriptedModel(['ok']), tools, planStore: plans, resume: snapshot });
    await resumed.run('go on').result;
    expect(resumed.permissionMode).toBe('plan');
    expect(resumed.plan).toBeUndefined();
    expect(await plans.list()).toEqual([]);
    expect(resultOf(resumed.messages, 'toolu_plan')).toMatchObject({ is_error: true });
  });
});

describe('attack: resumed on another machine, with an empty plan store', () => {
  // From a snapshot the plan comes back in the state (agent.plan) but is not written to the new
  // plan store: a snapshot resume is synchronous (pendingApprovals readable at once), and writing
  // would make it wait. Only the store path is checked for the file.
  it.each(['store', 'snapshot'] as const)('from a %s: the approved plan is back (in the new plan store too, from a session store)', async (how) => {
    const store = memorySessionStore();
    const agent = createAgent({ model: scriptedModel([...planningTurns(), 'Executing.']), tools, permissionMode: 'plan', canUseTool: allowAll, store, planStore: memoryPlanStore() });
    await agent.run('plan it').result;
    const name = agent.plan!.name;
    const snapshot = JSON.parse(JSON.stringify(agent.snapshot()));
    await agent.close();
    const elsewhere = memoryPlanStore();
    const resumed = createAgent({ model: scriptedModel(['ok']), tools, planStore: elsewhere, ...(how === 'store' ? { store, resume: agent.sessionId } : { resume: snapshot }) });
    await resumed.ready;
    expect(resumed.plan).toEqual({ name, text: PLAN });
    if (how === 'snapshot') return;
    expect(await elsewhere.read(name)).toBe(PLAN);
    expect(await recoverPlan({ store: elsewhere, slug: name.replace(/\.md$/, ''), entries: [] })).toMatchObject({ text: PLAN, source: 'store' });
  });
});

describe("attack: a subagent's question, parked and answered in another agent", () => {
  it('waits in the parent, is answered after a resume from the store, and the subagent reads the answer once', async () => {
    const store = memorySessionStore();
    const spawn = () => turn(toolCall('Agent', { description: 'ask', prompt: 'ask the user', subagent_type: 'helper' }, 'toolu_agent'));
    const child = scriptedModel([turn(toolCall('AskUserQuestion', { questions: [question('Pick?')] }, 'toolu_q')), 'Child done.']);
    const agents = { helper: { description: 'Asks.', prompt: 'You ask.', model: child } };
    const questions: AgentEvent[] = [];
    const parent = createAgent({ model: scriptedModel([spawn()]), agents, askUserQuestion: true, permissionMode: 'plan', store });
    parent.on('user-question', (event) => questions.push(event));
    expect((await parent.run('plan').result).status).toBe('awaiting-approval');
    expect(questions).toEqual([expect.objectContaining({ toolUseId: 'toolu_q', agentId: expect.any(String) })]);
    await parent.close();

    const resumed = createAgent({ model: scriptedModel(['Parent done.']), agents, askUserQuestion: true, store, resume: parent.sessionId });
    await resumed.ready;
    const [pending] = resumed.pendingApprovals;
    expect(pending).toMatchObject({ toolName: 'AskUserQuestion', reason: { type: 'question' } });
    const result = await resumed.resolveApproval(pending!.id, { behavior: 'allow', updatedInput: { ...(pending!.input as object), answers: { 'Pick?': 'Yes' } } }).result;
    expect(result.status).toBe('completed');
    const childAnswer = JSON.stringify(child.requests.at(-1)!.messages);
    expect(childAnswer).toContain('\\"Pick?\\" = \\"Yes\\"');
    expect(resumed.permissionMode).toBe('plan');
    expect(() => resumed.resolveApproval(pending!.id, { behavior: 'allow' })).toThrow();
  });
});

describe('attack: the approved plan after a fresh context and then a compaction', () => {
  it('is restated verbatim from the agent\'s records, the latest approved one, not the summary\'s version', async () => {
    const second = '# Plan v2\n1. Only the intro';
    const model = scriptedModel([
      ...planningTurns(),
      turn(toolCall('TodoWrite', { todos: [{ content: 'Write the draft', status: 'in_progress', activeForm: 'Writing the draft' }] }, 'toolu_todo')),
      'Working.',
    ]);
    const agent = createAgent({ model, tools, permissionMode: 'plan', canUseTool: approveFresh });
    await agent.run('plan it').result;
    agent.setPermissionMode('plan');
    model.push(turn(toolCall('ExitPlanMode', { plan: second }, 'toolu_plan2')), 'Replanned.', 'SUMMARY: the plan was to write everything (a paraphrase).');
    await agent.run('replan').result;
    const compacted = await agent.compact();
    expect(compacted.compacted).toBe(true);
    const opening = JSON.stringify(agent.messages[0]);
    expect(opening).toContain(JSON.stringify(second).slice(1, -1));
    expect(opening).toContain('Write the draft');
    expect(agent.plan?.text).toBe(second);
  });
});

describe('attack: one agent saves two plans at once', () => {
  it('both land under the session\'s one name; the plan kept is the last saved and the store agrees', async () => {
    const plans = memoryPlanStore();
    const agent = createAgent({ model: scriptedModel([]), planStore: plans });
    const [first, second] = await Promise.all([agent.savePlan('Plan A'), agent.savePlan('Plan B')]);
    expect(first.name).toBe(second.name);
    expect(await plans.list()).toEqual([first.name]);
    expect(agent.plan).toEqual({ name: first.name, text: await plans.read(first.name) });
  });
});

describe('attack: parallel subagents each save a plan', () => {
  it('the session keeps one slug: every subagent plan is named after it, and the parent\'s plan too', async () => {
    const plans = memoryPlanStore();
    const spawn = (id: string) => toolCall('Agent', { description: `plan ${id}`, prompt: 'plan it', subagent_type: id }, id);
    // Each subagent on its own model: they run in parallel.
    const planner = () => ({ description: 'Plans.', prompt: 'You plan.', model: scriptedModel([turn(toolCall('ExitPlanMode', { plan: 'Sub plan' })), 'Sub done.']), permissionMode: 'plan' as const });
    const agents = { toolu_a1: planner(), toolu_a2: planner() };
    const parent = createAgent({ model: scriptedModel([turn(spawn('toolu_a1'), spawn('toolu_a2')), turn(toolCall('ExitPlanMode', { plan: PLAN }, 'toolu_plan')), 'Done.']), agents, permissionMode: 'plan', canUseTool: allowAll, planStore: plans });
    await parent.run('plan with helpers').result;
    const slug = parent.plan!.name.replace(/\.md$/, '');
    const names = await plans.list();
    expect(names).toHaveLength(3);
    for (const name of names) expect(name.startsWith(slug)).toBe(true);
  });
});

describe('attack: killed after an edited plan was approved and saved', () => {
  it('on resume the edited plan is the one kept and the model is told it was edited; the host is not asked again', async () => {
    const edited = `${PLAN}\n3. Ask the editor`;
    const editing: CanUseTool = (_name, _input, context) => (context.reason.type === 'plan-approval' ? { behavior: 'allow', updatedInput: { plan: edited } } : { behavior: 'allow' });
    const { agent, inner, plans } = await killedOnceThePlanIsSaved(editing);
    let asked = 0;
    const resumed = createAgent({ model: scriptedModel(['Executing.']), tools, store: inner, planStore: plans, resume: agent.sessionId, canUseTool: () => (asked++, { behavior: 'allow' }) });
    await resumed.continue().result;
    expect(asked).toBe(0);
    expect(resumed.plan?.text).toBe(edited);
    expect(await plans.read(resumed.plan!.name)).toBe(edited);
    expect(resultOf(resumed.messages, 'toolu_plan')!.content).toMatch(/approved your plan after editing it/);
  });
});

describe('attack: a plan rejected with a request to stop', () => {
  it('plan-rejected carries the feedback, the run ends interrupted, still in plan mode, nothing saved', async () => {
    const rejected: AgentEvent[] = [];
    const agent = createAgent({
      model: scriptedModel([...planningTurns(), 'never']),
      tools,
      permissionMode: 'plan',
      canUseTool: (_name, _input, context) => (context.reason.type === 'plan-approval' ? { behavior: 'deny', message: 'Stop here.', interrupt: true } : { behavior: 'allow' }),
    });
    agent.on('plan-rejected', (event) => rejected.push(event));
    const result = await agent.run('plan it').result;
    expect(result.status).toBe('interrupted');
    expect(rejected).toEqual([expect.objectContaining({ toolUseId: 'toolu_plan', feedback: 'Stop here.' })]);
    expect(agent.permissionMode).toBe('plan');
    expect(agent.plan).toBeUndefined();
  });
});

describe('attack: two servers resume the session a crash left with an approved ExitPlanMode', () => {
  it.each(['continue', 'run'] as const)('(%s) only one of them runs it: the other gets a conflict before anything runs', async (how) => {
    const { agent, inner, plans } = await killedOnceThePlanIsSaved(allowAll);

    const approvedOn: string[] = [];
    const server = (label: string) => {
      // Its own store object over the same records: another process.
      const resumed = createAgent({ model: scriptedModel(['Executing.']), tools, store: { ...inner }, planStore: plans, resume: agent.sessionId, canUseTool: allowAll });
      resumed.on('plan-approved', () => approvedOn.push(label));
      return resumed;
    };
    const one = server('one');
    const two = server('two');
    const go = (resumed: typeof one) => resumed.ready.then(() => (how === 'run' ? resumed.run('go on') : resumed.continue()).result);
    const outcomes = await Promise.allSettled([go(one), go(two)]);
    const completed = outcomes.filter((outcome) => outcome.status === 'fulfilled' && outcome.value.status === 'completed');
    expect(completed).toHaveLength(1);
    expect(approvedOn).toHaveLength(1);
  });
});
