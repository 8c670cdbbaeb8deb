import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memoryPlanStore, memorySessionStore, type AgentEvent, type PlanStore } from 'agent-harness';
import { scriptedModel, toolCall, turn, validateMessagesRequest } from 'agent-harness/testing';
import { deferred } from '../helpers.js';

/** Resolves once every pending microtask and the next macrotask have run (no wall clock). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('attack: listeners a host UI registers', () => {
  it('an async listener that rejects is reported as a non-fatal error event, not an unhandled rejection', async () => {
    const agent = createAgent({ model: scriptedModel([]) });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const errors: Array<{ error: Error; fatal: boolean }> = [];
      const seen: string[] = [];
      agent.on('todo-update', async () => {
        await Promise.resolve();
        throw new Error('async listener bug');
      });
      agent.on('todo-update', () => seen.push('second'));
      agent.on('error', (e) => errors.push(e));
      agent.setTodos([{ content: 'a', status: 'pending', activeForm: 'A' }]);
      await settle();
      await settle();
      expect(unhandled).toEqual([]);
      expect(seen).toEqual(['second']);
      expect(errors.map((e) => [e.error.message, e.fatal])).toEqual([['async listener bug', false]]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('an async error listener that rejects does not become an unhandled rejection either', async () => {
    const agent = createAgent({ model: scriptedModel([]) });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      agent.on('todo-update', () => { throw new Error('sync bug'); });
      agent.on('error', async () => { throw new Error('error listener bug'); });
      agent.setTodos([{ content: 'a', status: 'pending', activeForm: 'A' }]);
      await settle();
      await settle();
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});

const PLAN = '# Plan\n1. Read the notes\n2. Write the draft';

/** A plan store whose first write waits for `gate` (and says when it started). */
function slowPlanStore() {
  const inner = memoryPlanStore();
  const writing = deferred();
  const gate = deferred();
  let writes = 0;
  const store: PlanStore = {
    read: (name) => inner.read(name),
    exists: (name) => inner.exists(name),
    list: () => inner.list(),
    write: async (name, text, options) => {
      if (writes++ === 0) {
        writing.resolve();
        await gate.promise;
      }
      return inner.write(name, text, options);
    },
  };
  return { store, writing, gate };
}

describe('attack: interrupted while an approved plan is being saved', () => {
  it.each(['interrupt', 'close'] as const)('%s: the call is answered as interrupted, and the plan card, agent.plan and the mode agree it was not approved', async (how) => {
    const plans = slowPlanStore();
    const store = memorySessionStore();
    const model = scriptedModel([turn(toolCall('ExitPlanMode', { plan: PLAN }, 'toolu_plan')), turn(toolCall('ExitPlanMode', { plan: PLAN }, 'toolu_plan2')), 'Executing.']);
    const options = { model, store, planStore: plans.store, canUseTool: () => ({ behavior: 'allow' as const }) };
    const agent = createAgent({ ...options, permissionMode: 'plan' });
    const events: AgentEvent[] = [];
    for (const type of ['plan-approved', 'mode-change', 'tool-result'] as const) agent.on(type, (event) => events.push(event));
    const run = agent.run('plan it');
    await plans.writing.promise;
    const closing = how === 'close' ? agent.close() : (agent.interrupt(), undefined);
    plans.gate.resolve();
    expect((await run.result).status).toBe('interrupted');
    await closing;
    await new Promise<void>((resolve) => setImmediate(resolve));
    // The model reads "interrupted, do not assume it completed": the session must not have left plan mode.
    expect(events.map((event) => event.type)).toEqual(['tool-result']);
    expect(events[0]).toMatchObject({ toolUseId: 'toolu_plan', isError: true });
    const live = how === 'close' ? createAgent({ ...options, resume: agent.sessionId }) : agent;
    await live.ready;
    expect(live.plan).toBeUndefined();
    expect(live.permissionMode).toBe('plan');
    // Planned again, approved: saved once, under the session's name, and the mode leaves plan.
    const again = await live.run('plan it again').result;
    expect(again.status).toBe('completed');
    expect(live.plan).toMatchObject({ text: PLAN });
    expect(live.permissionMode).toBe('default');
    expect(await plans.store.list()).toEqual([live.plan!.name]);
    expect(validateMessagesRequest(model.requests.at(-1)!.messages)).toBeUndefined();
    await live.close();
  });
});

