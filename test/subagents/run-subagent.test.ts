import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memorySessionStore, type AgentEvent, type HookEntry, type SessionStore } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { deferred, tick } from '../helpers.js';

const agentCall = (id: string, extra: Record<string, unknown> = {}) => toolCall('Agent', { description: `task ${id}`, prompt: 'work', subagent_type: 'worker', ...extra }, id);

/** A `SubagentStop` hook that holds (the first time it runs) until its signal aborts, and what it saw. */
function slowStopHook() {
  const started = deferred();
  const aborted = deferred<unknown>();
  let calls = 0;
  const entry: HookEntry<'SubagentStop'> = {
    hook: ({ signal }) =>
      new Promise<void>((resolve) => {
        if (++calls > 1) return resolve();
        started.resolve();
        signal.addEventListener('abort', () => (aborted.resolve(signal.reason), resolve()), { once: true });
      }),
  };
  return { entry, started: started.promise, aborted: aborted.promise, calls: () => calls };
}

describe('runSubagent: the SubagentStop hooks', () => {
  it('are aborted when the parent run is interrupted, and free the subagent slot at once', async () => {
    const stop = slowStopHook();
    const parent = scriptedModel([turn(agentCall('p1'))]);
    const agent = createAgent({
      model: parent,
      agents: { worker: { description: 'w', prompt: 'w', model: scriptedModel(['first done', 'second done']) } },
      hooks: { SubagentStop: [stop.entry] },
      // One slot: the second run's subagent can only start once the first subagent let go of it.
      maxSubagentConcurrency: 1,
    });
    const errors: AgentEvent[] = [];
    agent.on('error', (event) => errors.push(event));
    const run = agent.run('go');
    await stop.started;
    agent.interrupt();
    expect((await run.result).status).toBe('interrupted');
    // The hook saw its signal abort with the interrupt (not after its 60 s timeout) and returned.
    const reason = await Promise.race([stop.aborted, Promise.resolve('not aborted')]);
    expect(reason).not.toBe('not aborted');
    expect([...errors]).toEqual([expect.objectContaining({ fatal: false, error: expect.objectContaining({ hookEventName: 'SubagentStop', timedOut: false }) })]);

    // The next run starts a subagent at once: no hook still holds the only slot.
    parent.push(turn(agentCall('p2')), 'Done.');
    const next = await agent.run('again').result;
    expect(next.status).toBe('completed');
    expect(stop.calls()).toBe(2);
  });

  it('of a background subagent outlive an interrupt of the run that started it, and are aborted when the agent closes', async () => {
    const stop = slowStopHook();
    let releaseWait!: () => void;
    const opened = new Promise<void>((resolve) => (releaseWait = resolve));
    const wait = defineTool({ name: 'wait', description: 'Waits.', inputSchema: z.object({}), readOnly: true, execute: async ({ signal }) => (await Promise.race([opened, new Promise((resolve) => signal.addEventListener('abort', resolve))]), 'waited') });
    const agent = createAgent({
      model: scriptedModel([turn(agentCall('p_bg', { run_in_background: true })), 'Started.', turn(toolCall('wait', {}, 'p_wait')), 'never played']),
      tools: [wait],
      agents: { worker: { description: 'w', prompt: 'w', model: scriptedModel(['background done']) } },
      hooks: { SubagentStop: [stop.entry] },
    });
    expect((await agent.run('start it').result).status).toBe('completed');
    await stop.started;
    // Interrupting a later run does not stop the background task's hook…
    const second = agent.run('wait');
    await new Promise<void>((resolve) => agent.once('tool-call', () => resolve()));
    agent.interrupt();
    expect((await second.result).status).toBe('interrupted');
    expect(await Promise.race([stop.aborted.then(() => 'aborted'), Promise.resolve('running')])).toBe('running');
    // …closing the agent does.
    await agent.close();
    const reason = await Promise.race([stop.aborted, Promise.resolve('not aborted')]);
    expect(reason).toBeInstanceOf(Error);
    releaseWait();
  });

  /** A parent whose foreground subagent hangs in a tool until its signal aborts, with a SubagentStop hook. */
  function hangingSubagent(hook: HookEntry<'SubagentStop'>, store?: SessionStore) {
    const inTool = deferred();
    const hang = defineTool({ name: 'hang', description: 'Hangs.', inputSchema: z.object({}), readOnly: true, execute: ({ signal }) => new Promise((resolve) => (inTool.resolve(), signal.addEventListener('abort', () => resolve('stopped')))) });
    const agent = createAgent({
      model: scriptedModel([turn(agentCall('p1')), 'never']),
      tools: [hang],
      agents: { worker: { description: 'w', prompt: 'w', model: scriptedModel([turn(toolCall('hang', {}, 'c_hang')), 'never']) } },
      hooks: { SubagentStop: [hook] },
      ...(store ? { store } : {}),
    });
    const events: AgentEvent[] = [];
    for (const type of ['subagent-end', 'error', 'run-end'] as const) agent.on(type, (event) => events.push(event));
    return { agent, inTool: inTool.promise, events };
  }

  it('of a subagent stopped by an interrupt get a signal that interrupt did not abort: their async cleanup runs to its end', async () => {
    const cleaned = deferred<{ abortedAtStart: boolean; status: string }>();
    const { agent, inTool, events } = hangingSubagent({
      hook: async ({ signal, status }) => {
        const abortedAtStart = signal.aborted;
        // Cleanup that honours its signal (it would throw if the signal aborted).
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, 20);
          signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
        });
        cleaned.resolve({ abortedAtStart, status });
      },
    });
    const run = agent.run('go');
    await inTool;
    agent.interrupt();
    expect((await run.result).status).toBe('interrupted');
    expect(await cleaned.promise).toEqual({ abortedAtStart: false, status: 'interrupted' });
    await tick();
    await agent.close();
    expect(events.filter((event) => event.type === 'error')).toEqual([]);
  });

  /** A SubagentStop hook that holds until its signal aborts, recording whether it was aborted when it started. */
  function holdingStopHook() {
    const started = deferred<{ abortedAtStart: boolean }>();
    const state = { aborted: false };
    const entry: HookEntry<'SubagentStop'> = {
      hook: ({ signal }) =>
        new Promise<void>((resolve) => {
          started.resolve({ abortedAtStart: signal.aborted });
          if (signal.aborted) return resolve();
          signal.addEventListener('abort', () => ((state.aborted = true), resolve()), { once: true });
        }),
    };
    return { entry, started: started.promise, state };
  }

  it.each([['without a store', undefined], ['with a store', memorySessionStore]])('still running after an interrupt are aborted by close(), and nothing of the subagent follows once close() resolves (%s)', async (_, makeStore) => {
    const stop = holdingStopHook();
    const { agent, inTool, events } = hangingSubagent(stop.entry, makeStore?.());
    const run = agent.run('go');
    await inTool;
    agent.interrupt();
    expect((await run.result).status).toBe('interrupted');
    expect(await stop.started).toEqual({ abortedAtStart: false });
    await tick();
    expect(stop.state.aborted).toBe(false);
    await agent.close();
    const seen = events.length;
    expect(stop.state.aborted).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'error', fatal: false, error: expect.objectContaining({ hookEventName: 'SubagentStop', message: expect.stringContaining('agent was closed') }) });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(events).toHaveLength(seen);
  });

  it.each([['without a store', undefined], ['with a store', memorySessionStore]])('of a subagent stopped by close() get an aborted signal and are not waited on, and nothing of the subagent follows once close() resolves (%s)', async (_, makeStore) => {
    const stop = holdingStopHook();
    const { agent, inTool, events } = hangingSubagent(stop.entry, makeStore?.());
    const run = agent.run('go');
    await inTool;
    await agent.close();
    const seen = events.length;
    expect((await run.result).status).toBe('interrupted');
    expect(await stop.started).toEqual({ abortedAtStart: true });
    expect(events.map((event) => `${event.type}${event.agentId ? ' (subagent)' : ''}`).sort()).toEqual(['error', 'run-end', 'run-end (subagent)', 'subagent-end (subagent)']);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(events).toHaveLength(seen);
  });
});
