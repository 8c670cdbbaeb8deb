// Subagents waiting for a place under maxSubagentConcurrency when the run is interrupted or the agent closed.
import { describe, expect, it } from 'vitest';
import { createAgent, type AgentEvent, type AgentEventType } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { deferred, tick, watchedStore } from '../helpers.js';
import { SubagentLimiter } from '../../src/subagents/subagent-limiter.js';
import type { AgentCore } from '../../src/runtime/agent-core.js';

const agentCall = (id: string, background = false) =>
  toolCall('Agent', { description: `job ${id}`, prompt: `do job ${id}`, subagent_type: 'worker', ...(background ? { run_in_background: true } : {}) }, id);

const WATCHED: AgentEventType[] = ['subagent-start', 'subagent-end', 'run-start', 'run-end', 'turn-start', 'tool-call', 'tool-result', 'error', 'background-task-end'];

/**
 * A `worker` model whose first call is held until the test releases it (or, with
 * `honorsAbort`, until its signal aborts, as a real model call would); any later call answers.
 */
function heldWorker(honorsAbort: boolean) {
  const held = deferred<AbortSignal>();
  const release = deferred();
  const model = scriptedModel([
    turn('Working.', {
      hold: (signal) => {
        held.resolve(signal!);
        const aborted = new Promise<void>((resolve) => signal!.addEventListener('abort', () => resolve(), { once: true }));
        return honorsAbort ? Promise.race([release.promise, aborted]) : release.promise;
      },
    }),
    ...Array.from({ length: 5 }, () => 'Worker done.'),
  ]);
  return { model, held: held.promise, release: () => release.resolve() };
}

/** Three `worker` calls on one place: the first takes it and is held, the other two wait. */
function setup(options: { honorsAbort: boolean; background?: boolean }) {
  const worker = heldWorker(options.honorsAbort);
  const { store, late, watch } = watchedStore();
  const hooks = { starts: [] as string[], stops: [] as string[] };
  const background = options.background ?? false;
  const agent = createAgent({
    model: scriptedModel([turn(agentCall('a', background), agentCall('b', background), agentCall('c', background)), 'Started them.']),
    agents: { worker: { description: 'worker', prompt: 'worker', model: worker.model } },
    maxSubagentConcurrency: 1,
    store,
    hooks: {
      SubagentStart: [{ hook: ({ parentToolUseId }) => void hooks.starts.push(parentToolUseId) }],
      SubagentStop: [{ hook: ({ parentToolUseId }) => void hooks.stops.push(parentToolUseId) }],
    },
  });
  const events: AgentEvent[] = [];
  for (const type of WATCHED) agent.on(type, (event: AgentEvent) => void events.push(event));
  return { agent, worker, late, watch, hooks, events };
}

/** Lets anything still pending settle (the loop waits on promises only). */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 20; turn++) await tick();
}

const calls = (events: AgentEvent[], type: 'subagent-start' | 'subagent-end') => events.filter((event) => event.type === type).map((event) => event.parentToolUseId);

