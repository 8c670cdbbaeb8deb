import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ModelError } from '../../../src/errors/model-error.js';
import { anthropicModel } from '../../../src/model/anthropic/anthropic-model.js';
import { retryAfterMs } from '../../../src/model/anthropic/retry-after-ms.js';
import { startMessagesServer, type MessagesServer, type MessagesServerResponse } from '../../../src/testing/messages-server/index.js';

let server: MessagesServer;
beforeEach(async () => {
  server = await startMessagesServer();
});
afterEach(() => server.close());

/** The error of one call through the real SDK, with the SDK's own retries off. */
async function failure(...responses: MessagesServerResponse[]): Promise<ModelError> {
  server.enqueue(...responses);
  const model = anthropicModel({ model: 'claude-test', apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
  try {
    for await (const event of model.stream({ system: [], tools: [], messages: [{ role: 'user', content: 'Hello' }] })) void event;
  } catch (error) {
    expect(ModelError.isInstance(error)).toBe(true);
    return error as ModelError;
  }
  throw new Error('the call did not fail');
}

describe('anthropicModel: retryAfterMs from the response headers', () => {
  it('429 with retry-after in seconds', async () => {
    const error = await failure({ fault: 'rate-limit', retryAfterSeconds: 3 });
    expect(error).toMatchObject({ status: 429, retryAfterMs: 3000 });
  });

  it('529 with retry-after-ms, which wins over retry-after', async () => {
    expect(await failure({ fault: 'overloaded', retryAfterMs: 1250 })).toMatchObject({ status: 529, retryAfterMs: 1250 });
    expect(await failure({ fault: 'rate-limit', retryAfterSeconds: 9, retryAfterMs: 40 })).toMatchObject({ retryAfterMs: 40 });
  });

  it('no header: no retryAfterMs; a 0 seconds header: 0', async () => {
    expect((await failure({ fault: 'server-error' })).retryAfterMs).toBeUndefined();
    expect((await failure({ fault: 'rate-limit', retryAfterSeconds: 0 })).retryAfterMs).toBe(0);
  });

  it('after the SDK retried by itself, the last answer still tells the wait', async () => {
    server.enqueue({ fault: 'overloaded', retryAfterMs: 1 }, { fault: 'overloaded', retryAfterMs: 2 });
    const model = anthropicModel({ model: 'claude-test', apiKey: 'test-key', baseURL: server.url, maxRetries: 1 });
    const caught = await (async () => {
      try {
        for await (const event of model.stream({ system: [], tools: [], messages: [{ role: 'user', content: 'Hello' }] })) void event;
      } catch (error) {
        return error as ModelError;
      }
      return undefined;
    })();
    expect(server.requests).toHaveLength(2);
    expect(caught).toMatchObject({ status: 529, retryAfterMs: 2 });
  });
});

describe('retryAfterMs (header parsing)', () => {
  const headers = (entries: Record<string, string>) => new Headers(entries);
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('reads seconds, fractions, milliseconds and HTTP dates', () => {
    expect(retryAfterMs(headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(retryAfterMs(headers({ 'retry-after': '0.5' }), now)).toBe(500);
    expect(retryAfterMs(headers({ 'retry-after-ms': '125.5' }), now)).toBe(125.5);
    expect(retryAfterMs(headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:07 GMT' }), now)).toBe(7000);
  });

  it('ignores what is not a wait: absent, garbage, negative, infinite, a date in the past', () => {
    expect(retryAfterMs(undefined, now)).toBeUndefined();
    expect(retryAfterMs(headers({}), now)).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': '-3' }), now)).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after-ms': 'Infinity' }), now)).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': '1e400' }), now)).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }), now)).toBeUndefined();
  });

  it('a bad retry-after-ms falls back to retry-after', () => {
    expect(retryAfterMs(headers({ 'retry-after-ms': 'x', 'retry-after': '4' }), now)).toBe(4000);
  });
});
