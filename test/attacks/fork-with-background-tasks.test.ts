// Attack class: a fork made while a background subagent of its source still runs. The task runs
// on in the source and reports there; the fork kept it as "running" for ever, so its model waited
// for a report that could never come, and only a later resume called it interrupted.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, forkSession, memorySessionStore, defineTool } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { deferred } from '../helpers.js';

const look = defineTool({ name: 'look', description: 'Looks.', inputSchema: z.object({}), readOnly: true, execute: () => 'seen' });
const lastUserText = (model: ReturnType<typeof scriptedModel>) => JSON.stringify(model.requests.at(-1)?.messages.at(-1));

describe('attack: a fork while a background task runs', () => {
  it('the fork (by agent.fork() or forkSession) is told at once that the task runs in its source and reports there; the source still gets the report', async () => {
    const held = deferred<void>();
    const release = deferred<void>();
    const workerModel = scriptedModel([turn('Looking.', toolCall('look', {}, 'w_look'), { hold: async () => (held.resolve(), release.promise) }), 'Worker report.']);
    const agents = { worker: { description: 'w', prompt: 'w', model: workerModel } };
    const store = memorySessionStore();
    const model = scriptedModel([turn(toolCall('Agent', { description: 'bg', prompt: 'do', subagent_type: 'worker', run_in_background: true }, 'p_bg')), 'Started.', 'Source again.', 'Fork goes on.']);
    const source = createAgent({ model, tools: [look], agents, store });
    await source.run('go').result;
    await held.promise;

    // Forked from the store (no agent): the same, told when the fork is first resumed.
    const storedFork = await forkSession(store, source.sessionId);
    const storedForkModel = scriptedModel(['Stored fork.']);
    const fromStore = createAgent({ model: storedForkModel, tools: [look], agents, store, resume: storedFork });
    await fromStore.run('in the stored fork').result;
    expect(lastUserText(storedForkModel)).toContain(`forked from session \\"${source.sessionId}\\" and runs there`);
    expect(lastUserText(storedForkModel)).not.toMatch(/the session stopped while it ran/);
    await fromStore.close();

    const fork = await source.fork();
    const forkRun = await fork.run('in the fork').result;
    expect(forkRun.status).toBe('completed');
    const told = lastUserText(model);
    expect(told).toMatch(/Background task task_\S+ \(worker: bg\) interrupted/);
    expect(told).toContain(`forked from session \\"${source.sessionId}\\" and runs there`);

    // Resumed from the store, the fork has nothing left running: no second notice.
    await fork.close();
    const resumedModel = scriptedModel(['Resumed.']);
    const resumed = createAgent({ model: resumedModel, tools: [look], agents, store, resume: fork.sessionId });
    await resumed.run('again').result;
    expect(lastUserText(resumedModel)).not.toMatch(/Background task/);
    await resumed.close();

    // The source's task was not touched by the fork: it finishes and reports to the source.
    release.resolve();
    await new Promise<void>((resolve) => source.once('background-task-end', () => resolve()));
    await source.run('next').result;
    expect(lastUserText(model)).toContain('Worker report.');
    await source.close();
  });
});
