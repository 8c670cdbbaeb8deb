import { channel } from 'node:diagnostics_channel';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../../../src/agent/create-agent.js';
import { anthropicModel } from '../../../src/model/anthropic/anthropic-model.js';
import { startMessagesServer, type MessagesServer } from '../../../src/testing/messages-server/index.js';
import { defineTool } from '../../../src/tools/define-tool.js';

// A model call must hand its HTTP connection back to the client's pool: one cut short after
// message_stop (the request aborted before the body's last chunk) is closed, and the next call
// opens a new one, a TCP and TLS handshake to the API on every turn. The real SDK (Node's fetch)
// against the loopback server, whose `endAfter` holds a response's last chunk as a real server's can
// come in a later packet.

/** How Node's fetch (undici) finished each request to the server: 'complete' (read to the end) or 'error' (aborted, cut). */
function requestOutcomes() {
  const outcomes: string[] = [];
  const waiters: Array<() => void> = [];
  const record = (outcome: string) => (message: unknown) => {
    const path = (message as { request?: { path?: string } }).request?.path ?? '';
    if (!path.startsWith('/v1/messages')) return;
    outcomes.push(outcome);
    for (const wake of waiters.splice(0)) wake();
  };
  const onTrailers = record('complete');
  const onError = record('error');
  // The channels are held here: Node 20 drops a channel nothing references, with its subscribers.
  const trailers = channel('undici:request:trailers');
  const errors = channel('undici:request:error');
  trailers.subscribe(onTrailers);
  errors.subscribe(onError);
  return {
    outcomes,
    /**
     * Resolves once `count` requests have finished one way or the other, and their connections are
     * back in the pool (undici frees one a `setImmediate` after the request completes; this one is
     * queued after it).
     */
    async settled(count: number): Promise<string[]> {
      while (outcomes.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
      await new Promise<void>((resolve) => setImmediate(resolve));
      return outcomes.slice(0, count);
    },
    stop() {
      trailers.unsubscribe(onTrailers);
      errors.unsubscribe(onError);
    },
  };
}

let server: MessagesServer;
let serverClosed: Promise<void> | undefined;
let requests: ReturnType<typeof requestOutcomes>;
const closeServer = () => (serverClosed ??= server.close());
beforeEach(async () => {
  server = await startMessagesServer();
  serverClosed = undefined;
  requests = requestOutcomes();
});
afterEach(async () => {
  requests.stop();
  await closeServer();
});

describe('anthropicModel keeps its connection for the next call', () => {
  it('a turn ends at message_stop without waiting for the body, which is then read to its end, not aborted', async () => {
    let release!: () => void;
    const end = new Promise<void>((resolve) => (release = resolve));
    server.enqueue({ content: [{ type: 'text', text: 'Tide pools hold water at low tide.' }], endAfter: end }, { content: [{ type: 'text', text: 'Anemones.' }] });
    const model = anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test', baseURL: server.url, maxRetries: 0 });
    const agent = createAgent({ model });

    const first = await agent.run('What is a tide pool?').result; // the body's end is still held here
    expect(first.status).toBe('completed');
    expect(requests.outcomes).toEqual([]); // the request is still open: not aborted
    release();
    expect(await requests.settled(1)).toEqual(['complete']);

    const second = await agent.run('What lives in one?').result;
    expect(second.status).toBe('completed');
    expect(await requests.settled(2)).toEqual(['complete', 'complete']);
    expect(server.connections).toBe(1);
    await agent.close();
  });

  it('a session of tool turns opens at most two connections (one while the previous body ends), not one per turn', async () => {
    const turns = 12;
    for (let index = 0; index < turns; index++) server.enqueue({ content: [{ type: 'tool_use', id: `toolu_${index}`, name: 'note', input: { text: `note ${index}` } }] });
    server.enqueue({ content: [{ type: 'text', text: 'Noted everything.' }] });
    const note = defineTool({ name: 'note', description: 'Takes a note.', inputSchema: z.object({ text: z.string() }), readOnly: true, execute: ({ input }) => `Noted: ${input.text}` });
    const model = anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test', baseURL: server.url, maxRetries: 0 });
    const agent = createAgent({ model, tools: [note] });
    const result = await agent.run('Take twelve notes.').result;
    expect(result.status).toBe('completed');
    expect(result.turns).toBe(turns + 1);
    expect(await requests.settled(turns + 1)).toEqual(Array.from({ length: turns + 1 }, () => 'complete'));
    expect(server.connections).toBeLessThanOrEqual(2);
    await agent.close();
  });

  it('a response whose end never comes is still delivered; interrupting the run or closing the server ends the request', async () => {
    server.enqueue({ content: [{ type: 'text', text: 'Delivered.' }], endAfter: new Promise(() => {}) });
    const model = anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test', baseURL: server.url, maxRetries: 0 });
    const agent = createAgent({ model });
    const result = await agent.run('Say something.').result;
    expect(result.status).toBe('completed');
    expect(result.messages.at(-1)?.content).toEqual([{ type: 'text', text: 'Delivered.' }]);
    await agent.close();
    // The held request ends with the server (or, left alone, after END_AFTER_STOP_MS: see read-rest-of-stream.test.ts).
    await closeServer();
    expect(await requests.settled(1)).toEqual(['error']);
  });
});
