import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../../src/errors/configuration-error.js';
import { ModelError } from '../../../src/errors/model-error.js';
import { anthropicModel } from '../../../src/model/anthropic/anthropic-model.js';
import type { AnthropicModelOptions } from '../../../src/model/anthropic/anthropic-model-options.js';
import type { Message } from '../../../src/model/messages.js';
import type { ModelStreamEvent } from '../../../src/model/model.js';
import { startMessagesServer, type MessagesServer } from '../../../src/testing/messages-server/index.js';

let server: MessagesServer;
beforeEach(async () => {
  server = await startMessagesServer();
});
afterEach(() => server.close());

const hello: Message[] = [{ role: 'user', content: 'Hello' }];
const okTurn = { content: [{ type: 'text' as const, text: 'Hi there, how can I help?' }] };

function model(options: Partial<AnthropicModelOptions> = {}) {
  return anthropicModel({ model: 'claude-test', apiKey: 'test-key', baseURL: server.url, maxRetries: 0, ...options });
}

async function run(messages: Message[] = hello, options: Partial<AnthropicModelOptions> = {}, signal?: AbortSignal) {
  const events: ModelStreamEvent[] = [];
  let error: unknown;
  try {
    for await (const event of model(options).stream({ system: [], tools: [], messages, ...(signal ? { signal } : {}) })) {
      events.push(event);
    }
  } catch (caught) {
    error = caught;
  }
  return { events, error };
}

function expectModelError(error: unknown): ModelError {
  expect(ModelError.isInstance(error)).toBe(true);
  return error as ModelError;
}

describe('anthropicModel faults', () => {
  it('429 with retry-after: the SDK retries by itself and the turn succeeds', async () => {
    server.enqueue({ fault: 'rate-limit', retryAfterMs: 1 }, okTurn);
    const { events, error } = await run(hello, { maxRetries: 2 });
    expect(error).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ type: 'response', response: { stopReason: 'end_turn' } });
    expect(server.requests).toHaveLength(2);
  });

  it('529 overloaded on every attempt: typed retryable ModelError once retries are exhausted', async () => {
    server.enqueue({ fault: 'overloaded', retryAfterMs: 1 }, { fault: 'overloaded', retryAfterMs: 1 });
    const { error } = await run(hello, { maxRetries: 1 });
    const modelError = expectModelError(error);
    expect(modelError).toMatchObject({ status: 529, errorType: 'overloaded_error', retryable: true, requestId: 'req_loopback_0002' });
    expect(server.requests).toHaveLength(2);
  });

  it('500: retryable ModelError with the API message', async () => {
    server.enqueue({ fault: 'server-error' });
    const modelError = expectModelError((await run()).error);
    expect(modelError).toMatchObject({ status: 500, errorType: 'api_error', retryable: true });
    expect(modelError.message).toContain('Internal server error');
  });

  it('mid-stream overloaded_error event: deltas first, then a retryable ModelError without status', async () => {
    server.enqueue({ fault: 'stream-error', after: 3 });
    const { events, error } = await run();
    expect(events.map((event) => event.type)).toEqual(['usage', 'text-delta']);
    const modelError = expectModelError(error);
    expect(modelError).toMatchObject({ status: undefined, errorType: 'overloaded_error', retryable: true, requestId: 'req_loopback_0001' });
    expect(modelError.message).toContain('Overloaded');
  });

  it('mid-stream invalid_request_error event is not retryable', async () => {
    server.enqueue({ fault: 'stream-error', after: 1, errorType: 'invalid_request_error' });
    expect(expectModelError((await run()).error)).toMatchObject({ errorType: 'invalid_request_error', retryable: false });
  });

  it('dropped connection mid-stream: retryable ModelError', async () => {
    server.enqueue({ fault: 'drop-connection', after: 2 });
    const { events, error } = await run();
    expect(events.some((event) => event.type === 'response')).toBe(false);
    const modelError = expectModelError(error);
    expect(modelError.retryable).toBe(true);
    expect(modelError.status).toBeUndefined();
  });

  it('validation 400: non-retryable ModelError carrying the API text, not retried by the SDK', async () => {
    const messages: Message[] = [
      { role: 'user', content: 'Read a.md' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_9', name: 'Read', input: {} }] },
      { role: 'user', content: 'never mind' },
    ];
    const modelError = expectModelError((await run(messages, { maxRetries: 2 })).error);
    expect(modelError).toMatchObject({ status: 400, errorType: 'invalid_request_error', retryable: false });
    expect(modelError.message).toContain(
      'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_9.',
    );
    expect(server.requests).toHaveLength(1);
  });

  it('an empty script: ModelError naming the request, recorded on the server, no SDK retry', async () => {
    const modelError = expectModelError((await run(hello, { maxRetries: 2 })).error);
    expect(modelError).toMatchObject({ status: 500, retryable: false });
    expect(modelError.message).toContain('no response for request #1');
    expect(server.errors).toHaveLength(1);
    expect(server.requests).toHaveLength(1);
  });

  it('an abort through the signal: ModelError with errorType aborted', async () => {
    const controller = new AbortController();
    server.enqueue((_request) => {
      controller.abort();
      return okTurn;
    });
    const modelError = expectModelError((await run(hello, {}, controller.signal)).error);
    expect(modelError).toMatchObject({ errorType: 'aborted', retryable: false });
  });

  it('a consumer that stops early closes the stream without hanging', async () => {
    server.enqueue(okTurn, okTurn);
    for await (const event of model().stream({ system: [], tools: [], messages: hello })) {
      if (event.type === 'text-delta') break;
    }
    // The server still answers the next request normally.
    const { error } = await run();
    expect(error).toBeUndefined();
  });
});

describe('anthropicModel options', () => {
  it('rejects a missing model, bad numbers and client + apiKey', () => {
    expect(() => anthropicModel({ model: '' })).toThrow(ConfigurationError);
    expect(() => anthropicModel({ model: 'm', maxTokens: 0 })).toThrow(/maxTokens/);
    expect(() => anthropicModel({ model: 'm', maxRetries: -1 })).toThrow(/maxRetries/);
    const client = {} as NonNullable<AnthropicModelOptions['client']>;
    expect(() => anthropicModel({ model: 'm', client, apiKey: 'k' })).toThrow(/client/);
  });

  it('describes itself', () => {
    expect(model()).toMatchObject({ specificationVersion: 'v1', provider: 'anthropic', modelId: 'claude-test' });
  });

  it('sends extra headers', async () => {
    let seen: unknown;
    server.enqueue(({ headers }) => {
      seen = headers['anthropic-beta'];
      return okTurn;
    });
    const { error } = await run(hello, { headers: { 'anthropic-beta': 'test-beta' } });
    expect(error).toBeUndefined();
    expect(seen).toBe('test-beta');
  });
});

describe('missing credentials', () => {
  it('say which setting is missing, and are not retried', async () => {
    const saved = process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    try {
      const model = anthropicModel({ model: 'claude-sonnet-4-6', baseURL: 'http://127.0.0.1:9' });
      const stream = model.stream({ system: [], tools: [], messages: [{ role: 'user', content: 'hi' }] });
      const error = await (async () => {
        for await (const _event of stream) void _event;
      })().catch((caught: unknown) => caught);
      expect((error as { retryable?: boolean }).retryable).toBe(false);
      expect((error as Error).message).toMatch(/ANTHROPIC_API_KEY/);
    } finally {
      if (saved !== undefined) process.env.ANTHROPIC_API_KEY = saved;
    }
  });
});
