// A tool call never starts once the run's lease on the session is known lost or past its end:
// another worker may hold the session by then, and the store fences writes, not a tool's effects.
// Leases run on a manual clock; nothing here waits on wall-clock time.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, LeaseLostError, memorySessionStore, type SessionEntry, type SessionLease, type SessionStore } from 'agent-harness';
import { manualClock, scriptedModel, toolCall, turn, type ManualClock } from 'agent-harness/testing';
import { loadEntries } from '../../src/session/load-entries.js';
import { storedResults } from '../helpers.js';

const TTL = 30_000;

/** Calls that record each execution; `onRun` runs inside a call (e.g. to let the lease run out). */
function steps(onRun: (name: string) => void | Promise<void> = () => undefined) {
  const executed: string[] = [];
  const tool = (name: string) =>
    defineTool({
      name,
      description: name,
      inputSchema: z.object({}),
      readOnly: true,
      // One after another, as most tools that change something run.
      concurrencySafe: false,
      execute: async () => {
        executed.push(name);
        await onRun(name);
        return `${name} done`;
      },
    });
  // Needs the host's approval (no canUseTool): it stays pending.
  const publish = defineTool({ name: 'publish', description: 'Publishes.', inputSchema: z.object({}), kind: 'edit', execute: () => (executed.push('publish'), 'published') });
  return { executed, tools: [tool('first'), tool('second'), tool('third'), publish] };
}

/** The host's lease check, on the lease's own clock: lost once `ttlMs` passed since it was taken. */
function leaseCheck(clock: ManualClock, lease: SessionLease, takenAt: number) {
  return () => {
    const now = clock.now();
    if (now < takenAt + TTL) return undefined;
    return new LeaseLostError({ sessionId: lease.sessionId, fencingToken: lease.fencingToken, currentLease: undefined, now, reason: `its ${TTL} ms ran out with no renewal` });
  };
}

const resultsOf = (entries: readonly SessionEntry[]) => new Map([...storedResults(entries)].map(([toolUseId, result]) => [toolUseId, String(result.content)]));

async function leased(store: SessionStore, sessionId: string, holder: string): Promise<SessionLease> {
  return (await store.leases!.acquire(sessionId, { holder, ttlMs: TTL }))!;
}

