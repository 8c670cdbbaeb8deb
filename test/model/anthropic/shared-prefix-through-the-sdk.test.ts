// Requests sent together with the same tools and system prompt: the later ones wait until the
// first one's response has begun, so they read that prefix from the cache instead of each writing
// it. Through the real SDK and the loopback server, whose prompt cache makes an entry readable only
// once the response that wrote it has begun, as the API does (the control runs show it).
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { anthropicModel } from '../../../src/model/anthropic/anthropic-model.js';
import type { AnthropicModelOptions } from '../../../src/model/anthropic/anthropic-model-options.js';
import type { Model, ModelRequest, ModelResponse } from '../../../src/model/model.js';
import { ModelError } from '../../../src/errors/model-error.js';
import { startMessagesServer, type MessagesServer, type MessagesServerResponse } from '../../../src/testing/messages-server/index.js';
import { requestSegments } from '../../../src/testing/messages-server/request-segments.js';

let server: MessagesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const MODEL = 'claude-sonnet-4-6';
let accounts = 0;
/** An API key of its own per model made: models of one key and base URL share what they know of the cache, and a port may come again. */
const account = () => `test-${++accounts}`;
const system = [{ type: 'text' as const, text: `You research topics for articles.\n${'Read the sources, then sum them up. '.repeat(150)}` }];
const tools = [{ name: 'Read', description: 'Reads a file.', input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }];
const request = (task: string, signal?: AbortSignal): ModelRequest => ({ system, tools, messages: [{ role: 'user', content: task }], ...(signal ? { signal } : {}) });

/** Streams a request to its end; the response. */
async function respond(model: Model, modelRequest: ModelRequest): Promise<ModelResponse> {
  let response: ModelResponse | undefined;
  for await (const event of model.stream(modelRequest)) if (event.type === 'response') response = event.response;
  return response!;
}

/** A scripted answer that reports its arrival and is held back until released. */
function heldAnswer(answer: Awaited<ReturnType<Extract<MessagesServerResponse, (...args: never[]) => unknown>>>) {
  let arrive!: () => void;
  let release!: () => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const respondWith: MessagesServerResponse = async () => {
    arrive();
    await released;
    return answer;
  };
  return { respondWith, arrived, release };
}

/** An answer that reports its arrival. */
function announcedAnswer(text: string) {
  let arrive!: () => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const respondWith: MessagesServerResponse = () => {
    arrive();
    return { content: [{ type: 'text', text }] };
  };
  return { respondWith, arrived };
}

/** Lets the event loop run (timers aside): a request the SDK was going to send by now has arrived. */
async function settle(): Promise<void> {
  for (let round = 0; round < 25; round++) await new Promise((resolve) => setImmediate(resolve));
}

const prefixTokens = (body: unknown) => {
  const { segments } = requestSegments(body as Record<string, unknown>);
  return segments[tools.length + system.length - 1]!.prefixTokens;
};

/**
 * On a new loopback server: sends a request whose answer (`firstAnswer`) is held until the event
 * loop has run on after the second request was started, then that second one (answered at once).
 * Returns what each gave (an error in place of a response) and how many requests the server had
 * received while the first answer was held.
 */
async function heldPair(firstAnswer: Parameters<typeof heldAnswer>[0], options: Partial<AnthropicModelOptions> = {}) {
  server = await startMessagesServer({ promptCaching: { now: () => 0 } });
  const first = heldAnswer(firstAnswer);
  server.enqueue(first.respondWith, { content: [{ type: 'text', text: 'Second summed up.' }] });
  // A wait longer than any test: a second request sent only because its wait ran out fails the test.
  const model = anthropicModel({ model: MODEL, apiKey: account(), baseURL: server.url, maxRetries: 0, promptCaching: { sharedPrefixWaitMs: 3_600_000 }, ...options });
  const one = respond(model, request('Sum up notes-1.md.')).catch((error: unknown) => error as Error);
  await first.arrived;
  const two = respond(model, request('Sum up notes-2.md.'));
  await settle();
  const sentWhileHeld = server.requests.length;
  first.release();
  return { one: await one, two: await two, sentWhileHeld };
}

