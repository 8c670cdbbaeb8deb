import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ConfigurationError, createAgent, defineTool, memorySessionStore, SessionWriteError, type SessionStore } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

/**
 * A memory store whose appends can be made to hang (never answer) or to wait for the test, to
 * stand for a database that stopped answering mid-run.
 */
function stallingStore() {
  const inner = memorySessionStore();
  let mode: 'answer' | 'hang' | 'hold' = 'answer';
  let held: Array<() => void> = [];
  let stalled: () => void = () => undefined;
  const stall = new Promise<void>((resolve) => (stalled = resolve));
  let appends = 0;
  const store = new Proxy(inner, {
    get(target, key, receiver) {
      if (key !== 'append') return Reflect.get(target, key, receiver);
      return (...args: Parameters<SessionStore['append']>) => {
        appends++;
        if (mode === 'answer') return target.append(...args);
        stalled();
        if (mode === 'hang') return new Promise<void>(() => undefined);
        return new Promise<void>((resolve, reject) => held.push(() => target.append(...args).then(resolve, reject)));
      };
    },
  }) as SessionStore;
  return {
    store,
    inner,
    /** Resolves once an append did not answer. */
    stall,
    hang: () => void (mode = 'hang'),
    hold: () => void (mode = 'hold'),
    /** Lets the held appends through, in order. */
    release: async () => {
      mode = 'answer';
      const waiting = held;
      held = [];
      for (const answer of waiting) answer();
    },
    get appends() {
      return appends;
    },
  };
}

describe('an interrupted run and a store that stopped answering (storeWriteGraceMs)', () => {
  beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] }));
  afterEach(() => void vi.useRealTimers());

  it('ends with a SessionWriteError once the grace has passed, instead of never; the agent then writes nothing more', async () => {
    const stalling = stallingStore();
    const work = defineTool({ name: 'Work', description: 'Works.', inputSchema: z.object({}), readOnly: true, execute: () => (stalling.hang(), 'ok') });
    const agent = createAgent({ model: scriptedModel([turn(toolCall('Work', {})), 'Done.']), tools: [work], store: stalling.store, storeWriteGraceMs: 5_000 });
    const run = agent.run('Go.');
    let ended = false;
    void run.result.then(() => (ended = true));
    await stalling.stall;
    agent.interrupt();
    await vi.advanceTimersByTimeAsync(4_000);
    expect(ended).toBe(false);
    await vi.advanceTimersByTimeAsync(2_000);
    const result = await run.result;
    expect(result.status).toBe('error');
    expect(SessionWriteError.isInstance(result.error)).toBe(true);
    expect(result.error!.message).toMatch(/unanswered for 5000 ms after the run was interrupted \(storeWriteGraceMs\)/);

    // Nothing more goes to the store: a new run is refused before it starts, flush() reports it.
    const appends = stalling.appends;
    const next = await agent.run('Again.').result;
    expect(next.status).toBe('error');
    expect(SessionWriteError.isInstance(next.error)).toBe(true);
    await expect(agent.flush()).rejects.toSatisfy(SessionWriteError.isInstance);
    await agent.close();
    expect(stalling.appends).toBe(appends);
  });

  it('a run that is not interrupted keeps waiting: a tool runs only once its call is stored', async () => {
    const stalling = stallingStore();
    let runs = 0;
    const work = defineTool({ name: 'Work', description: 'Works.', inputSchema: z.object({}), readOnly: true, execute: () => (runs++, 'ok') });
    const agent = createAgent({ model: scriptedModel([turn(toolCall('Work', {})), 'Done.']), tools: [work], store: stalling.store, storeWriteGraceMs: 1_000 });
    stalling.hang();
    const run = agent.run('Go.');
    let ended = false;
    void run.result.then(() => (ended = true));
    await stalling.stall;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(ended).toBe(false);
    expect(runs).toBe(0);
    agent.interrupt();
    await vi.advanceTimersByTimeAsync(1_100);
    expect((await run.result).status).toBe('error');
    expect(runs).toBe(0);
  });

  it('a store that answers within the grace changes nothing: the run ends interrupted and every entry is stored', async () => {
    const stalling = stallingStore();
    const work = defineTool({ name: 'Work', description: 'Works.', inputSchema: z.object({}), readOnly: true, execute: () => (stalling.hold(), 'ok') });
    const agent = createAgent({ model: scriptedModel([turn(toolCall('Work', {})), 'Done.']), tools: [work], store: stalling.store, storeWriteGraceMs: 5_000 });
    const run = agent.run('Go.');
    await stalling.stall;
    agent.interrupt();
    await vi.advanceTimersByTimeAsync(4_000);
    await stalling.release();
    const result = await run.result;
    expect(result.status).toBe('interrupted');
    expect(result.error).toBeUndefined();
    await vi.advanceTimersByTimeAsync(60_000);
    await agent.flush();
    const resumed = createAgent({ model: scriptedModel([]), store: stalling.inner, resume: agent.sessionId });
    await resumed.ready;
    expect(resumed.messages).toEqual(agent.messages);
  });

  it('close() gives up on a write left unanswered between runs after the grace, and resolves', async () => {
    const stalling = stallingStore();
    const agent = createAgent({ model: scriptedModel(['Hello.']), store: stalling.store, storeWriteGraceMs: 2_000 });
    await agent.run('Hi.').result;
    stalling.hang();
    agent.setPermissionMode('plan');
    await stalling.stall;
    let closed = false;
    const closing = agent.close().then(() => (closed = true));
    await vi.advanceTimersByTimeAsync(1_500);
    expect(closed).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    await closing;
    await expect(agent.flush()).rejects.toThrow(/after the agent was closed/);
  });

  it('a grace of 0 gives up on the write in flight at the interrupt at once', async () => {
    const stalling = stallingStore();
    const work = defineTool({ name: 'Work', description: 'Works.', inputSchema: z.object({}), readOnly: true, execute: () => (stalling.hang(), 'ok') });
    const agent = createAgent({ model: scriptedModel([turn(toolCall('Work', {})), 'Done.']), tools: [work], store: stalling.store, storeWriteGraceMs: 0 });
    const run = agent.run('Go.');
    await stalling.stall;
    agent.interrupt();
    await vi.advanceTimersByTimeAsync(0);
    expect((await run.result).status).toBe('error');
  });
});

describe('storeWriteGraceMs checks', () => {
  it.each([-1, 1.5, 2 ** 31, Number.POSITIVE_INFINITY, '100'])('refuses %s', (value) => {
    expect(() => createAgent({ model: scriptedModel([]), store: memorySessionStore(), storeWriteGraceMs: value as number })).toThrow(/storeWriteGraceMs/);
  });

  it('needs a store', () => {
    const attempt = () => createAgent({ model: scriptedModel([]), storeWriteGraceMs: 1_000 });
    expect(attempt).toThrow(ConfigurationError);
    expect(attempt).toThrow(/no `store`/);
  });
});
