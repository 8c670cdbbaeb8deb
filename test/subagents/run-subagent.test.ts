import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type AgentEvent, type HookEntry } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { deferred } from '../helpers.js';

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
});
