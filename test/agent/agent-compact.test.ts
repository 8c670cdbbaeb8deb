import { describe, expect, it } from 'vitest';
import { CompactionError, createAgent, memorySessionStore, type AgentEvent } from 'agent-harness';
import { scriptedModel, turn } from 'agent-harness/testing';
import { deferred } from '../helpers.js';

const SUMMARY = '<summary>\n## Goal\nThe deadline is Friday.\n</summary>';

/**
 * An agent with a short conversation whose next model call (the summary) holds after its first
 * delta until the test releases it or its signal aborts; `started` resolves with that signal.
 */
async function agentWithHeldSummary(options: { store?: ReturnType<typeof memorySessionStore> } = {}) {
  const started = deferred<AbortSignal | undefined>();
  const release = deferred();
  const hold = (signal: AbortSignal | undefined) => {
    started.resolve(signal);
    return new Promise<void>((resolve) => {
      signal?.addEventListener('abort', () => resolve(), { once: true });
      void release.promise.then(resolve);
    });
  };
  const model = scriptedModel(['Noted: Friday.', turn(SUMMARY, { hold }), 'Still Friday.']);
  const agent = createAgent({ model, ...(options.store ? { store: options.store } : {}) });
  await agent.run('The deadline is Friday.').result;
  const events: AgentEvent[] = [];
  for (const type of ['compaction-start', 'compaction-end'] as const) agent.on(type, (event) => events.push(event));
  return { agent, model, started, release, events };
}

describe('agent.compact() and interrupts', () => {
  it('interrupt() aborts the summary call; the history stays as it was and compact() resolves as interrupted', async () => {
    const { agent, model, started, release, events } = await agentWithHeldSummary();
    const before = JSON.stringify(agent.messages);
    const compacting = agent.compact();
    const signal = await started.promise;
    agent.interrupt();
    const aborted = signal?.aborted;
    release.resolve();
    const result = await compacting;
    expect(aborted).toBe(true);
    expect(result).toMatchObject({ compacted: false, skipped: 'interrupted', trigger: 'manual', summarizedMessages: 0 });
    expect(JSON.stringify(agent.messages)).toBe(before);
    // The compaction that started is ended, with the interruption as its error.
    expect(events.map((event) => event.type)).toEqual(['compaction-start', 'compaction-end']);
    const end = events[1] as Extract<AgentEvent, { type: 'compaction-end' }>;
    expect(CompactionError.isInstance(end.error)).toBe(true);
    expect(end.error!.message).toMatch(/interrupted/);
    expect(end.error!.message).toContain('The history is unchanged.');
    // The agent is free again: a run goes on with the whole history.
    const next = await agent.run('And now?').result;
    expect(next.status).toBe('completed');
    expect(model.requests.at(-1)!.messages).toHaveLength(3);
  });

  it('the signal passed to compact() aborts it the same way', async () => {
    const { agent, started, release } = await agentWithHeldSummary();
    const controller = new AbortController();
    const compacting = agent.compact({ signal: controller.signal });
    const signal = await started.promise;
    controller.abort(new Error('the user left'));
    const aborted = signal?.aborted;
    release.resolve();
    expect(aborted).toBe(true);
    expect(await compacting).toMatchObject({ compacted: false, skipped: 'interrupted' });
  });

  it('close() aborts a compaction under way and waits for it: nothing is written after close() resolves', async () => {
    const store = memorySessionStore();
    const { agent, started, release } = await agentWithHeldSummary({ store });
    const compacting = agent.compact();
    const signal = await started.promise;
    const closing = agent.close();
    const aborted = signal?.aborted;
    release.resolve();
    await closing;
    expect(aborted).toBe(true);
    const messages = JSON.stringify(agent.messages);
    expect(await compacting).toMatchObject({ compacted: false, skipped: 'interrupted' });
    expect(JSON.stringify(agent.messages)).toBe(messages);
    expect(agent.snapshot().compactions).toBeUndefined();
  });

  it('an interrupt with no compaction under way changes nothing, and compact() still works after one', async () => {
    const { agent, release } = await agentWithHeldSummary();
    agent.interrupt();
    release.resolve();
    expect(await agent.compact()).toMatchObject({ compacted: true, trigger: 'manual' });
  });

  it('interrupting a run during its automatic compaction ends the run interrupted, with no turn after it', async () => {
    const started = deferred<AbortSignal | undefined>();
    const hold = (signal: AbortSignal | undefined) => {
      started.resolve(signal);
      return new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }));
    };
    // The reported usage puts the next request past the compaction threshold.
    const model = scriptedModel([turn('Noted.', { usage: { inputTokens: 9_500 } }), turn(SUMMARY, { hold })]);
    const agent = createAgent({ model, context: { window: 10_000, compaction: { outputReserve: 0, threshold: 0.5, keepTokens: 0 } } });
    await agent.run('The deadline is Friday.').result;
    const before = JSON.stringify(agent.messages);
    const run = agent.run('When is it?');
    const turns: number[] = [];
    agent.on('turn-start', (event) => turns.push(event.turn));
    await started.promise;
    agent.interrupt();
    const result = await run.result;
    expect(result.status).toBe('interrupted');
    expect(turns).toEqual([]);
    expect(JSON.stringify(agent.messages.slice(0, -1))).toBe(before);
    expect(model.remaining).toBe(0);
  });
});