describe('attack: the host interrupts from its plan-approved listener ("approve and stop")', () => {
  it('the plan is saved and the mode left plan, and the call is answered as approved, not as interrupted', async () => {
    const model = scriptedModel([turn(toolCall('ExitPlanMode', { plan: PLAN }, 'toolu_plan')), 'Executing.', 'Executing, resumed.']);
    const agent = createAgent({ model, permissionMode: 'plan', canUseTool: () => ({ behavior: 'allow' }) });
    const events: AgentEvent[] = [];
    for (const type of ['plan-approved', 'mode-change', 'tool-result'] as const) agent.on(type, (event) => events.push(event));
    agent.on('plan-approved', () => agent.interrupt('the host stops to review'));
    expect((await agent.run('plan it').result).status).toBe('interrupted');
    expect(agent.plan).toMatchObject({ text: PLAN });
    expect(agent.permissionMode).toBe('default');
    expect(events.map((event) => event.type)).toEqual(['plan-approved', 'mode-change', 'tool-result']);
    const answered = events[2] as Extract<AgentEvent, { type: 'tool-result' }>;
    expect(answered.isError).toBe(false);
    expect(String(answered.content)).toContain(`saved as ${agent.plan!.name}`);
    // What the model reads next agrees with the session.
    expect((await agent.continue().result).status).toBe('completed');
    expect(validateMessagesRequest(model.requests.at(-1)!.messages)).toBeUndefined();
    expect(JSON.stringify(model.requests.at(-1)!.messages)).toContain('You are no longer in plan mode');
  });
});

describe('attack: close() while the approval card is up (canUseTool or a PreToolUse hook pending)', () => {
  it.each(['canUseTool', 'hook'] as const)('%s: the call is answered as not run, nothing is pending, and the resumed session goes on without running it', async (where) => {
    const asked = deferred();
    const ran: string[] = [];
    const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({}), kind: 'edit', execute: () => (ran.push('write'), 'wrote') });
    const store = memorySessionStore();
    const model = scriptedModel([turn(toolCall('write', {}, 'toolu_w')), 'After.']);
    const wait = (signal: AbortSignal) => new Promise<void>((resolve) => (asked.resolve(), signal.addEventListener('abort', () => resolve())));
    const agent = createAgent({
      model,
      tools: [write],
      store,
      canUseTool: async (_name, _input, context) => (where === 'canUseTool' && (await wait(context.signal)), { behavior: 'allow' as const }),
      ...(where === 'hook' ? { hooks: { PreToolUse: [{ hook: async (input: { signal: AbortSignal }) => (await wait(input.signal), {}) }] } } : {}),
    });
    const results: AgentEvent[] = [];
    agent.on('tool-result', (event) => results.push(event));
    const run = agent.run('go');
    await asked.promise;
    await agent.close();
    expect((await run.result).status).toBe('interrupted');
    expect(results).toMatchObject([{ toolUseId: 'toolu_w', isError: true }]);
    const resumed = createAgent({ model, tools: [write], store, resume: agent.sessionId, canUseTool: () => ({ behavior: 'allow' }) });
    await resumed.ready;
    expect(resumed.pendingApprovals).toEqual([]);
    expect(resumed.messages).toEqual(agent.messages);
    expect((await resumed.continue().result).status).toBe('completed');
    expect(ran).toEqual([]);
    expect(validateMessagesRequest(model.requests.at(-1)!.messages)).toBeUndefined();
    await resumed.close();
  });
});
