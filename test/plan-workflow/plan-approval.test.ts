import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createAgent,
  defineTool,
  memorySessionStore,
  recoverPlan,
  type CanUseTool,
  type PlanApprovedEvent,
  type PlanRejectedEvent,
  type SessionEntry,
  type ToolResultBlock,
} from 'agent-harness';
import { scriptedModel, toolCall, turn, validateMessagesRequest } from 'agent-harness/testing';
import { startMessagesServer } from 'agent-harness/testing/messages-server';
import { anthropicModel } from 'agent-harness';
import { loadEntries } from '../../src/session/load-entries.js';

const read = defineTool({ name: 'read', description: 'Reads.', inputSchema: z.object({ path: z.string() }), readOnly: true, execute: ({ input }) => `contents of ${input.path}` });
const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ path: z.string() }), kind: 'edit', execute: ({ input }) => `wrote ${input.path}` });
const tools = [read, write];
const PLAN = '# Plan\n1. Read the notes\n2. Write the draft';

const resultOf = (messages: readonly { role: string; content: unknown }[], id: string) =>
  messages.flatMap((message) => (Array.isArray(message.content) ? (message.content as ToolResultBlock[]) : [])).find((block) => block.type === 'tool_result' && block.tool_use_id === id)?.content as string;

const planning = (after: unknown[]) =>
  scriptedModel([turn(toolCall('read', { path: 'notes.md' }, 'toolu_read')), turn(toolCall('ExitPlanMode', { plan: PLAN }, 'toolu_plan')), ...(after as never[])]);

