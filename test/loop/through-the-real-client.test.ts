import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { anthropicModel, createAgent, defineTool, ModelError, type Message } from 'agent-harness';
import { startMessagesServer, type MessagesServer, type MessagesServerTurn } from 'agent-harness/testing/messages-server';
import { echoTool } from '../helpers.js';

let server: MessagesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const echoCall = (id: string, value: string): MessagesServerTurn => ({
  content: [{ type: 'tool_use', id, name: 'echo', input: { text: value } }],
  stopReason: 'tool_use',
});
const say = (value: string): MessagesServerTurn => ({ content: [{ type: 'text', text: value }] });

function modelFor(url: string, maxRetries = 2) {
  return anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test-key', baseURL: url, maxRetries });
}

describe('the loop through @anthropic-ai/sdk and the loopback server', () => {
  it('keeps system and tools byte-identical over 10 turns and only extends messages', async () => {
    server = await startMessagesServer({
      responses: [...Array.from({ length: 9 }, (_, index) => echoCall(`toolu_${index}`, `step ${index}`)), say('all done')],
    });
    const agent = createAgent({ model: modelFor(server.url), system: 'You are terse.', tools: [echoTool] });
    const result = await agent.run('take ten steps').result;
    expect(result.status).toBe('completed');
    expect(server.requests).toHaveLength(10);
    const [first, ...rest] = server.requests;
    const prefix = (body: typeof first) => JSON.stringify({ system: body!.system, tools: body!.tools });
    // The latest message carries a cache breakpoint that moves; compare messages without cache_control.
    const strip = (messages: Message[]) => JSON.parse(JSON.stringify(messages, (key, value) => (key === 'cache_control' ? undefined : value))) as Message[];
    let previous = strip(first!.messages);
    for (const body of rest) {
      expect(prefix(body)).toBe(prefix(first));
      const messages = strip(body.messages);
      expect(messages.slice(0, previous.length)).toEqual(previous);
      expect(messages.length).toBeGreaterThan(previous.length);
      previous = messages;
    }
    expect(server.errors).toEqual([]);
  });

  it.each([
    ['rate limit (429 with retry-after)', { fault: 'rate-limit', retryAfterMs: 1 } as const],
    ['overloaded (529)', { fault: 'overloaded', retryAfterMs: 1 } as const],
    ['server error (500)', { fault: 'server-error', retryAfterMs: 1 } as const],
    ['an overloaded_error frame mid-stream', { fault: 'stream-error', errorType: 'overloaded_error', after: 2, turn: say('lost') } as const],
    ['a dropped connection mid-stream', { fault: 'drop-connection', after: 2, turn: say('lost') } as const],
  ])('recovers from %s with nothing duplicated in the history', async (_name, fault) => {
    server = await startMessagesServer({ responses: [echoCall('toolu_a', 'x'), fault, say('recovered')] });
    const agent = createAgent({ model: modelFor(server.url), tools: [echoTool], streamRetryBackoff: false });
    const result = await agent.run('go').result;
    expect(result.status).toBe('completed');
    expect(result.text).toBe('recovered');
    expect(agent.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(server.errors).toEqual([]);
  });

  it.each([
    ['rate limit', { fault: 'rate-limit', retryAfterMs: 1 } as const, 429],
    ['overloaded', { fault: 'overloaded', retryAfterMs: 1 } as const, 529],
    ['server error', { fault: 'server-error', retryAfterMs: 1 } as const, 500],
  ])('ends with a typed ModelError when %s outlasts the retries', async (_name, fault, status) => {
    server = await startMessagesServer({ responses: [fault, fault] });
    const agent = createAgent({ streamRetryBackoff: false, model: modelFor(server.url, 1), maxStreamRetries: 1 });
    const result = await agent.run('go').result;
    expect(result.status).toBe('error');
    expect(ModelError.isInstance(result.error)).toBe(true);
    expect((result.error as ModelError).status).toBe(status);
    expect(agent.messages).toHaveLength(1);
  });

  it('ends with a typed error when mid-stream failures outlast maxStreamRetries', async () => {
    const fault = { fault: 'stream-error', errorType: 'overloaded_error', after: 1, turn: say('lost') } as const;
    server = await startMessagesServer({ responses: [fault, fault] });
    const agent = createAgent({ streamRetryBackoff: false, model: modelFor(server.url, 0), maxStreamRetries: 1 });
    const result = await agent.run('go').result;
    expect(result.status).toBe('error');
    expect((result.error as ModelError).errorType).toBe('overloaded_error');
    expect(agent.messages).toHaveLength(1);
  });

  it('accepts the next request after an interrupt during a tool call', async () => {
    let release!: () => void;
    const started = new Promise<void>((resolve) => (release = resolve));
    const hang = defineTool({
      name: 'hang',
      description: 'Hangs until interrupted.',
      inputSchema: z.object({}),
      readOnly: true,
      execute: () => {
        release();
        return new Promise(() => undefined);
      },
    });
    server = await startMessagesServer({
      responses: [{ content: [{ type: 'tool_use', id: 'toolu_h', name: 'hang', input: {} }], stopReason: 'tool_use' }, say('fine')],
    });
    const agent = createAgent({ model: modelFor(server.url), tools: [hang] });
    const run = agent.run('go');
    await started;
    agent.interrupt();
    expect((await run.result).status).toBe('interrupted');
    const next = await agent.run('continue').result;
    expect(next.status).toBe('completed');
    expect(server.errors).toEqual([]);
  });
});
