import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memorySessionStore, type AgentDefinition, type AgentEvent, type SessionEntry, type SessionStore } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { deferred, tick } from '../helpers.js';

const agentCall = (type: string, id: string, background = false) =>
  toolCall('Agent', { description: `${type} job`, prompt: `do the ${type} job`, subagent_type: type, ...(background ? { run_in_background: true } : {}) }, id);

const look = defineTool({ name: 'look', description: 'Looks.', inputSchema: z.object({}), readOnly: true, execute: () => 'seen' });

/** A memory store that records what is appended once `late` is set. */
function watchedStore() {
  const inner = memorySessionStore();
  const late: SessionEntry[] = [];
  let watching = false;
  const store = new Proxy(inner, {
    get(target, key) {
      if (key === 'append') {
        return (sessionId: string, entries: readonly SessionEntry[], options: Parameters<SessionStore['append']>[2]) => {
          if (watching) late.push(...entries);
          return target.append(sessionId, entries, options);
        };
      }
      const value = Reflect.get(target, key) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { store, late, watch: () => (watching = true) };
}

/**
 * A `worker` whose first model call is held until the test releases it or its signal aborts (as
 * a real model call would); released, it calls `look` and then answers.
 */
function heldWorker() {
  const held = deferred<AbortSignal>();
  const release = deferred();
  const model = scriptedModel([
    turn('Looking.', toolCall('look', {}, 'w_look'), {
      hold: (signal) => {
        held.resolve(signal!);
        return Promise.race([release.promise, new Promise<void>((resolve) => signal!.addEventListener('abort', () => resolve(), { once: true }))]);
      },
    }),
    'Worker done.',
  ]);
  return { model, held: held.promise, release: () => release.resolve() };
}

describe('background tasks at any depth', () => {
  it.each([
    { starter: 'the agent itself', start: turn(agentCall('worker', 'p_bg', true)) },
    { starter: 'a foreground subagent', start: turn(agentCall('lead', 'p_lead')) },
    { starter: 'a background task', start: turn(agentCall('lead', 'p_lead', true)) },
  ])('are stopped and waited for by close(), their end recorded, and nothing of them runs or is written after (started by $starter)', async ({ starter, start }) => {
    const worker = heldWorker();
    const { store, late, watch } = watchedStore();
    const agents: Record<string, AgentDefinition> = {
      lead: { description: 'lead', prompt: 'lead', model: scriptedModel([turn(agentCall('worker', 'l_bg', true)), 'Started the worker.']), maxDepth: 1 },
      worker: { description: 'worker', prompt: 'worker', model: worker.model },
    };
    let closed = false;
    const stopsAfterClose: string[] = [];
    const agent = createAgent({
      model: scriptedModel([start, 'On it.']),
      tools: [look],
      agents,
      store,
      hooks: { SubagentStop: [{ hook: ({ subagentType }) => void (closed && stopsAfterClose.push(subagentType)) }] },
    });
    const ends: AgentEvent[] = [];
    agent.on('subagent-end', (event) => ends.push(event));
    agent.on('background-task-end', (event) => ends.push(event));

    const result = await agent.run('go').result;
    expect(result.status).toBe('completed');
    const signal = await worker.held;

    await agent.close();
    closed = true;
    watch();
    // Stopped, and waited for: its run ended before close() resolved.
    expect(signal.aborted).toBe(true);
    const workerEnd = ends.find((event) => event.type === 'subagent-end' && event.subagentType === 'worker');
    expect(workerEnd).toMatchObject({ summary: { status: 'interrupted' } });

    // Its run is over, so letting the held call go moves nothing (one turn for anything left to show).
    worker.release();
    await tick();
    expect(worker.model.requests).toHaveLength(1);
    // Its end was recorded as interrupted, once, before close() resolved.
    expect(ends.filter((event) => event.type === 'background-task-end' && event.task.subagentType === 'worker')).toEqual([
      expect.objectContaining({ task: expect.objectContaining({ status: 'interrupted' }) }),
    ]);
    expect(stopsAfterClose).toEqual([]);
    expect(late).toEqual([]);
    // The run's result listed it, whoever started it (a lead in the background may start it only
    // after the agent's run ended).
    if (starter !== 'a background task') expect(result.backgroundTasks).toEqual([expect.objectContaining({ subagentType: 'worker', status: 'running' })]);
  });

  it('stopped by close() are recorded as interrupted before it resolves, not as running', async () => {
    const worker = heldWorker();
    const store = memorySessionStore();
    const agent = createAgent({
      model: scriptedModel([turn(agentCall('worker', 'p_bg', true)), 'On it.']),
      tools: [look],
      agents: { worker: { description: 'worker', prompt: 'worker', model: worker.model } },
      store,
    });
    const ends: AgentEvent[] = [];
    agent.on('background-task-end', (event) => ends.push(event));
    await agent.run('go').result;
    await worker.held;

    await agent.close();
    const stored = (state: { toolState: Record<string, unknown> }) => Object.values(state.toolState['agent-harness/background-tasks'] as Record<string, { status: string }>);
    expect(stored(agent.snapshot())).toEqual([expect.objectContaining({ subagentType: 'worker', status: 'interrupted' })]);
    expect(ends).toEqual([expect.objectContaining({ task: expect.objectContaining({ subagentType: 'worker', status: 'interrupted' }) })]);

    // A session resumed from the store knows it ended, and its model is told in its next turn.
    const model = scriptedModel(['Noted.']);
    const resumed = createAgent({ model, tools: [look], agents: { worker: { description: 'worker', prompt: 'worker', model: scriptedModel([]) } }, store, resume: agent.sessionId });
    await resumed.ready;
    expect(stored(resumed.snapshot())).toEqual([expect.objectContaining({ status: 'interrupted' })]);
    await resumed.run('and the worker?').result;
    expect(JSON.stringify(model.requests[0]!.messages.at(-1))).toMatch(/Background task task_[\w-]+ \(worker: worker job\) interrupted\. Its output, [^:]*: [^)]*\):\\n<task-output>\\n\(stopped: the agent was closed while it ran\)\\n<\/task-output>/);
    await resumed.close();
  });

  it('do not start once close() began (a SubagentStart hook still running then)', async () => {
    const hookStarted = deferred();
    const worker = scriptedModel(['Worker done.']);
    const agent = createAgent({
      // The hook runs once the task has its place, beside the parent's next turn (held until close()).
      model: scriptedModel([turn(agentCall('worker', 'p_bg', true)), turn('On it.', { hold: (signal) => new Promise<void>((resolve) => signal!.addEventListener('abort', () => resolve(), { once: true })) })]),
      agents: { worker: { description: 'worker', prompt: 'worker', model: worker } },
      hooks: {
        SubagentStart: [{ hook: ({ signal }) => new Promise<void>((resolve) => (hookStarted.resolve(), signal.addEventListener('abort', () => resolve(), { once: true }))) }],
      },
    });
    const starts: AgentEvent[] = [];
    agent.on('subagent-start', (event) => starts.push(event));
    const run = agent.run('go');
    await hookStarted.promise;
    await agent.close();
    expect((await run.result).status).toBe('interrupted');
    await tick();
    expect(worker.requests).toHaveLength(0);
    expect(starts).toEqual([]);
  });

  it('report their end to the subagent that started them, in its next turn', async () => {
    const opened = deferred();
    const wait = defineTool({ name: 'wait', description: 'Waits.', inputSchema: z.object({}), readOnly: true, execute: async () => (await opened.promise, 'waited') });
    const lead = scriptedModel([turn(agentCall('worker', 'l_bg', true)), turn(toolCall('wait', {}, 'l_wait')), 'The worker said 42.']);
    const top = scriptedModel([turn(agentCall('lead', 'p_lead')), 'Done.']);
    const agent = createAgent({
      model: top,
      tools: [wait],
      agents: { lead: { description: 'lead', prompt: 'lead', model: lead, maxDepth: 1 }, worker: { description: 'worker', prompt: 'worker', model: scriptedModel(['42']) } },
    });
    const ended = deferred<AgentEvent>();
    agent.on('background-task-end', (event) => (ended.resolve(event), opened.resolve()));
    const result = await agent.run('go').result;
    expect(result.status).toBe('completed');

    const event = await ended.promise;
    const leadId = (result.subagents ?? []).find((summary) => summary.subagentType === 'lead')!.agentId;
    expect(event).toMatchObject({ agentId: leadId, task: { subagentType: 'worker', status: 'completed' }, output: '42' });
    expect(JSON.stringify(lead.requests[2]!.messages.at(-1))).toContain(`Background task ${(event as { task: { taskId: string } }).task.taskId}`);
    expect(top.requests.some((request) => JSON.stringify(request.messages).includes('Background task'))).toBe(false);
    await agent.close();
  });
});
