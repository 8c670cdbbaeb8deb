import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError, createAgent, defineTool, LeaseLostError, memorySessionStore, type Model, type SessionEntry, type SessionStore } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { loadEntries } from '../../src/session/load-entries.js';

const entriesOf = (store: SessionStore, sessionId: string): Promise<SessionEntry[]> => loadEntries(store, sessionId);

function clock() {
  let time = 1_000_000;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

describe('createAgent({ fencingToken }): writes under a lease', () => {
  it('stores a run under the current lease, and refuses every write once the lease is taken over', async () => {
    const time = clock();
    const store = memorySessionStore({ now: time.now });
    const first = (await store.leases!.acquire('s1', { holder: 'worker-a', ttlMs: 1000 }))!;
    const agent = createAgent({ model: scriptedModel(['Hello.', 'Again.']), store, sessionId: 's1', fencingToken: first.fencingToken });
    expect((await agent.run('Hi').result).status).toBe('completed');
    const stored = (await entriesOf(store, 's1')).length;
    expect(stored).toBeGreaterThan(0);

    // Worker A stalls past its lease; worker B takes the session over.
    time.advance(1001);
    const second = (await store.leases!.acquire('s1', { holder: 'worker-b', ttlMs: 1000 }))!;
    expect(second.fencingToken).toBeGreaterThan(first.fencingToken);
    const stale = await agent.run('Still there?').result;
    expect(stale.status).toBe('error');
    expect(LeaseLostError.isInstance(stale.error)).toBe(true);
    expect((await entriesOf(store, 's1')).length).toBe(stored);
    await agent.close();

    // B resumes with its own token and writes.
    const resumed = createAgent({ model: scriptedModel(['B here.']), store, resume: 's1', fencingToken: second.fencingToken });
    expect((await resumed.run('Hello B').result).status).toBe('completed');
    expect((await entriesOf(store, 's1')).length).toBeGreaterThan(stored);
    await resumed.close();
  });

  it('refuses to resume under a token that is not the current lease (nothing is written)', async () => {
    const store = memorySessionStore();
    const lease = (await store.leases!.acquire('s2', { holder: 'a', ttlMs: 60_000 }))!;
    const agent = createAgent({ model: scriptedModel(['Hello.']), store, sessionId: 's2', fencingToken: lease.fencingToken });
    await agent.run('Hi').result;
    await agent.close();
    const before = await entriesOf(store, 's2');
    const resumed = createAgent({ model: scriptedModel([]), store, resume: 's2', fencingToken: lease.fencingToken + 1 });
    // The resume writes nothing until a run; the first write is refused.
    const result = await resumed.run('Hi').result;
    expect(result.status).toBe('error');
    expect(LeaseLostError.isInstance(result.error)).toBe(true);
    expect(await entriesOf(store, 's2')).toEqual(before);
  });

  it('writes a fork without the token: the fork is another session', async () => {
    const store = memorySessionStore();
    const lease = (await store.leases!.acquire('s3', { holder: 'a', ttlMs: 60_000 }))!;
    const agent = createAgent({ model: scriptedModel(['Hello.']), store, sessionId: 's3', fencingToken: lease.fencingToken });
    await agent.run('Hi').result;
    const fork = await agent.fork();
    expect((await entriesOf(store, fork.sessionId)).length).toBeGreaterThan(0);
  });

  it('names the option and the fix for a bad token or a token without a store', () => {
    const model = scriptedModel([]);
    expect(() => createAgent({ model, fencingToken: 3 })).toThrow(/`fencingToken` \(3\) guards the appends to a session store, and there is no `store`/);
    expect(() => createAgent({ model, store: memorySessionStore(), fencingToken: 0 })).toThrow(ConfigurationError);
    expect(() => createAgent({ model, store: memorySessionStore(), fencingToken: 1.5 })).toThrow(/`fencingToken`/);
    expect(() => createAgent({ model, store: memorySessionStore(), fencingToken: '7' as never })).toThrow(/`fencingToken`/);
  });
});

describe('run ids chosen by the host', () => {
  it('records the given runId on run-start and run-end and returns it', async () => {
    const store = memorySessionStore();
    const agent = createAgent({ model: scriptedModel(['Hi.']), store, sessionId: 'r1' });
    const result = await agent.run('Hello', { runId: 'job-42' }).result;
    expect(result.runId).toBe('job-42');
    const marks = (await entriesOf(store, 'r1')).filter((entry) => entry.kind === 'run-start' || entry.kind === 'run-end');
    expect(marks.map((entry) => [entry.kind, (entry as { runId: string }).runId])).toEqual([
      ['run-start', 'job-42'],
      ['run-end', 'job-42'],
    ]);
  });

  it('refuses an empty or non-string runId', () => {
    const agent = createAgent({ model: scriptedModel([]) });
    expect(() => agent.run('Hi', { runId: '' })).toThrow(/`runId`/);
    expect(() => agent.continue({ runId: 5 as never })).toThrow(/`runId`/);
  });
});

/** A model whose next call fails like a dropped connection, then follows the script. */
function flaky(script: Model): Model & { failCall: (number: number) => void } {
  let calls = 0;
  const failing = new Set<number>();
  return {
    specificationVersion: 'v1',
    provider: script.provider,
    modelId: script.modelId,
    failCall: (number) => failing.add(number),
    stream(request) {
      if (failing.has(++calls)) throw new Error('connection reset');
      return script.stream(request);
    },
  };
}

describe('agent.continue(): carry on where a session stopped', () => {
  it('calls the model for the answer it owes when the history ends with the prompt', async () => {
    const store = memorySessionStore();
    const model = flaky(scriptedModel(['The answer.']));
    const agent = createAgent({ model, store, sessionId: 'c1', maxStreamRetries: 0 });
    model.failCall(1);
    expect((await agent.run('Question?').result).status).toBe('error');
    await agent.close();
    const resumed = createAgent({ model, store, resume: 'c1' });
    const result = await resumed.continue().result;
    expect(result.status).toBe('completed');
    expect(result.text).toBe('The answer.');
    expect(resumed.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
  });

  it('runs the open batch once and never again a tool that may have been running', async () => {
    const store = memorySessionStore();
    const executed: string[] = [];
    const step = defineTool({ name: 'step', description: 'A step.', inputSchema: z.object({ n: z.number() }), readOnly: true, execute: ({ input }) => (executed.push(`step ${input.n}`), 'ok') });
    const model = flaky(scriptedModel([turn(toolCall('step', { n: 1 })), 'Done.']));
    const agent = createAgent({ model, store, sessionId: 'c2', tools: [step], maxStreamRetries: 0 });
    // The model asks for step 1, which runs; the model call after it fails.
    model.failCall(2);
    expect((await agent.run('Go').result).status).toBe('error');
    expect(executed).toEqual(['step 1']);
    await agent.close();
    const resumed = createAgent({ model, store, resume: 'c2', tools: [step] });
    const result = await resumed.continue().result;
    expect(result.status).toBe('completed');
    expect(result.text).toBe('Done.');
    expect(executed).toEqual(['step 1']);
  });

  it('ends at once without calling the model when nothing is unfinished', async () => {
    const store = memorySessionStore();
    const script = scriptedModel(['Hi.']);
    const agent = createAgent({ model: script, store, sessionId: 'c3' });
    await agent.run('Hello').result;
    const calls = script.requests.length;
    const result = await agent.continue().result;
    expect(result).toMatchObject({ status: 'completed', turns: 0 });
    expect(script.requests.length).toBe(calls);
  });

  it('ends awaiting-approval while approvals wait, and a new agent can answer them', async () => {
    const store = memorySessionStore();
    const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({}), kind: 'edit', execute: () => 'written' });
    const agent = createAgent({ model: scriptedModel([turn(toolCall('write', {})), 'Written.']), store, sessionId: 'c4', tools: [write] });
    const parked = await agent.run('Write it').result;
    expect(parked.status).toBe('awaiting-approval');
    const result = await agent.continue().result;
    expect(result.status).toBe('awaiting-approval');
    expect(result.pendingApprovals.map((approval) => approval.id)).toEqual(parked.pendingApprovals.map((approval) => approval.id));
    expect((await agent.resolveApproval(parked.pendingApprovals[0]!.id, { behavior: 'allow' }).result).status).toBe('completed');
  });
});
