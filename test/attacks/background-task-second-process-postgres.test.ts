// Attack class: a background subagent still running in one process while another process loads
// the session from a server store that has no lock (PostgreSQL without leases). The loader
// records the task interrupted (docs/architecture.md); the first process's task then ends on a
// session that moved on. What must hold: the first process fails cleanly (a SessionConflictError
// error event, no unhandled rejection), no second end is recorded over the first, and the session
// goes on, the model told once.
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, type Agent, type AgentEvent } from 'agent-harness';
import { migratePostgres, postgresSessionStore } from 'agent-harness/postgres';
import { scriptedModel } from 'agent-harness/testing';
import { dropSchema, postgres, testPool, testSchema } from '../postgres/postgres-test-database.js';
import { backgroundJob } from './background-job.js';

const agents: Agent[] = [];
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close().catch(() => undefined)));
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe.skipIf(!postgres.reachable)('attack: a background task still running when another process loads the session (PostgreSQL)', () => {
  it('the late end in the first process is an error event, and the session loads with one end for the task', async () => {
    const pool = testPool(4);
    const schema = testSchema();
    cleanups.push(async () => {
      await dropSchema(pool, schema);
      await pool.end();
    });
    await migratePostgres({ pool, schema });
    const { release, wait, agentsOption, starter } = backgroundJob();

    const first = starter(postgresSessionStore({ pool, schema }));
    agents.push(first);
    expect((await first.run('Start the job.').result).status).toBe('completed');

    const second = createAgent({ model: scriptedModel(['Noted.']), tools: [wait], agents: agentsOption(scriptedModel([])), store: postgresSessionStore({ pool, schema }), resume: first.sessionId });
    agents.push(second);
    await second.ready;
    await second.close();

    const settled = new Promise<string>((resolve) => {
      first.once('background-task-end', () => resolve('ended'));
      first.once('error', (event: Extract<AgentEvent, { type: 'error' }>) => resolve(`error: ${String(event.error)}`));
    });
    release();
    const outcome = await settled;
    await first.close().catch(() => undefined);

    const third = createAgent({ model: scriptedModel([]), tools: [wait], agents: agentsOption(scriptedModel([])), store: postgresSessionStore({ pool, schema }), resume: first.sessionId });
    agents.push(third);
    await third.ready;
    const statuses = Object.values(third.snapshot().toolState['agent-harness/background-tasks'] as Record<string, { status: string }>).map((task) => task.status);
    // The first process's end was not written over the second's record: it got a conflict.
    expect(outcome).toMatch(/^error: SessionConflictError: .*changed by another writer/);
    expect(statuses).toEqual(['interrupted']);
    // The session goes on: its next run tells the model of the interruption, once.
    const model = scriptedModel(['Understood.']);
    const fourth = createAgent({ model, tools: [wait], agents: agentsOption(scriptedModel([])), store: postgresSessionStore({ pool, schema }), resume: first.sessionId });
    await third.close();
    agents.push(fourth);
    expect((await fourth.run('Status?').result).status).toBe('completed');
    expect(JSON.stringify(model.requests[0]!.messages).match(/Background task task_\S+ \(worker: long job\) interrupted/g)).toHaveLength(1);
  });
});
