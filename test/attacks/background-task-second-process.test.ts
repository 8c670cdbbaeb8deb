// Attack class: a background subagent still running in one process while another process loads
// the session from the same store (docs/architecture.md: "Background tasks recorded as running
// were stopped with the process that ran them: they are recorded as interrupted"). That is true
// only if no live process still holds the session: the file store's lock refuses the second
// writer, so the running task is never recorded as interrupted under the first one's feet.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, SessionLockedError, type Agent, type AgentEvent } from 'agent-harness';
import { fileSessionStore } from 'agent-harness/node';
import { scriptedModel } from 'agent-harness/testing';
import { backgroundJob } from './background-job.js';

const dirs: string[] = [];
const agents: Agent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close().catch(() => undefined)));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('attack: a background task still running when another process loads the session', () => {
  it('the second writer is refused while the first holds the session; the task ends once, as completed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bg-two-processes-'));
    dirs.push(dir);
    const { release, wait, agentsOption, starter } = backgroundJob();

    const first = starter(fileSessionStore({ dir }));
    agents.push(first);
    const errors: unknown[] = [];
    first.on('error', (event: Extract<AgentEvent, { type: 'error' }>) => errors.push(event.error));
    expect((await first.run('Start the job.').result).status).toBe('completed');

    // Another writer (its own store object on the same directory, as another process has) is
    // refused while the first holds the session: the task it would wrongly call stopped is not.
    const second = createAgent({ model: scriptedModel(['Noted.']), tools: [wait], agents: agentsOption(scriptedModel([])), store: fileSessionStore({ dir }), resume: first.sessionId });
    agents.push(second);
    const refused = await second.ready.then(() => undefined, (error: unknown) => error);
    expect(SessionLockedError.isInstance(refused), String(refused)).toBe(true);

    const ended = new Promise<AgentEvent>((resolve) => first.once('background-task-end', resolve));
    release();
    expect(await ended).toMatchObject({ task: { status: 'completed' } });
    await first.close();
    expect(errors).toEqual([]);

    // Once the first has closed, the session loads with the task's one real end.
    const third = createAgent({ model: scriptedModel([]), tools: [wait], agents: agentsOption(scriptedModel([])), store: fileSessionStore({ dir }), resume: first.sessionId });
    agents.push(third);
    await third.ready;
    const statuses = Object.values(third.snapshot().toolState['agent-harness/background-tasks'] as Record<string, { status: string }>).map((task) => task.status);
    expect(statuses).toEqual(['completed']);
  });
});
