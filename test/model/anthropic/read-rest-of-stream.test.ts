import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AnthropicStreamEvent } from '../../../src/model/anthropic/anthropic-stream-event.js';
import { END_AFTER_STOP_MS, MAX_EVENTS_AFTER_STOP } from '../../../src/model/anthropic/read-rest-of-stream.js';
import { streamAnthropicTurn } from '../../../src/model/anthropic/stream-anthropic-turn.js';
import type { ModelStreamEvent } from '../../../src/model/model.js';

// What the turn does with the rest of a response after `message_stop`: it reads it to the end in
// the background (the connection goes back to the client's pool), and cuts it only when it hangs
// or goes on. Aborting it at once (the iterator's `return()`) closes the connection: the next model
// call then opens a new one, a TCP and TLS handshake to the API on every turn.

const start = { type: 'message_start', message: { id: 'msg_1', model: 'm', content: [], stop_reason: null, usage: { input_tokens: 5, output_tokens: 1 } } };
const message = [
  start,
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Tide pools.' } },
  { type: 'content_block_stop', index: 0 },
  { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 9 } },
  { type: 'message_stop' },
];

/**
 * An SDK-like event stream: `events` at once, then each further `next()` waits for the test
 * (`end()`, `more()`, `fail()`). Records the reads past the events and the calls of `return()` and
 * `cancel` (the SDK stream's `controller.abort()`).
 */
function heldStream(events: unknown[]) {
  const calls = { returned: 0, cancelled: 0, readsAfter: 0 };
  let index = 0;
  let waiting: { resolve: (result: IteratorResult<AnthropicStreamEvent>) => void; reject: (error: unknown) => void } | undefined;
  const iterator: AsyncIterator<AnthropicStreamEvent> = {
    next() {
      if (index < events.length) return Promise.resolve({ done: false, value: events[index++] as AnthropicStreamEvent });
      calls.readsAfter++;
      return new Promise((resolve, reject) => (waiting = { resolve, reject }));
    },
    return() {
      calls.returned++;
      return Promise.resolve({ done: true, value: undefined });
    },
  };
  const answer = (settle: (pending: NonNullable<typeof waiting>) => void) => {
    const pending = waiting;
    if (pending === undefined) throw new Error('nothing is reading the stream');
    waiting = undefined;
    settle(pending);
  };
  return {
    calls,
    opened: { events: { [Symbol.asyncIterator]: () => iterator }, cancel: () => void calls.cancelled++ },
    get reading() {
      return waiting !== undefined;
    },
    end: () => answer((pending) => pending.resolve({ done: true, value: undefined })),
    more: () => answer((pending) => pending.resolve({ done: false, value: { type: 'ping' } as unknown as AnthropicStreamEvent })),
    fail: (error: unknown) => answer((pending) => pending.reject(error)),
  };
}

async function turn(stream: ReturnType<typeof heldStream>, signal?: AbortSignal): Promise<ModelStreamEvent[]> {
  const out: ModelStreamEvent[] = [];
  for await (const event of streamAnthropicTurn(() => Promise.resolve(stream.opened), { signal })) out.push(event);
  return out;
}

/** Lets the background reader take its next step (promise jobs only; no time passes). */
const settle = () => new Promise<void>((resolve) => queueMicrotask(resolve)).then(() => Promise.resolve()).then(() => Promise.resolve());

afterEach(() => {
  vi.useRealTimers();
});

