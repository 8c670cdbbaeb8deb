import { afterEach, describe, expect, it } from 'vitest';
import { anthropicModel, ConfigurationError, createAgent, ModelError, type AgentEvent } from 'agent-harness';
import { scriptedModel, turn } from 'agent-harness/testing';
import { startMessagesServer, type MessagesServer } from 'agent-harness/testing/messages-server';
import { streamRetryDelay } from '../../src/loop/stream-retry-backoff.js';
import { collect, deferred } from '../helpers.js';

let server: MessagesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const overloaded = (retryAfterMs?: number) => new ModelError('Overloaded.', { errorType: 'overloaded_error', retryable: true, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) });

/** A sleep the test controls: records each wait and resolves it at once. */
function recordingSleep() {
  const waits: number[] = [];
  return { waits, sleep: (ms: number) => (waits.push(ms), Promise.resolve()) };
}

const retriesOf = (events: readonly AgentEvent[]) => events.filter((event): event is Extract<AgentEvent, { type: 'stream-retry' }> => event.type === 'stream-retry');

describe('the wait between mid-stream retries (streamRetryBackoff)', () => {
  it('waits before each retry, doubling, with jitter, capped; the waits are on stream-retry', async () => {
    const { waits, sleep } = recordingSleep();
    const model = scriptedModel([turn('a', { error: overloaded() }), turn('b', { error: overloaded() }), turn('c', { error: overloaded() }), 'done']);
    const agent = createAgent({ model, maxStreamRetries: 3, streamRetryBackoff: { initialDelayMs: 1000, maxDelayMs: 3000, sleep, random: () => 0.5 } });
    const { events, result } = await collect(agent.run('go'));
    expect(result.status).toBe('completed');
    // 1000, 2000, 4000 → capped at 3000; each drawn between half and all of it (random 0.5 → 3/4).
    expect(waits).toEqual([750, 1500, 2250]);
    expect(retriesOf(events).map((event) => event.delayMs)).toEqual([750, 1500, 2250]);
  });

  it('the jitter stays between half and all of the ceiling', () => {
    const error = overloaded();
    expect(streamRetryDelay({ initialDelayMs: 1000, random: () => 0 }, 1, error)).toBe(500);
    expect(streamRetryDelay({ initialDelayMs: 1000, random: () => 0.999999 }, 1, error)).toBe(1000);
    expect(streamRetryDelay({ initialDelayMs: 1000, maxDelayMs: 60_000, random: () => 0 }, 4, error)).toBe(4000);
    // A retry number that would overflow stays at the cap.
    expect(streamRetryDelay({ initialDelayMs: 1000, maxDelayMs: 8000, random: () => 1 }, 5000, error)).toBe(8000);
  });

  it('honours the retryAfterMs an error carries, up to maxDelayMs', async () => {
    const { waits, sleep } = recordingSleep();
    const model = scriptedModel([turn('a', { error: overloaded(1234) }), turn('b', { error: overloaded(999_999) }), 'done']);
    const agent = createAgent({ model, maxStreamRetries: 2, streamRetryBackoff: { maxDelayMs: 5000, sleep } });
    expect((await agent.run('go').result).status).toBe('completed');
    expect(waits).toEqual([1234, 5000]);
  });

  it('false retries at once', async () => {
    const { waits, sleep } = recordingSleep();
    const model = scriptedModel([turn('a', { error: overloaded() }), 'done']);
    const { events, result } = await collect(createAgent({ model, streamRetryBackoff: false }).run('go'));
    expect(result.status).toBe('completed');
    expect(waits).toEqual([]);
    expect(sleep).toBeDefined();
    expect(retriesOf(events)[0]!.delayMs).toBe(0);
  });

  it('interrupt() ends the wait at once: the retry is never sent, the run ends interrupted, the timer is cleared', async () => {
    const waiting = deferred();
    let signalSeen: AbortSignal | undefined;
    const never = new Promise<void>(() => {});
    const model = scriptedModel([turn('a', { error: overloaded() }), 'never sent']);
    const agent = createAgent({
      model,
      streamRetryBackoff: {
        initialDelayMs: 60_000,
        sleep: (_ms, signal) => {
          signalSeen = signal;
          waiting.resolve();
          return never; // a sleep that ignores the signal: the run must not wait on it
        },
      },
    });
    const run = agent.run('go');
    await waiting.promise;
    agent.interrupt();
    const result = await run.result;
    expect(result.status).toBe('interrupted');
    expect(signalSeen?.aborted).toBe(true);
    expect(model.remaining).toBe(1);
  });

  it('close() ends the wait of the default timer at once', async () => {
    const model = scriptedModel([turn('a', { error: overloaded() }), 'never sent']);
    const agent = createAgent({ model, streamRetryBackoff: { initialDelayMs: 3_600_000 } });
    const run = agent.run('go');
    for await (const event of run) if (event.type === 'stream-retry') break;
    await agent.close();
    const result = await run.result;
    expect(result.status).toBe('interrupted');
    expect(model.remaining).toBe(1);
  });

  it('a bad backoff is refused with a sentence naming it', () => {
    expect(() => createAgent({ model: scriptedModel(['x']), streamRetryBackoff: { initialDelayMs: -1 } })).toThrow(ConfigurationError);
    expect(() => createAgent({ model: scriptedModel(['x']), streamRetryBackoff: true as never })).toThrow(/streamRetryBackoff/);
  });

  it('through the real SDK: an overloaded_error frame mid-stream waits, then retries', async () => {
    const { waits, sleep } = recordingSleep();
    const words = { content: [{ type: 'text' as const, text: 'Hello there, friend.' }] };
    server = await startMessagesServer({ responses: [{ fault: 'stream-error', errorType: 'overloaded_error', after: 3, turn: words }, words] });
    const agent = createAgent({
      model: anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test-key', baseURL: server.url, maxRetries: 0 }),
      streamRetryBackoff: { initialDelayMs: 400, sleep, random: () => 0 },
    });
    const result = await agent.run('Hi.').result;
    expect(result.status).toBe('completed');
    expect(result.text).toBe('Hello there, friend.');
    expect(waits).toEqual([200]);
  });
});
