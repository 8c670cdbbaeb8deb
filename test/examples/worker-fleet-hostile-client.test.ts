// The worker fleet's HTTP front against a hostile or clumsy client: malformed and huge bodies,
// an Idempotency-Key reused for another prompt, odd session ids, and answers for sessions or
// approvals that do not exist. Each used to end in a 500 (or in a job queued to fail on a worker);
// each now gets a 4xx that says what is wrong. No worker is needed: nothing here should run.
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { postgres } from '../postgres/postgres-test-database.js';
import { redis } from '../redis/redis-test-server.js';
import { fleetServerScope } from './fleet-server-scope.js';

const reachable = postgres.reachable && redis.reachable;

describe.skipIf(!reachable)('examples/worker-fleet: a hostile client', () => {
  const scope = fleetServerScope('fleet_hostile', 0);
  const { queueName } = scope;

  const raw = async (method: string, path: string, body?: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${scope.fleet.url}${path}`, { method, ...(body !== undefined ? { body } : {}), headers: { 'content-type': 'application/json', ...headers } });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };

  it('answers a body that is not JSON, or not an object, with 400 naming the problem', async () => {
    for (const body of ['{"prompt": ', '[1, 2]', '"hello"', 'null']) {
      const answer = await raw('POST', '/runs', body);
      expect(answer.status, body).toBe(400);
      expect(answer.body.error, body).toMatch(/JSON object/);
    }
  });

  it('refuses a huge body with 413 instead of buffering it', async () => {
    const answer = await raw('POST', '/runs', JSON.stringify({ prompt: 'x'.repeat(2_000_000) }));
    expect(answer.status).toBe(413);
    expect(answer.body.error).toMatch(/1 MB/);
  });

  it('refuses an Idempotency-Key reused for another prompt with 422, and replays the same one', async () => {
    const headers = { 'idempotency-key': 'retry-1' };
    const first = await raw('POST', '/runs', JSON.stringify({ sessionId: 'hostile-key', prompt: 'Write a.md' }), headers);
    expect(first.status).toBe(202);
    const again = await raw('POST', '/runs', JSON.stringify({ sessionId: 'hostile-key', prompt: 'Write a.md' }), headers);
    expect(again).toEqual({ status: 202, body: { ...first.body, duplicate: true } });
    // A keyed job's id holds a '/': GET /jobs/:jobId finds it raw and percent-encoded.
    for (const path of [`/jobs/${first.body.jobId}`, `/jobs/${encodeURIComponent(first.body.jobId)}`]) {
      const job = await raw('GET', path);
      expect(job.status, path).toBe(200);
      expect(job.body.jobId).toBe(first.body.jobId);
    }
    const other = await raw('POST', '/runs', JSON.stringify({ sessionId: 'hostile-key', prompt: 'Delete everything' }), headers);
    expect(other.status).toBe(422);
    expect(other.body.error).toMatch(/already queued another request/);
  });

  it('refuses a session id or key the queue cannot take with 422, not 500', async () => {
    const longKey = await raw('POST', '/runs', JSON.stringify({ prompt: 'hi' }), { 'idempotency-key': 'k'.repeat(500) });
    expect(longKey.status).toBe(422);
    expect(longKey.body.error).toMatch(/idempotencyKey/);
    const loneSurrogate = await raw('POST', '/runs', JSON.stringify({ sessionId: 'a\ud800', prompt: 'hi' }));
    expect(loneSurrogate.status).toBe(422);
    expect(loneSurrogate.body.error).toMatch(/sessionId/);
  });

  it('answers an approval of a session or id that is not waiting with 404, and queues nothing', async () => {
    const client = new Redis(redis.url);
    const before = await client.keys(`bull:${queueName}:*approval*`);
    for (const path of ['/approvals/no-such-session/toolu_1', '/approvals/..%2F..%2Fetc/passwd', `/approvals/${encodeURIComponent('sessión-✓')}/x`]) {
      const answer = await raw('POST', path, JSON.stringify({ behavior: 'allow' }));
      expect(answer.status, path).toBe(404);
      expect(answer.body.error, path).toMatch(/No approval/);
    }
    const malformed = await raw('POST', '/approvals/%E0%A4%A/x', JSON.stringify({ behavior: 'allow' }));
    expect(malformed.status).toBe(400);
    expect(await client.keys(`bull:${queueName}:*approval*`)).toEqual(before);
    await client.quit();
  });
});