describe('requests that share an uncached prefix', () => {
  it('a request sent while another with the same tools and system prompt has not begun its answer waits for it, and reads that prefix', async () => {
    const { one, two, sentWhileHeld } = await heldPair({ content: [{ type: 'text', text: 'First summed up.' }] });
    expect(sentWhileHeld).toBe(1);
    expect(server!.requests).toHaveLength(2);
    const prefix = prefixTokens(server!.requests[1]);
    expect(prefix).toBeGreaterThan(1024);
    expect((one as ModelResponse).usage.cacheReadInputTokens).toBe(0);
    expect(two.usage.cacheReadInputTokens).toBe(prefix);
    expect(two.usage.cacheCreationInputTokens).toBe(requestSegments(server!.requests[1] as never).totalTokens - prefix);
  });

  it('control: with sharedPrefixWaitMs 0 both are sent at once and both write the prefix (the server reads no entry before its answer begins)', async () => {
    server = await startMessagesServer({ promptCaching: { now: () => 0 } });
    const first = heldAnswer({ content: [{ type: 'text', text: 'First summed up.' }] });
    const second = announcedAnswer('Second summed up.');
    server.enqueue(first.respondWith, second.respondWith);
    const model = anthropicModel({ model: MODEL, apiKey: account(), baseURL: server.url, maxRetries: 0, promptCaching: { sharedPrefixWaitMs: 0 } });
    const one = respond(model, request('Sum up notes-1.md.'));
    await first.arrived;
    const two = respond(model, request('Sum up notes-2.md.'));
    await second.arrived;
    first.release();
    const [answerOne, answerTwo] = await Promise.all([one, two]);
    expect(answerOne.usage.cacheReadInputTokens).toBe(0);
    expect(answerTwo.usage.cacheReadInputTokens).toBe(0);
    expect(answerTwo.usage.cacheCreationInputTokens).toBe(requestSegments(server.requests[1] as never).totalTokens);
  });

  it('sends the waiting request when the first one fails before its answer begins', async () => {
    const { one, two, sentWhileHeld } = await heldPair({ fault: 'api-error', status: 400, errorType: 'invalid_request_error', message: 'Refused for the test.' });
    expect(sentWhileHeld).toBe(1);
    expect(one).toBeInstanceOf(ModelError);
    // Nothing was cached by the refused request: the second writes the prefix itself.
    expect(two.usage.cacheReadInputTokens).toBe(0);
    expect(two.usage.cacheCreationInputTokens).toBeGreaterThan(1024);
  });

  it('sends the waiting request when the first answer breaks off with an error event before message_start', async () => {
    const { one, two, sentWhileHeld } = await heldPair({ fault: 'stream-error', after: 0 });
    expect(sentWhileHeld).toBe(1);
    expect((one as ModelError).retryable).toBe(true);
    expect(two.message.content).toEqual([{ type: 'text', text: 'Second summed up.' }]);
  });

  it('an answer that broke off before message_start does not count its prefix as cached: requests sent together after it still wait', async () => {
    server = await startMessagesServer({ promptCaching: { now: () => 0 } });
    server.enqueue({ fault: 'stream-error', after: 0 });
    const model = anthropicModel({ model: MODEL, apiKey: account(), baseURL: server.url, maxRetries: 0 });
    await expect(respond(model, request('Sum up notes-0.md.'))).rejects.toBeInstanceOf(ModelError);
    const first = heldAnswer({ content: [{ type: 'text', text: 'First summed up.' }] });
    server.enqueue(first.respondWith, { content: [{ type: 'text', text: 'Second summed up.' }] });
    const one = respond(model, request('Sum up notes-1.md.'));
    await first.arrived;
    const two = respond(model, request('Sum up notes-2.md.'));
    await settle();
    expect(server.requests).toHaveLength(2);
    first.release();
    expect((await two).usage.cacheReadInputTokens).toBe(prefixTokens(server.requests[2]));
    await one;
  });

  it('sends the waiting request when the connection of the first drops before any event', async () => {
    const { one, two, sentWhileHeld } = await heldPair({ fault: 'drop-connection', after: 0 });
    expect(sentWhileHeld).toBe(1);
    expect(one).toBeInstanceOf(ModelError);
    expect(two.message.content).toEqual([{ type: 'text', text: 'Second summed up.' }]);
  });

  it('a request aborted while it waits fails as aborted and is never sent; the first is not disturbed', async () => {
    server = await startMessagesServer({ promptCaching: { now: () => 0 } });
    const first = heldAnswer({ content: [{ type: 'text', text: 'First summed up.' }] });
    server.enqueue(first.respondWith);
    const model = anthropicModel({ model: MODEL, apiKey: account(), baseURL: server.url, maxRetries: 0 });
    const one = respond(model, request('Sum up notes-1.md.'));
    await first.arrived;
    const controller = new AbortController();
    const two = respond(model, request('Sum up notes-2.md.', controller.signal)).catch((error: unknown) => error);
    await settle();
    controller.abort(new Error('The host stopped it.'));
    const failure = (await two) as ModelError;
    expect(failure).toBeInstanceOf(ModelError);
    expect(failure.errorType).toBe('aborted');
    first.release();
    expect((await one).message.content).toEqual([{ type: 'text', text: 'First summed up.' }]);
    expect(server.requests).toHaveLength(1);
  });

  it('once a response with the prefix has begun, requests sent together go at once (the prefix is cached)', async () => {
    server = await startMessagesServer({ promptCaching: { now: () => 0 } });
    server.enqueue({ content: [{ type: 'text', text: 'Warmed.' }] });
    const model = anthropicModel({ model: MODEL, apiKey: account(), baseURL: server.url, maxRetries: 0 });
    await respond(model, request('Sum up notes-0.md.'));
    const third = heldAnswer({ content: [{ type: 'text', text: 'Third summed up.' }] });
    const fourth = announcedAnswer('Fourth summed up.');
    server.enqueue(third.respondWith, fourth.respondWith);
    const one = respond(model, request('Sum up notes-3.md.'));
    await third.arrived;
    const two = respond(model, request('Sum up notes-4.md.'));
    await fourth.arrived; // sent while the third is held
    third.release();
    const [answerThree, answerFour] = await Promise.all([one, two]);
    const prefix = prefixTokens(server.requests[2]);
    expect(answerThree.usage.cacheReadInputTokens).toBe(prefix);
    expect(answerFour.usage.cacheReadInputTokens).toBe(prefix);
  });

  it('a request whose tools cannot be read as JSON fails as it did without the wait (a ModelError from the SDK), and holds nothing', async () => {
    server = await startMessagesServer({ promptCaching: { now: () => 0 } });
    const model = anthropicModel({ model: MODEL, apiKey: account(), baseURL: server.url, maxRetries: 0 });
    const schema: Record<string, unknown> = { type: 'object' };
    schema.self = schema;
    const failure = await respond(model, { system, tools: [{ name: 'Loop', description: 'A cyclic schema.', input_schema: schema }], messages: [{ role: 'user', content: 'Go.' }] }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ModelError);
    expect(server.requests).toHaveLength(0);
    // Nothing was left waiting: a request with the usual prefix goes.
    server.enqueue({ content: [{ type: 'text', text: 'Summed up.' }] });
    expect((await respond(model, request('Sum up notes-1.md.'))).message.content).toEqual([{ type: 'text', text: 'Summed up.' }]);
  });

  it('models made with the same options or client share the wait (a host making a model per request); another API key, another client or no prompt caching does not wait', async () => {
    const cases = [
      { options: {}, other: {}, waits: true },
      { options: {}, other: { apiKey: 'another-account' }, waits: false },
      { options: { promptCaching: false }, other: { promptCaching: false }, waits: false },
      { options: 'client', other: 'client', waits: true },
      { options: 'client', other: 'another client', waits: false },
    ] as const;
    for (const { options, other, waits } of cases) {
      server = await startMessagesServer({ promptCaching: { now: () => 0 } });
      const first = heldAnswer({ content: [{ type: 'text', text: 'First summed up.' }] });
      const second = announcedAnswer('Second summed up.');
      server.enqueue(first.respondWith, second.respondWith);
      // A wait longer than any test: a request sent only because its wait ran out fails the test.
      const promptCaching = { sharedPrefixWaitMs: 3_600_000 };
      const base = { model: MODEL, apiKey: account(), baseURL: server.url, maxRetries: 0, promptCaching };
      const client = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
      const made = (given: (typeof cases)[number]['options']) =>
        given === 'client'
          ? anthropicModel({ model: MODEL, client, promptCaching })
          : given === 'another client'
            ? anthropicModel({ model: MODEL, client: new Anthropic({ apiKey: 'test', baseURL: server!.url, maxRetries: 0 }), promptCaching })
            : anthropicModel({ ...base, ...given });
      const one = respond(made(options), request('Sum up notes-1.md.'));
      await first.arrived;
      const two = respond(made(other), request('Sum up notes-2.md.'));
      if (waits) {
        await settle();
        expect(server.requests).toHaveLength(1);
      } else {
        await second.arrived;
      }
      first.release();
      await Promise.all([one, two]);
      await server.close();
      server = undefined;
    }
  });
});