describe('subagents waiting for a place', () => {
  it('stop waiting when the run is interrupted: they never start (no SubagentStart hook, no subagent-start, no model call)', async () => {
    // The running one ignores its abort signal, so it keeps its place until the test lets it go.
    const { agent, worker, hooks, events } = setup({ honorsAbort: false });
    const run = agent.run('go');
    await worker.held;
    agent.interrupt();
    expect((await run.result).status).toBe('interrupted');

    worker.release();
    await settle();
    // Only the one that had a place ran; the two waiting gave up at the interrupt.
    expect(worker.model.requests).toHaveLength(1);
    expect(hooks.starts).toEqual(['a']);
    expect(hooks.stops).toEqual(['a']);
    expect(calls(events, 'subagent-start')).toEqual(['a']);
    expect(calls(events, 'subagent-end')).toEqual(['a']);
    expect(events.find((event) => event.type === 'subagent-end')).toMatchObject({ summary: { status: 'interrupted' } });
    // Nothing of the two others ran: no run of theirs, no entry of theirs stored.
    const ran = new Set(events.filter((event) => event.type === 'run-start').map((event) => event.agentId));
    expect(ran).toEqual(new Set([undefined, events.find((event) => event.type === 'subagent-start')!.agentId]));
    const answers = agent.messages.at(-1)!.content as Array<{ tool_use_id: string; is_error?: boolean; content: unknown }>;
    expect(answers.map((block) => [block.tool_use_id, block.is_error])).toEqual([['a', true], ['b', true], ['c', true]]);
    await agent.close();
  });

  it('stop waiting when the agent is closed: every start has its end before close() resolves, and nothing happens after', async () => {
    const { agent, worker, late, watch, hooks, events } = setup({ honorsAbort: true });
    const run = agent.run('go');
    await worker.held;
    await agent.close();
    expect((await run.result).status).toBe('interrupted');
    const seen = { events: events.length, starts: hooks.starts.length, stops: hooks.stops.length };
    watch();

    worker.release();
    await settle();
    expect(late).toEqual([]);
    expect(events.slice(seen.events).map((event) => event.type)).toEqual([]);
    expect([hooks.starts.length, hooks.stops.length]).toEqual([seen.starts, seen.stops]);
    expect(worker.model.requests).toHaveLength(1);
    expect(hooks.starts).toEqual(['a']);
    expect(calls(events, 'subagent-start')).toEqual(['a']);
    expect(calls(events, 'subagent-end')).toEqual(['a']);
  });

  it('as background tasks stop waiting when the agent is closed: they end interrupted, never started', async () => {
    const { agent, worker, late, watch, hooks, events } = setup({ honorsAbort: true, background: true });
    expect((await agent.run('go').result).status).toBe('completed');
    await worker.held;
    await agent.close();
    const seen = events.length;
    watch();

    worker.release();
    await settle();
    expect(late).toEqual([]);
    expect(events.slice(seen)).toEqual([]);
    expect(worker.model.requests).toHaveLength(1);
    expect(hooks.starts).toHaveLength(1);
    expect(hooks.stops).toHaveLength(1);
    expect(events.filter((event) => event.type === 'subagent-start')).toHaveLength(1);
    expect(events.filter((event) => event.type === 'subagent-end')).toHaveLength(1);
    const ends = events.filter((event) => event.type === 'background-task-end');
    expect(ends.map((event) => event.task.status)).toEqual(['interrupted', 'interrupted', 'interrupted']);
    const stored = Object.values(agent.snapshot().toolState['agent-harness/background-tasks'] as Record<string, { status: string }>);
    expect(stored.map((task) => task.status)).toEqual(['interrupted', 'interrupted', 'interrupted']);
  });
  it('stop waiting at any depth: the subagents of a subagent, waiting when the agent is closed never start', async () => {
    const worker = heldWorker(true);
    const { store, late, watch } = watchedStore();
    const lead = scriptedModel([turn(agentCall('w1'), agentCall('w2')), 'Lead done.']);
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('Agent', { description: 'lead', prompt: 'lead the work', subagent_type: 'lead' }, 'p_lead')), 'Done.']),
      agents: { lead: { description: 'lead', prompt: 'lead', model: lead, maxDepth: 1 }, worker: { description: 'worker', prompt: 'worker', model: worker.model } },
      maxSubagentConcurrency: 1,
      store,
    });
    const events: AgentEvent[] = [];
    for (const type of WATCHED) agent.on(type, (event: AgentEvent) => void events.push(event));
    const run = agent.run('go');
    await worker.held;
    await agent.close();
    expect((await run.result).status).toBe('interrupted');
    const seen = events.length;
    watch();
    worker.release();
    await settle();
    expect(late).toEqual([]);
    expect(events.slice(seen)).toEqual([]);
    expect(worker.model.requests).toHaveLength(1);
    expect(calls(events, 'subagent-start')).toEqual(['p_lead', 'w1']);
    expect(calls(events, 'subagent-end').sort()).toEqual(['p_lead', 'w1']);
  });
});

describe('SubagentLimiter', () => {
  const core = () => ({}) as AgentCore;

  it('stops a subagent waiting to take its place back when its run is interrupted, and the place count stays right', async () => {
    const limiter = new SubagentLimiter(1);
    const [lead, child, other, later] = [core(), core(), core(), core()];
    const interrupt = new AbortController();
    const childDone = deferred();
    const otherDone = deferred();
    const leadDone = deferred();
    let childCall: Promise<string> | undefined;
    const leadRun = limiter.run(lead, async () => {
      // The lead lends its place to its child, and must take one back when the child ends.
      childCall = limiter.run(child, async () => (await childDone.promise, 'child result'), { waiter: lead, signal: interrupt.signal });
      await leadDone.promise;
    });
    await tick();
    const otherRun = limiter.run(other, () => otherDone.promise);
    childDone.resolve();
    await tick();
    // The other one took the freed place; the lead waits to take one back until it is interrupted.
    let settled = false;
    void childCall!.then(() => (settled = true));
    await tick();
    expect(settled).toBe(false);
    interrupt.abort(new Error('interrupted'));
    await tick();
    expect(settled).toBe(true);
    await expect(childCall).resolves.toBe('child result');

    // The lead holds no place now: once the other ends, the only place is free for the next at once.
    leadDone.resolve();
    await leadRun;
    otherDone.resolve();
    await otherRun;
    let laterRan = false;
    const laterRun = limiter.run(later, async () => void (laterRan = true));
    await laterRun;
    expect(laterRan).toBe(true);
    // And only one at a time still: a held place keeps the next waiting.
    const hold = deferred();
    const first = limiter.run(core(), () => hold.promise);
    let secondRan = false;
    const second = limiter.run(core(), async () => void (secondRan = true));
    await tick();
    expect(secondRan).toBe(false);
    hold.resolve();
    await Promise.all([first, second]);
    expect(secondRan).toBe(true);
  });
});