describe('streamAnthropicTurn: the rest of a response after message_stop', () => {
  it('delivers the message without waiting for the end, then reads the response to its end and never aborts it', async () => {
    const stream = heldStream(message);
    const events = await turn(stream); // the end is held: the turn must not wait for it
    expect(events.at(-1)?.type).toBe('response');
    await settle();
    expect(stream.reading).toBe(true); // the rest is being read
    stream.end();
    await settle();
    expect(stream.calls).toEqual({ returned: 0, cancelled: 0, readsAfter: 1 });
  });

  it('reads and drops what comes after message_stop until the end', async () => {
    const stream = heldStream(message);
    await turn(stream);
    for (let index = 0; index < 3; index++) {
      await settle();
      stream.more();
    }
    await settle();
    stream.end();
    await settle();
    expect(stream.calls).toEqual({ returned: 0, cancelled: 0, readsAfter: 4 });
  });

  it(`cuts a response that has not ended ${END_AFTER_STOP_MS} ms after message_stop`, async () => {
    vi.useFakeTimers();
    const stream = heldStream(message);
    await turn(stream);
    await vi.advanceTimersByTimeAsync(END_AFTER_STOP_MS - 1);
    expect(stream.calls.cancelled).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(stream.calls).toEqual({ returned: 0, cancelled: 1, readsAfter: 1 });
    // A late end after the cut changes nothing (no second cancel, no further read).
    stream.end();
    await settle();
    await vi.advanceTimersByTimeAsync(END_AFTER_STOP_MS * 2);
    expect(stream.calls).toEqual({ returned: 0, cancelled: 1, readsAfter: 1 });
  });

  it('a response that ends in time is never cut, however long the process runs after', async () => {
    vi.useFakeTimers();
    const stream = heldStream(message);
    await turn(stream);
    await vi.advanceTimersByTimeAsync(END_AFTER_STOP_MS - 1);
    stream.end();
    await settle();
    expect(vi.getTimerCount()).toBe(0); // the wait is over: its timer is gone at once
    await vi.advanceTimersByTimeAsync(END_AFTER_STOP_MS * 2);
    expect(stream.calls).toEqual({ returned: 0, cancelled: 0, readsAfter: 1 });
  });

  it(`cuts a response that goes on past ${MAX_EVENTS_AFTER_STOP} events after message_stop`, async () => {
    const stream = heldStream(message);
    await turn(stream);
    for (let index = 0; index < MAX_EVENTS_AFTER_STOP; index++) {
      await settle();
      expect(stream.calls.cancelled).toBe(0);
      stream.more();
    }
    await settle();
    expect(stream.calls).toEqual({ returned: 0, cancelled: 1, readsAfter: MAX_EVENTS_AFTER_STOP });
    expect(stream.reading).toBe(false);
  });

  it('without a cancel, the cut is the iterator’s return()', async () => {
    const stream = heldStream(message);
    const opened = { events: stream.opened.events };
    for await (const _ of streamAnthropicTurn(() => Promise.resolve(opened))) void _;
    for (let index = 0; index < MAX_EVENTS_AFTER_STOP; index++) {
      await settle();
      stream.more();
    }
    await settle();
    expect(stream.calls).toEqual({ returned: 1, cancelled: 0, readsAfter: MAX_EVENTS_AFTER_STOP });
  });

  it('a transport error after message_stop is absorbed: no rejection, no cut', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const stream = heldStream(message);
      const events = await turn(stream);
      expect(events.at(-1)?.type).toBe('response');
      await settle();
      stream.fail(new TypeError('terminated'));
      await settle();
      // An unhandled rejection is reported after the promise jobs: give it a macrotask.
      await new Promise<void>((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
      expect(stream.calls).toEqual({ returned: 0, cancelled: 0, readsAfter: 1 });
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('a consumer that stops before message_stop aborts the request at once, as before', async () => {
    const stream = heldStream(message);
    for await (const event of streamAnthropicTurn(() => Promise.resolve(stream.opened))) if (event.type === 'text-delta') break;
    expect(stream.calls).toEqual({ returned: 1, cancelled: 0, readsAfter: 0 });
  });

  it('an interrupted run aborts the request instead of reading on', async () => {
    const stream = heldStream(message);
    const controller = new AbortController();
    const out: ModelStreamEvent[] = [];
    await expect(
      (async () => {
        for await (const event of streamAnthropicTurn(() => Promise.resolve(stream.opened), { signal: controller.signal })) {
          out.push(event);
          if (event.type === 'usage' && out.filter((seen) => seen.type === 'usage').length === 2) controller.abort(new Error('stop'));
        }
      })(),
    ).rejects.toMatchObject({ errorType: 'aborted' });
    await settle();
    expect(stream.calls).toEqual({ returned: 1, cancelled: 0, readsAfter: 0 });
  });
});
