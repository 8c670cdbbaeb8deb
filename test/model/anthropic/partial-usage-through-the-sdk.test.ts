// Through @anthropic-ai/sdk and the loopback server: a response cut off midway by an
// overloaded_error frame was billed for its input, which the run's usage counts beside the retry's.
import { afterEach, describe, expect, it } from 'vitest';
import { anthropicModel, createAgent } from 'agent-harness';
import { startMessagesServer, type MessagesServer } from 'agent-harness/testing/messages-server';

let server: MessagesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const model = (url: string) => anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test-key', baseURL: url, maxRetries: 0 });
const answer = { content: [{ type: 'text' as const, text: 'A short answer for the test.' }], usage: { inputTokens: 1500, outputTokens: 9 } };

describe('the usage of a response cut off midway, through the real client', () => {
  it('counts the cut-off attempt\'s reported input once, beside the retried answer', async () => {
    server = await startMessagesServer();
    // The server estimates a response's input from its request when not told: the same request,
    // the same estimate, which the cut-off response reports at its message_start.
    server.enqueue({ content: answer.content });
    const estimated = (await createAgent({ model: model(server.url) }).run('Answer briefly.').result).usage.inputTokens;
    expect(estimated).toBeGreaterThan(0);

    server.enqueue({ fault: 'stream-error', after: 3 }, answer);
    const retried = await createAgent({ model: model(server.url) }).run('Answer briefly.').result;
    expect(retried.status).toBe('completed');
    expect(server.requests).toHaveLength(3);
    expect(retried.usage.inputTokens).toBe(estimated + 1500);
  });
});
