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
    const estimated = (await createAgent({ streamRetryBackoff: false, model: model(server.url) }).run('Answer briefly.').result).usage.inputTokens;
    expect(estimated).toBeGreaterThan(0);

    server.enqueue({ fault: 'stream-error', after: 3 }, answer);
    const retried = await createAgent({ streamRetryBackoff: false, model: model(server.url) }).run('Answer briefly.').result;
    expect(retried.status).toBe('completed');
    expect(server.requests).toHaveLength(3);
    expect(retried.usage.inputTokens).toBe(estimated + 1500);
  });
});

/** A streamed text answer in SSE wire text: `deltas` text deltas of `chunk`, input 1000 and output 1 reported at message_start. */
function longAnswer(deltas: number, chunk: string): string {
  const frame = (data: Record<string, unknown>) => `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`;
  return [
    frame({ type: 'message_start', message: { id: 'msg_long', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1000, output_tokens: 1 } } }),
    frame({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    ...Array.from({ length: deltas }, () => frame({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: chunk } })),
    frame({ type: 'content_block_stop', index: 0 }),
    frame({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 777 } }),
    frame({ type: 'message_stop' }),
  ].join('');
}

describe('the output of a call given up midway, through the real client', () => {
  it('an interrupted answer counts its input and an estimate of the output it streamed, marked as such; cost and budget include it', async () => {
    server = await startMessagesServer();
    server.enqueue({ recording: longAnswer(20, 'x'.repeat(100)) });
    const agent = createAgent({ streamRetryBackoff: false, model: model(server.url) });
    let deltas = 0;
    agent.on('text-delta', () => {
      if (++deltas === 5) agent.interrupt();
    });
    const result = await agent.run('Write at length.').result;
    expect(result.status).toBe('interrupted');
    // 5 deltas of 100 ASCII characters streamed: 125 tokens estimated beside the 1 reported.
    expect(result.usage).toMatchObject({ inputTokens: 1000, outputTokens: 126 });
    expect(result.estimatedOutputTokens).toBe(125);
    // Sonnet: $3 per million input tokens, $15 per million output tokens.
    expect(result.costUsd).toBeCloseTo((1000 * 3 + 126 * 15) / 1e6, 10);
  });

  it('non-ASCII output counts one token per UTF-16 unit; an answer that completes reports the API\'s count and no estimate', async () => {
    server = await startMessagesServer();
    server.enqueue({ recording: longAnswer(4, 'é文'.repeat(10)) }, { recording: longAnswer(4, 'é文'.repeat(10)) });
    const agent = createAgent({ streamRetryBackoff: false, model: model(server.url) });
    const stop = () => agent.interrupt();
    agent.once('text-delta', stop);
    const interrupted = await agent.run('Write.').result;
    expect(interrupted.usage.outputTokens).toBe(1 + 20);
    expect(interrupted.estimatedOutputTokens).toBe(20);
    const completed = await agent.run('Write.').result;
    expect(completed.status).toBe('completed');
    expect(completed.usage.outputTokens).toBe(777);
    expect(completed.estimatedOutputTokens).toBeUndefined();
  });

  it('an attempt cut off by an error frame and retried counts its streamed output once, beside the retry\'s reported count', async () => {
    server = await startMessagesServer();
    const cut = longAnswer(20, 'y'.repeat(40)).split('\n\n').slice(0, 2 + 10).join('\n\n') + '\n\nevent: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n';
    server.enqueue({ recording: cut }, { recording: longAnswer(2, 'z') });
    const result = await createAgent({ streamRetryBackoff: false, model: model(server.url) }).run('Write.').result;
    expect(result.status).toBe('completed');
    // The cut attempt: 1 reported + 10 deltas × 40 characters / 4; the retry: 777 reported.
    expect(result.usage.outputTokens).toBe(1 + 100 + 777);
    expect(result.usage.inputTokens).toBe(2000);
    expect(result.estimatedOutputTokens).toBe(100);
  });
});