describe('the plan approval, both ways', () => {
  it('approved: the model reads the plan as saved, its name, the mode it now runs in; the host sees plan-approved', async () => {
    const approved: PlanApprovedEvent[] = [];
    const agent = createAgent({ model: planning(['Executing.']), tools, permissionMode: 'plan', canUseTool: () => ({ behavior: 'allow' }) });
    agent.on('plan-approved', (event) => approved.push(event));
    await agent.run('plan it').result;
    const answer = resultOf(agent.messages, 'toolu_plan');
    expect(answer).toContain(`saved as ${agent.plan!.name}`);
    expect(answer).toContain('the permission mode is now "default"');
    expect(answer).toContain(PLAN);
    expect(answer).not.toMatch(/edit/);
    expect(approved).toEqual([expect.objectContaining({ plan: PLAN, name: agent.plan!.name, toolUseId: 'toolu_plan' })]);
  });

  it('an edited plan is what is saved and what the model is told, and the event says it was edited', async () => {
    const edited = `${PLAN}\n3. Ask the editor`;
    const approved: PlanApprovedEvent[] = [];
    const canUseTool: CanUseTool = (name, input, context) =>
      context.reason.type === 'plan-approval' ? { behavior: 'allow', updatedInput: { plan: edited } } : { behavior: 'allow' };
    const agent = createAgent({ model: planning(['Executing.']), tools, permissionMode: 'plan', canUseTool });
    agent.on('plan-approved', (event) => approved.push(event));
    await agent.run('plan it').result;
    expect(agent.plan!.text).toBe(edited);
    const answer = resultOf(agent.messages, 'toolu_plan');
    expect(answer).toMatch(/approved your plan after editing it/);
    expect(answer).toContain(edited);
    expect(answer).not.toMatch(/^Note: your input was changed/);
    expect(approved[0]).toMatchObject({ plan: edited, edited: true });
  });

  it('rejected: plan-rejected with the feedback; the model is told it is still planning', async () => {
    const rejected: PlanRejectedEvent[] = [];
    const agent = createAgent({
      model: planning(['Revising.']),
      tools,
      permissionMode: 'plan',
      canUseTool: (name, input, context) => (context.reason.type === 'plan-approval' ? { behavior: 'deny', message: 'Add a risks section.' } : { behavior: 'allow' }),
    });
    agent.on('plan-rejected', (event) => rejected.push(event));
    await agent.run('plan it').result;
    expect(agent.permissionMode).toBe('plan');
    expect(agent.plan).toBeUndefined();
    expect(rejected).toEqual([expect.objectContaining({ toolUseId: 'toolu_plan', feedback: 'Add a risks section.' })]);
    expect(resultOf(agent.messages, 'toolu_plan')).toMatch(/did not approve your plan\. You are still in plan mode.*feedback: Add a risks section\./s);
  });

  it('rejected through a deferred approval answered later reads the same', async () => {
    const agent = createAgent({ model: planning([]), tools, permissionMode: 'plan' });
    await agent.run('plan it').result;
    const later = createAgent({ model: scriptedModel(['Revising.']), tools, resume: JSON.parse(JSON.stringify(agent.snapshot())) });
    await later.resolveApproval(later.pendingApprovals[0]!.id, { behavior: 'deny', message: 'Shorter, please.' }).result;
    expect(resultOf(later.messages, 'toolu_plan')).toMatch(/still in plan mode.*Shorter, please\./s);
  });

  it.each([
    { from: 'bypassPermissions' as const, options: { allowDangerouslySkipPermissions: false }, expected: 'default' },
    { from: 'auto' as const, options: { autoMode: { classify: () => undefined, isAvailable: () => false } }, expected: 'default' },
    { from: 'auto' as const, options: { autoMode: { classify: () => undefined, isAvailable: () => true } }, expected: 'auto' },
    { from: 'acceptEdits' as const, options: {}, expected: 'acceptEdits' },
  ])('approval returns from plan mode to the mode before it: $from → $expected', async ({ from, options, expected }) => {
    const snapshot = createAgent({ model: scriptedModel([]), tools, permissionMode: from === 'bypassPermissions' ? 'default' : from, allowDangerouslySkipPermissions: true, ...(from === 'auto' ? options : {}) });
    // Enter plan mode from the starting mode, then resume with the host's options of now.
    if (from === 'bypassPermissions') snapshot.setPermissionMode('bypassPermissions');
    snapshot.setPermissionMode('plan');
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('ExitPlanMode', { plan: PLAN }, 'toolu_plan')), 'ok']),
      tools,
      ...options,
      resume: snapshot.snapshot(),
      canUseTool: () => ({ behavior: 'allow' }),
    });
    await agent.run('present it').result;
    expect(agent.permissionMode).toBe(expected);
  });

  it('EnterPlanMode carries an optional reason the host sees', async () => {
    let seen: { input: unknown; message?: string } | undefined;
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('EnterPlanMode', { reason: 'Three ways to structure this.' }, 'toolu_enter')), 'ok']),
      enterPlanMode: true,
      canUseTool: (name, input, context) => ((seen = { input, ...(context.reason.type === 'tool-check' && context.reason.message ? { message: context.reason.message } : {}) }), { behavior: 'allow' }),
    });
    await agent.run('go').result;
    expect(seen).toEqual({ input: { reason: 'Three ways to structure this.' }, message: 'The model asks to plan before acting: Three ways to structure this.' });
    expect(agent.permissionMode).toBe('plan');
  });
});

