// enqueueRun / enqueueApproval refuse what no worker could run, before anything reaches Redis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigurationError, MAX_SESSION_ID_BYTES } from 'agent-harness';
import { createAgentQueue, type AgentQueue } from 'agent-harness/bullmq';
import { QueueEvents, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { redis } from '../redis/redis-test-server.js';
import { uniqueName } from '../server-under-test.js';
import { bullConnection, dropPrefix } from './fleet-stores.js';

/** A queue of its own for the describe block that calls this, closed and its keys dropped after. */
function queueFixture(name: string): { queue: AgentQueue } {
  const fixture = {} as { queue: AgentQueue };
  let admin: Redis | undefined;
  const prefix = uniqueName(name);
  beforeAll(() => {
    fixture.queue = createAgentQueue({ connection: bullConnection(redis.url), queueName: uniqueName('queue'), prefix });
    admin = new Redis(redis.url);
  });
  afterAll(async () => {
    await fixture.queue?.close();
    if (admin) await dropPrefix(admin, prefix);
    await admin?.quit();
  });
  return fixture;
}

describe.skipIf(!redis.reachable)('createAgentQueue: session ids', () => {
  const fixture = queueFixture('ah-queue');

  // What the stores refuse (assertSessionId), refused when the job is queued, not by the worker that takes it.
  const refused: Array<[string, unknown, RegExp]> = [
    ['a lone surrogate', 'user-\ud800', /"user-\\ud800"/],
    ['a NUL character', 'user\u000042', /"user\\u000042"/],
    ['an empty string', '', /""/],
    ['a number', 42, /42/],
  ];

  /** What a call threw (at once, or as its rejection). */
  const thrownBy = async (call: () => Promise<unknown>): Promise<unknown> => {
    try {
      await call();
    } catch (error) {
      return error;
    }
    return undefined;
  };

  it.each(refused)('enqueueRun refuses a session id with %s at once, naming it and the fix, and queues nothing', async (_, sessionId, shown) => {
    const thrown = await thrownBy(() => fixture.queue.enqueueRun({ sessionId: sessionId as string, prompt: 'Hello' }));
    expect(ConfigurationError.isInstance(thrown)).toBe(true);
    const message = (thrown as Error).message;
    expect(message).toMatch(/^enqueueRun: `sessionId`/);
    expect(message).toMatch(shown);
    expect(message).toMatch(/well-formed Unicode/);
    expect(message).toMatch(/e\.g\. "user-42"/);
    expect(await fixture.queue.queue.getJobCounts('waiting', 'delayed', 'active')).toEqual({ waiting: 0, delayed: 0, active: 0 });
  });

  it('enqueueApproval refuses such a session id too', async () => {
    const thrown = await thrownBy(() => fixture.queue.enqueueApproval({ sessionId: 'user-\udfff', approvalId: 'approval_x', decision: { behavior: 'allow' } }));
    expect(ConfigurationError.isInstance(thrown)).toBe(true);
    expect((thrown as Error).message).toMatch(/^enqueueApproval: `sessionId`.*"user-\\udfff"/);
    expect(await fixture.queue.queue.getJobCounts('waiting', 'delayed', 'active')).toEqual({ waiting: 0, delayed: 0, active: 0 });
  });

  it('enqueueApproval refuses a decision resolveApproval would refuse (an updatedInput that is not an object, a flag that is not a boolean), and queues nothing', async () => {
    const decisions: Array<[unknown, RegExp]> = [
      [{ behavior: 'allow', updatedInput: 'x' }, /^enqueueApproval: decision\.updatedInput must be the tool's input object/],
      [{ behavior: 'deny', message: 'No.', interrupt: 'yes' }, /^enqueueApproval: decision\.interrupt must be true or false, got "yes"/],
    ];
    for (const [decision, message] of decisions) {
      const thrown = await thrownBy(() => fixture.queue.enqueueApproval({ sessionId: 'user-1', approvalId: 'approval_x', decision: decision as never }));
      expect(ConfigurationError.isInstance(thrown)).toBe(true);
      expect((thrown as Error).message).toMatch(message);
    }
    expect(await fixture.queue.queue.getJobCounts('waiting', 'delayed', 'active')).toEqual({ waiting: 0, delayed: 0, active: 0 });
  });

  it(`refuses a session id longer than MAX_SESSION_ID_BYTES (${MAX_SESSION_ID_BYTES}) bytes of UTF-8 at once, naming its length and the limit, and queues nothing`, async () => {
    // 67 three-byte characters: 201 bytes, though only 67 characters.
    for (const sessionId of ['s'.repeat(MAX_SESSION_ID_BYTES + 1), '漢'.repeat(67)]) {
      for (const call of [() => fixture.queue.enqueueRun({ sessionId, prompt: 'Hello' }), () => fixture.queue.enqueueApproval({ sessionId, approvalId: 'approval_x', decision: { behavior: 'allow' } })]) {
        const thrown = await thrownBy(call);
        expect(ConfigurationError.isInstance(thrown)).toBe(true);
        expect((thrown as Error).message).toMatch(/^enqueue(Run|Approval): `sessionId`/);
        expect((thrown as Error).message).toContain(`is 201 bytes long in UTF-8, at most ${MAX_SESSION_ID_BYTES} are allowed`);
      }
    }
    expect(await fixture.queue.queue.getJobCounts('waiting', 'delayed', 'active')).toEqual({ waiting: 0, delayed: 0, active: 0 });
  });

  it('takes any session id the stores take', async () => {
    expect((await fixture.queue.enqueueRun({ sessionId: 's'.repeat(MAX_SESSION_ID_BYTES), prompt: 'Hello' })).sessionId).toHaveLength(MAX_SESSION_ID_BYTES);
    const { sessionId } = await fixture.queue.enqueueRun({ sessionId: 'user 42 · 🧪 漢字', prompt: 'Hello' });
    expect(sessionId).toBe('user 42 · 🧪 漢字');
  });
});

describe.skipIf(!redis.reachable)('createAgentQueue: idempotency keys', () => {
  const fixture = queueFixture('ah-queue-keys');

  const waiting = async () => (await fixture.queue.queue.getJobCounts('waiting')).waiting;

  it('queues one job for a request sent twice, also when both are sent at once; another session or kind with the same key is another job', async () => {
    const first = await fixture.queue.enqueueRun({ sessionId: 'user-1', prompt: 'Hello', idempotencyKey: 'req-1' });
    expect(first.duplicate).toBeUndefined();
    const again = await fixture.queue.enqueueRun({ sessionId: 'user-1', prompt: 'Hello', idempotencyKey: 'req-1' });
    expect(again).toEqual({ ...first, duplicate: true });
    expect(await waiting()).toBe(1);
    const racing = await Promise.all(Array.from({ length: 6 }, () => fixture.queue.enqueueRun({ sessionId: 'user-1', prompt: 'At once', idempotencyKey: 'req-2' })));
    expect(new Set(racing.map((job) => job.jobId)).size).toBe(1);
    expect(await waiting()).toBe(2);
    // Keys are per session and kind; ':' and '/' in ids do not let two pairs meet.
    const other = await fixture.queue.enqueueRun({ sessionId: 'user-2', prompt: 'Hello', idempotencyKey: 'req-1' });
    const approval = await fixture.queue.enqueueApproval({ sessionId: 'user-1', approvalId: 'approval_1', decision: { behavior: 'allow' }, idempotencyKey: 'req-1' });
    const slashA = await fixture.queue.enqueueRun({ sessionId: 'a/b', prompt: 'Hello', idempotencyKey: 'c' });
    const slashB = await fixture.queue.enqueueRun({ sessionId: 'a', prompt: 'Hello', idempotencyKey: 'b/c' });
    const colon = await fixture.queue.enqueueRun({ sessionId: 'user:3', prompt: 'Hello', idempotencyKey: 'x:y:z' });
    expect(new Set([first, other, approval, slashA, slashB, colon].map((job) => job.jobId)).size).toBe(6);
    expect(await waiting()).toBe(7);
  });

  it('refuses a key reused for another request of the session while the first job is kept, and queues nothing', async () => {
    await fixture.queue.enqueueRun({ sessionId: 'user-9', prompt: 'Write the intro.', idempotencyKey: 'req-9' });
    const before = await waiting();
    const thrown = await fixture.queue.enqueueRun({ sessionId: 'user-9', prompt: 'Delete everything.', idempotencyKey: 'req-9' }).catch((error: unknown) => error);
    expect(ConfigurationError.isInstance(thrown)).toBe(true);
    expect((thrown as Error).message).toMatch(/^enqueueRun: the idempotencyKey "req-9" of session "user-9" already queued another request/);
    expect(await waiting()).toBe(before);
    const job = await fixture.queue.queue.getJob((await fixture.queue.enqueueRun({ sessionId: 'user-9', prompt: 'Write the intro.', idempotencyKey: 'req-9' })).jobId);
    expect(job?.data).toMatchObject({ prompt: 'Write the intro.' });
  });

  it('tells exactly one of simultaneous calls with one key (on two queues, two connections) that it queued the job; the others get duplicate: true', async () => {
    const second = createAgentQueue({ connection: bullConnection(redis.url), queueName: fixture.queue.queue.name, prefix: fixture.queue.queue.opts.prefix! });
    try {
      for (let round = 0; round < 10; round++) {
        const request = { sessionId: 'user-race', prompt: `Round ${round}`, idempotencyKey: `race-${round}` };
        const runs = await Promise.all([0, 1, 2, 3].map((index) => (index % 2 === 0 ? fixture.queue : second).enqueueRun(request)));
        expect(new Set(runs.map((job) => job.jobId)).size).toBe(1);
        expect(runs.filter((job) => job.duplicate !== true)).toHaveLength(1);
        const approval = { sessionId: 'user-race', approvalId: `approval_${round}`, decision: { behavior: 'allow' as const }, idempotencyKey: `race-${round}` };
        const answers = await Promise.all([0, 1, 2, 3].map((index) => (index % 2 === 0 ? fixture.queue : second).enqueueApproval(approval)));
        expect(answers.filter((job) => job.duplicate !== true)).toHaveLength(1);
      }
    } finally {
      await second.close();
    }
  });

  it('of simultaneous calls with one key for two different requests, one queues its job and the other is refused', async () => {
    const second = createAgentQueue({ connection: bullConnection(redis.url), queueName: fixture.queue.queue.name, prefix: fixture.queue.queue.opts.prefix! });
    try {
      for (let round = 0; round < 5; round++) {
        const key = `clash-${round}`;
        const settled = await Promise.allSettled([
          fixture.queue.enqueueRun({ sessionId: 'user-clash', prompt: 'Write the intro.', idempotencyKey: key }),
          second.enqueueRun({ sessionId: 'user-clash', prompt: 'Delete everything.', idempotencyKey: key }),
        ]);
        const queued = settled.filter((outcome) => outcome.status === 'fulfilled');
        expect(queued).toHaveLength(1);
        expect((queued[0] as PromiseFulfilledResult<{ duplicate?: boolean }>).value.duplicate).toBeUndefined();
        const refused = settled.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult;
        expect(ConfigurationError.isInstance(refused.reason)).toBe(true);
        expect((refused.reason as Error).message).toMatch(/already queued another request/);
      }
    } finally {
      await second.close();
    }
  });

  it.each([
    ['blank', '  ', /is blank/],
    ['a lone surrogate', 'req-\ud800', /has a lone surrogate/],
    ['too long', 'k'.repeat(201), /is 201 bytes of UTF-8/],
    ['a number', 42, /is 42/],
  ])('refuses a key that is %s, naming the rule, and queues nothing', async (_, idempotencyKey, shown) => {
    const before = await waiting();
    // Refused at once (a throw) or as the promise's rejection: either way, nothing queued.
    const thrown = await (async () => fixture.queue.enqueueRun({ sessionId: 'user-1', prompt: 'Hello', idempotencyKey: idempotencyKey as string }))().catch((error: unknown) => error);
    expect(ConfigurationError.isInstance(thrown)).toBe(true);
    expect((thrown as Error).message).toMatch(/^enqueueRun: `idempotencyKey` must be a non-blank string/);
    expect((thrown as Error).message).toMatch(shown);
    expect(await waiting()).toBe(before);
  });
});

describe.skipIf(!redis.reachable)('createAgentQueue: a worker that knows no agent-harness backoff (an older worker, mid-rollout)', () => {
  const fixture = queueFixture('ah-queue-rollout');

  it('retries a job that failed on it with exponential backoff from one second, counting the attempt, instead of leaving it stuck', { timeout: 30_000 }, async () => {
    const { queue } = fixture;
    const connection = bullConnection(redis.url);
    const events = new QueueEvents(queue.queue.name, { connection, prefix: queue.queue.opts.prefix! });
    await events.waitUntilReady();
    const errors: Error[] = [];
    // A plain BullMQ worker with no backoffStrategy, whose processor fails the attempt (a model outage, say).
    const worker = new Worker(queue.queue.name, async () => {
      throw new Error('the model is overloaded');
    }, { connection, prefix: queue.queue.opts.prefix!, lockDuration: 1000, stalledInterval: 1000 });
    worker.on('error', (error) => errors.push(error));
    try {
      const { jobId } = await queue.enqueueRun({ sessionId: 'user-rollout', prompt: 'Hello' });
      const outcome = await new Promise<string>((resolve) => {
        events.on('delayed', (event) => event.jobId === jobId && resolve('delayed for a retry'));
        worker.on('error', (error) => resolve(`worker error: ${error.message}`));
      });
      expect(outcome).toBe('delayed for a retry');
      expect(errors).toEqual([]);
      const job = (await queue.queue.getJob(jobId))!;
      expect(job.attemptsMade).toBe(1);
      expect(job.opts.backoff).toEqual({ type: 'exponential', delay: 1000 });
    } finally {
      await worker.close(true);
      await events.close();
    }
  });
});
