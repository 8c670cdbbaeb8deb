// The worker fleet example, for real: its HTTP API and two worker processes on PostgreSQL and
// Redis, offline on the demo model. Outside CI, without the servers, it skips with one line.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { PendingSession } from 'agent-harness';
import { postgres } from '../postgres/postgres-test-database.js';
import { redis } from '../redis/redis-test-server.js';
import { fleetServerScope } from './fleet-server-scope.js';

const reachable = postgres.reachable && redis.reachable;

describe.skipIf(!reachable)('examples/worker-fleet: an HTTP API in front of worker processes', () => {
  const scope = fleetServerScope('fleet_example', 2);
  const { schema, logFile } = scope;

  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${scope.fleet.url}${path}`, { method, ...(body ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}) });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };

  /** Long-polls the job until it is finished: each request returns when the job ends, or after 10 s. */
  const settled = async (jobId: string) => {
    for (let poll = 0; poll < 6; poll++) {
      const { body } = await call('GET', `/jobs/${jobId}?waitMs=10000`);
      if (body.state === 'completed') return body.result;
      if (body.state === 'failed') throw new Error(`job ${jobId} failed: ${body.failedReason}`);
    }
    throw new Error(`job ${jobId} did not finish within 6 polls\n${scope.fleet.output()}`);
  };

  it('starts runs, lists their approvals, and continues each on whichever worker takes the answer', async () => {
    const started = await Promise.all(['a', 'b', 'c'].map((name) => call('POST', '/runs', { sessionId: `${schema}-${name}`, prompt: `Task ${name}` })));
    for (const { status } of started) expect(status).toBe(202);
    const parked = await Promise.all(started.map(({ body }) => settled(body.jobId)));
    for (const result of parked) expect(result).toMatchObject({ status: 'awaiting-approval' });

    const inbox = (await call('GET', '/approvals')).body as unknown as PendingSession[];
    const ours = inbox.filter((pending) => pending.sessionId.startsWith(schema));
    expect(ours.map((pending) => pending.sessionId)).toEqual([`${schema}-a`, `${schema}-b`, `${schema}-c`]);
    for (const pending of ours) expect(pending.approvals.map((approval) => approval.toolName)).toEqual(['publish']);

    const answers = await Promise.all(
      ours.map((pending, index) =>
        call('POST', `/approvals/${encodeURIComponent(pending.sessionId)}/${encodeURIComponent(pending.approvals[0]!.id)}`, index === 2 ? { behavior: 'deny', message: 'Not this one.' } : { behavior: 'allow' }),
      ),
    );
    for (const { status } of answers) expect(status).toBe(202);
    // A second, different answer to an answered approval is not applied: 422 while the first is queued, 404 once it ran.
    const [, , denied] = ours;
    const second = await call('POST', `/approvals/${encodeURIComponent(denied!.sessionId)}/${encodeURIComponent(denied!.approvals[0]!.id)}`, { behavior: 'allow' });
    expect([404, 422]).toContain(second.status);
    const done = await Promise.all(answers.map(({ body }) => settled(body.jobId)));
    for (const result of done) expect(result).toMatchObject({ status: 'completed', pendingApprovals: [] });
    expect(((await call('GET', '/approvals')).body as unknown as PendingSession[]).filter((pending) => pending.sessionId.startsWith(schema))).toEqual([]);

    // Each tool call ran once; the denied publish never ran.
    const ran = existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as { toolUseId: string; name: string }) : [];
    expect(new Set(ran.map((execution) => execution.toolUseId)).size).toBe(ran.length);
    expect(ran.filter((execution) => execution.name === 'publish')).toHaveLength(2);
    expect(ran).toHaveLength(5 + 5 + 4);

    expect((await call('POST', '/approvals/x/y', { behavior: 'deny' })).status).toBe(400);
    expect((await call('POST', '/runs', {})).status).toBe(400);
  }, 120_000);
});