describe('approval that clears the context', () => {
  it('the next request holds only the plan (and the todos); the store keeps the exploration; recoverPlan finds it', async () => {
    {
      const store = memorySessionStore();
      const script = [
        turn(toolCall('TodoWrite', { todos: [{ content: 'Write the draft', status: 'pending', activeForm: 'Writing the draft' }] }, 'toolu_todo')),
        turn(toolCall('read', { path: 'notes.md' }, 'toolu_read')),
        turn(toolCall('ExitPlanMode', { plan: PLAN }, 'toolu_plan')),
        turn(toolCall('write', { path: 'draft.md' }, 'toolu_write')),
        'Done.',
      ];
      const model = scriptedModel(script as never);
      const canUseTool: CanUseTool = (name, input, context) => (context.reason.type === 'plan-approval' ? { behavior: 'allow', clearContext: true, updatedPermissions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }] } : { behavior: 'allow' });
      const agent = createAgent({ model, tools, store, permissionMode: 'plan', canUseTool });
      const result = await agent.run('plan the article').result;
      expect(result.status).toBe('completed');
      const fresh = model.requests[3]!.messages;
      expect(fresh).toHaveLength(1);
      const text = (fresh[0]!.content as Array<{ text: string }>).map((block) => block.text).join('\n');
      expect(text).toContain(PLAN);
      expect(text).toContain('Write the draft');
      expect(text).toMatch(/acceptEdits/);
      expect(validateMessagesRequest(fresh)).toBeUndefined();
      expect(JSON.stringify(fresh)).not.toContain('notes.md');
      expect(agent.permissionMode).toBe('acceptEdits');

      const entries: SessionEntry[] = await loadEntries(store, agent.sessionId);
      expect(JSON.stringify(entries)).toContain('notes.md');
      const recovered = await recoverPlan({ entries: entries.filter((entry) => entry.kind === 'message') });
      expect(recovered?.text).toBe(PLAN);

      // Resume and fork after it continue from the fresh context.
      await agent.close();
      const resumed = createAgent({ model: scriptedModel(['More.']), tools, store, resume: agent.sessionId });
      await resumed.ready;
      expect(resumed.messages[0]).toEqual(fresh[0]);
      const fork = await resumed.fork();
      expect(fork.messages[0]).toEqual(fresh[0]);
    }
  });

  it('a deferred plan approval answered later in another agent with clearContext: fresh context there, the plan saved once, nothing run twice', async () => {
    const store = memorySessionStore();
    const writes: string[] = [];
    const counted = [read, defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ path: z.string() }), kind: 'edit', execute: ({ input }) => (writes.push(input.path), `wrote ${input.path}`) })];
    const first = createAgent({ model: planning([]), tools: counted, store, permissionMode: 'plan' });
    const parked = await first.run('plan the article').result;
    expect(parked.status).toBe('awaiting-approval');
    expect(parked.pendingApprovals[0]).toMatchObject({ toolName: 'ExitPlanMode', reason: { type: 'plan-approval' } });
    await first.close();

    const model = scriptedModel([turn(toolCall('write', { path: 'draft.md' }, 'toolu_write')), 'Done.']);
    const later = createAgent({ model, tools: counted, store, resume: first.sessionId, permissionMode: 'plan' });
    await later.ready;
    const approved: PlanApprovedEvent[] = [];
    later.on('plan-approved', (event) => approved.push(event));
    const approval = later.pendingApprovals[0]!;
    const done = await later
      .resolveApproval(approval.id, { behavior: 'allow', clearContext: true, updatedPermissions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }] })
      .result;
    expect(done.status).toBe('completed');
    expect(approved).toEqual([expect.objectContaining({ plan: PLAN, clearContext: true })]);
    // The first request after the approval holds the plan alone, in acceptEdits, and is valid.
    const fresh = model.requests[0]!.messages;
    expect(fresh).toHaveLength(1);
    expect(JSON.stringify(fresh)).toContain('Write the draft');
    expect(JSON.stringify(fresh)).not.toContain('contents of notes.md');
    expect(validateMessagesRequest(fresh)).toBeUndefined();
    expect(later.permissionMode).toBe('acceptEdits');
    expect(writes).toEqual(['draft.md']);
    // The answered approval is gone for good: not again here, nor in a third agent.
    expect(() => later.resolveApproval(approval.id, { behavior: 'allow' })).toThrow(/approval/i);
    await later.close();
    const third = createAgent({ model: scriptedModel([]), tools: counted, store, resume: first.sessionId });
    await third.ready;
    expect(third.pendingApprovals).toEqual([]);
    expect(third.messages[0]).toEqual(fresh[0]);
    expect(third.plan?.text).toBe(PLAN);
    await third.close();
  });

  it('through the real SDK and the loopback server, the fresh request is accepted', async () => {
    const server = await startMessagesServer({
      responses: [
        { content: [{ type: 'tool_use', id: 'toolu_plan', name: 'ExitPlanMode', input: { plan: PLAN } }], stop_reason: 'tool_use' },
        { content: [{ type: 'text', text: 'Starting fresh.' }] },
      ] as never,
    });
    try {
      const model = anthropicModel({ model: 'claude-sonnet-4-6', baseURL: server.url, apiKey: 'test' });
      const agent = createAgent({ model, tools, permissionMode: 'plan', canUseTool: () => ({ behavior: 'allow', clearContext: true }) });
      const result = await agent.run('plan').result;
      expect(result.error?.message).toBeUndefined();
      expect(result.status).toBe('completed');
      expect(server.errors ?? []).toEqual([]);
      expect(server.requests.at(-1)!.messages).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});