describe('a tool call does not start once the lease is lost', () => {
  it('once the store refused a write with LeaseLostError, no later call of the batch starts, and the run ends with that error', async () => {
    const clock = manualClock();
    const store = memorySessionStore({ now: clock.now });
    const lease = await leased(store, 's1', 'worker-a');
    const { executed, tools } = steps(async (name) => {
      if (name === 'first') {
        // The process stalled past its lease; another worker took the session over.
        clock.advance(TTL);
        await leased(store, 's1', 'worker-b');
      }
      // Long enough for the refusal of the first call's result to come back (a macrotask, not a timer).
      if (name === 'second') await new Promise((resolve) => setImmediate(resolve));
    });
    const agent = createAgent({ model: scriptedModel([turn(toolCall('first', {}, 'c1'), toolCall('second', {}, 'c2'), toolCall('third', {}, 'c3')), 'Done.']), tools, store, sessionId: 's1', fencingToken: lease.fencingToken });
    const result = await agent.run('Go').result;
    expect(result.status).toBe('error');
    expect(LeaseLostError.isInstance(result.error)).toBe(true);
    // The second call had started before the refusal was known; the third never starts.
    expect(executed).toEqual(['first', 'second']);
    await agent.close();
  });

  it('with checkLease, a call does not start once the lease is past its end by the host\'s clock, even before the store refused anything', async () => {
    const clock = manualClock();
    const store = memorySessionStore({ now: clock.now });
    const takenAt = clock.now();
    const lease = await leased(store, 's2', 'worker-a');
    const { executed, tools } = steps((name) => {
      // A pause (GC, a stopped process) longer than the lease, inside the first call.
      if (name === 'first') clock.advance(TTL);
    });
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('first', {}, 'c1'), toolCall('second', {}, 'c2'), toolCall('publish', {}, 'c3')), 'Done.']),
      tools,
      store,
      sessionId: 's2',
      fencingToken: lease.fencingToken,
      checkLease: leaseCheck(clock, lease, takenAt),
    });
    const result = await agent.run('Go').result;
    expect(executed).toEqual(['first']);
    expect(result.status).toBe('error');
    expect(LeaseLostError.isInstance(result.error)).toBe(true);
    expect(result.error!.message).toMatch(/no longer leased under fencing token 1: its 30000 ms ran out with no renewal\. The tool call about to start was not run/);
    await agent.close();

    // Another worker takes the session over: what ran is not run again, what never started is
    // not run on the strength of this run, and the approval still waits.
    const next = await leased(store, 's2', 'worker-b');
    const resumed = createAgent({ model: scriptedModel(['Done.']), tools, store, resume: 's2', fencingToken: next.fencingToken });
    await resumed.ready;
    expect(resumed.pendingApprovals.map((approval) => approval.toolUseId)).toEqual(['c3']);
    expect((await resumed.continue().result).status).toBe('awaiting-approval');
    expect(executed).toEqual(['first']);
    await resumed.close();
  });

  it('a call refused by checkLease while the store still takes the lease is answered as not run, the pending approval stays, and no run-end is stored', async () => {
    const store = memorySessionStore();
    const lease = await leased(store, 's3', 'worker-a');
    // The host's own deadline is stricter than the store's (it counts from before the lease was asked for).
    let past = false;
    const { executed, tools } = steps((name) => {
      if (name === 'first') past = true;
    });
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('first', {}, 'c1'), toolCall('second', {}, 'c2'), toolCall('third', {}, 'c3'), toolCall('publish', {}, 'c4'))]),
      tools,
      store,
      sessionId: 's3',
      fencingToken: lease.fencingToken,
      checkLease: () => (past ? new LeaseLostError({ sessionId: 's3', fencingToken: lease.fencingToken, currentLease: undefined, now: Date.now(), reason: 'its time ran out' }) : undefined),
    });
    const run = agent.run('Go');
    const result = await run.result;
    expect(result.status).toBe('error');
    expect(LeaseLostError.isInstance(result.error)).toBe(true);
    expect(executed).toEqual(['first']);
    await agent.close();

    const entries = await loadEntries(store, 's3');
    const results = resultsOf(entries);
    expect(results.get('c1')).toBe('first done');
    expect(results.get('c2')).toMatch(/lease.*ran out before this tool call started; it did not run/);
    expect(results.get('c3')).toMatch(/it did not run/);
    expect(results.has('c4')).toBe(false);
    // The run did not end in the transcript: the next holder continues it.
    expect(entries.some((entry) => entry.kind === 'run-end')).toBe(false);

    const resumed = createAgent({ model: scriptedModel(['Done.']), tools, store, resume: 's3', fencingToken: lease.fencingToken });
    await resumed.ready;
    expect(resumed.pendingApprovals.map((approval) => approval.toolUseId)).toEqual(['c4']);
    await resumed.close();
  });

  it("a subagent's call does not start either, and the parent's run ends with the same error", async () => {
    const clock = manualClock();
    const store = memorySessionStore({ now: clock.now });
    const takenAt = clock.now();
    const lease = await leased(store, 's4', 'worker-a');
    const { executed, tools } = steps((name) => {
      if (name === 'first') clock.advance(TTL);
    });
    const child = scriptedModel([turn(toolCall('first', {}, 'k1'), toolCall('second', {}, 'k2')), 'Child done.']);
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('Agent', { description: 'steps', prompt: 'Run the steps.', subagent_type: 'stepper' }, 'p1')), turn(toolCall('third', {}, 'p2')), 'Done.']),
      tools,
      agents: { stepper: { description: 'Runs steps.', prompt: 'You run steps.', model: child } },
      store,
      sessionId: 's4',
      fencingToken: lease.fencingToken,
      checkLease: leaseCheck(clock, lease, takenAt),
    });
    const result = await agent.run('Go').result;
    expect(executed).toEqual(['first']);
    expect(result.status).toBe('error');
    expect(LeaseLostError.isInstance(result.error)).toBe(true);
    await agent.close();
  });

  it('checkLease is read only right before a call starts, and a fork (another session) does not use it', async () => {
    let checks = 0;
    const { executed, tools } = steps();
    const store = memorySessionStore();
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('first', {}, 'c1'), toolCall('second', {}, 'c2')), 'Done.', turn(toolCall('first', {}, 'f1')), 'Forked.']),
      tools,
      store,
      checkLease: () => {
        checks++;
        return undefined;
      },
    });
    expect((await agent.run('Go').result).status).toBe('completed');
    expect(checks).toBe(2);
    const fork = await agent.fork();
    expect((await fork.run('Again').result).status).toBe('completed');
    expect(checks).toBe(2);
    expect(executed).toEqual(['first', 'second', 'first']);
  });

  it('names the option and the fix for a checkLease that is not a function', () => {
    expect(() => createAgent({ model: scriptedModel([]), checkLease: true as never })).toThrow(/`checkLease` must be a function/);
  });
});
