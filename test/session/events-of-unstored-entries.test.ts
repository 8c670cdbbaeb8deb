import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memorySessionStore, SessionWriteError, type AgentEvent, type SessionEntry, type SessionStore } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

/** A memory store whose appends fail from the first batch that `failsOn` picks (a disk that filled up). */
function failingStore(failsOn: (entries: readonly SessionEntry[]) => boolean) {
  const inner = memorySessionStore();
  const stored: SessionEntry[] = [];
  let failing = false;
  const store = new Proxy(inner, {
    get(target, key, receiver) {
      if (key !== 'append') return Reflect.get(target, key, receiver);
      return async (...args: Parameters<SessionStore['append']>) => {
        failing ||= failsOn(args[1]);
        if (failing) throw new Error('disk full');
        await target.append(...args);
        stored.push(...args[1]);
      };
    },
  }) as SessionStore;
  return { store, stored };
}

/** An append holding an answer of the model that calls a tool (not a result: its `tool_use_id` is no call). */
const callsTool = (entries: readonly SessionEntry[]) =>
  entries.some((entry) => entry.kind === 'message' && entry.message.role === 'assistant' && Array.isArray(entry.message.content) && entry.message.content.some((block) => block.type === 'tool_use'));

describe('events and a store that failed to write', () => {
  it('an event announcing an entry that was not stored is not delivered; the run’s error and end still are', async () => {
    const { store, stored } = failingStore(callsTool);
    const ran: string[] = [];
    const probe = defineTool({ name: 'probe', description: 'Probes.', inputSchema: z.object({}), readOnly: true, execute: () => (ran.push('probe'), 'ok') });
    const agent = createAgent({ model: scriptedModel([turn('Looking.', toolCall('probe', {}, 'toolu_1')), 'Done.']), tools: [probe], store });
    const heard: AgentEvent[] = [];
    for (const type of ['run-start', 'text-delta', 'tool-call', 'turn-end', 'context-usage', 'error', 'run-end'] as const) agent.on(type, (event) => heard.push(event));
    const run = agent.run('Go.');
    const iterated: AgentEvent[] = [];
    for await (const event of run) iterated.push(event);
    const result = await run.result;

    expect(result.status).toBe('error');
    expect(SessionWriteError.isInstance(result.error)).toBe(true);
    expect(ran).toEqual([]);
    expect(JSON.stringify(stored)).not.toContain('toolu_1');
    for (const events of [heard, iterated]) {
      const types = events.map((event) => event.type);
      // Announced before the failed write: the run's start (stored). After it: nothing but the end.
      expect(types[0]).toBe('run-start');
      expect(types).not.toContain('tool-call');
      expect(types).not.toContain('turn-end');
      expect(types).not.toContain('context-usage');
      expect(types.slice(-2)).toEqual(['error', 'run-end']);
      expect(events.at(-2)).toMatchObject({ type: 'error', fatal: true, error: result.error });
      expect(events.at(-1)).toMatchObject({ type: 'run-end', result: { status: 'error' } });
    }
  });

  it('events of entries stored before the failure are delivered', async () => {
    // The second turn's tool call is the first write to fail.
    let calls = 0;
    const { store } = failingStore((entries) => callsTool(entries) && ++calls === 2);
    const probe = defineTool({ name: 'probe', description: 'Probes.', inputSchema: z.object({}), readOnly: true, execute: () => 'ok' });
    const agent = createAgent({ model: scriptedModel([turn(toolCall('probe', {}, 'toolu_1')), turn(toolCall('probe', {}, 'toolu_2')), 'Done.']), tools: [probe], store });
    const calledTools: string[] = [];
    const results: string[] = [];
    agent.on('tool-call', (event) => calledTools.push(event.toolUseId));
    agent.on('tool-result', (event) => results.push(event.toolUseId));
    const ends: AgentEvent[] = [];
    agent.on('run-end', (event) => ends.push(event));
    const result = await agent.run('Go.').result;
    expect(result.status).toBe('error');
    expect(calledTools).toEqual(['toolu_1']);
    expect(results).toEqual(['toolu_1']);
    expect(ends).toHaveLength(1);
  });

  describe('given up on (storeWriteGraceMs)', () => {
    afterEach(() => void vi.useRealTimers());

    it('an event after a write that was given up is not delivered; the run’s error and end are', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      const inner = memorySessionStore();
      let hanging = false;
      let stalled!: () => void;
      const stall = new Promise<void>((resolve) => (stalled = resolve));
      const store = new Proxy(inner, {
        get(target, key, receiver) {
          if (key !== 'append') return Reflect.get(target, key, receiver);
          return (...args: Parameters<SessionStore['append']>) => (hanging ? (stalled(), new Promise<void>(() => undefined)) : target.append(...args));
        },
      }) as SessionStore;
      const work = defineTool({ name: 'Work', description: 'Works.', inputSchema: z.object({}), readOnly: true, execute: () => ((hanging = true), 'ok') });
      const agent = createAgent({ model: scriptedModel([turn(toolCall('Work', {}, 'toolu_work')), 'Done.']), tools: [work], store, storeWriteGraceMs: 1_000 });
      const heard: string[] = [];
      for (const type of ['tool-call', 'tool-result', 'error', 'run-end'] as const) agent.on(type, (event) => heard.push(event.type));
      const run = agent.run('Go.');
      await stall;
      agent.interrupt();
      await vi.advanceTimersByTimeAsync(1_100);
      const result = await run.result;
      expect(result.status).toBe('error');
      expect(SessionWriteError.isInstance(result.error)).toBe(true);
      // The call was stored before it ran; its result's write was given up.
      expect(heard).toEqual(['tool-call', 'error', 'run-end']);
    });
  });
});

describe('a question for the host and a store that failed to write', () => {
  const write = () => defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ text: z.string() }), kind: 'edit', execute: () => 'written' });

  it('a call waiting for the host is announced (permission-request) only once its approval is stored: not at all when the store refused it', async () => {
    const { store } = failingStore((entries) => entries.some((entry) => entry.kind === 'approval-pending'));
    const agent = createAgent({ model: scriptedModel([turn(toolCall('write', { text: 'x' }, 't1'))]), tools: [write()], store });
    const asked: AgentEvent[] = [];
    agent.on('permission-request', (event) => asked.push(event));
    const result = await agent.run('Go.').result;
    expect(result.status).toBe('error');
    expect(asked).toEqual([]);
  });

  it('with a store that keeps it, the question is announced as before: permission-request, then the deferral, with the approval already stored', async () => {
    const { store, stored } = failingStore(() => false);
    const agent = createAgent({ model: scriptedModel([turn(toolCall('write', { text: 'x' }, 't1'))]), tools: [write()], store });
    const order: string[] = [];
    agent.on('permission-request', () => order.push(`request (approval stored: ${stored.some((entry) => entry.kind === 'approval-pending')})`));
    agent.on('permission-decision', (event) => order.push(`decision ${event.behavior}`));
    const result = await agent.run('Go.').result;
    expect(result.status).toBe('awaiting-approval');
    expect(order).toEqual(['request (approval stored: true)', 'decision defer']);
  });
});
