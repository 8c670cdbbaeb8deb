// Attack class: the model boundary. A real streamed answer with everything the API may send —
// thinking with a signature, redacted thinking, a server tool call and its result, citations on
// text, a block type and a delta type no version of this library knows — goes through the real
// @anthropic-ai/sdk client. The approval it waits for is answered in another "process" (resumed
// from each store, and from a snapshot): the next request must carry that assistant message
// byte for byte as it was streamed (the API refuses altered thinking), and pass the API's rules.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { anthropicModel, createAgent, defineTool, memorySessionStore, type SessionStore } from 'agent-harness';
import { fileSessionStore } from 'agent-harness/node';
import { startMessagesServer, type MessagesServer } from 'agent-harness/testing/messages-server';
import { serverBackends } from './server-backends.js';

const citation = { type: 'web_search_result_location', url: 'https://example.com/a', title: 'A', encrypted_index: 'EpMBCioIAhgB', cited_text: 'The answer is 42.' };
/** The assistant message as the stream builds it, block by block. */
const expected = [
  { type: 'thinking', thinking: 'Let me look it up, then write it down.', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds' },
  { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP' },
  { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: { query: 'the answer' } },
  { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_01', content: [{ type: 'web_search_result', url: 'https://example.com/a', title: 'A', encrypted_content: 'EqgfCioIARgBIiQ3', page_age: null }] },
  { type: 'text', text: 'The answer is 42.', citations: [citation] },
  { type: 'future_block', payload: { nested: [1, 'two'] }, extra: 'merged' },
  { type: 'tool_use', id: 'toolu_01', name: 'note', input: { text: '42' } },
];

function frame(data: Record<string, unknown>): string {
  return `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** The stream of that message: deltas split as the API splits them, pings between. */
function recording(): string {
  const [thinking, redacted, serverUse, searchResult, , , toolUse] = expected as Array<Record<string, unknown>>;
  const blocks: string[] = [];
  const block = (index: number, start: Record<string, unknown>, deltas: Array<Record<string, unknown>>) => {
    blocks.push(frame({ type: 'content_block_start', index, content_block: start }), frame({ type: 'ping' }));
    for (const delta of deltas) blocks.push(frame({ type: 'content_block_delta', index, delta }));
    blocks.push(frame({ type: 'content_block_stop', index }));
  };
  block(0, { type: 'thinking', thinking: '', signature: '' }, [
    { type: 'thinking_delta', thinking: 'Let me look it up, ' },
    { type: 'thinking_delta', thinking: 'then write it down.' },
    { type: 'signature_delta', signature: thinking!.signature },
  ]);
  block(1, redacted!, []);
  block(2, { type: 'server_tool_use', id: serverUse!.id, name: 'web_search', input: {} }, [
    { type: 'input_json_delta', partial_json: '{"query": "the ' },
    { type: 'input_json_delta', partial_json: 'answer"}' },
  ]);
  block(3, searchResult!, []);
  block(4, { type: 'text', text: '', citations: [] }, [{ type: 'citations_delta', citation }, { type: 'text_delta', text: 'The answer ' }, { type: 'text_delta', text: 'is 42.' }]);
  block(5, { type: 'future_block', payload: { nested: [1, 'two'] } }, [{ type: 'future_delta', extra: 'merged' }]);
  block(6, { type: 'tool_use', id: toolUse!.id, name: 'note', input: {} }, [{ type: 'input_json_delta', partial_json: '' }, { type: 'input_json_delta', partial_json: '{"text": "4' }, { type: 'input_json_delta', partial_json: '2"}' }]);
  return [
    frame({ type: 'message_start', message: { id: 'msg_rt', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 50, output_tokens: 1 } } }),
    ...blocks,
    frame({ type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 90, server_tool_use: { web_search_requests: 1 } } }),
    frame({ type: 'message_stop' }),
  ].join('');
}

interface Store {
  name: string;
  reachable: boolean;
  open: () => { stores: () => SessionStore; cleanup: () => Promise<void> };
}

const stores: Store[] = [
  { name: 'memory', reachable: true, open: () => ((store) => ({ stores: () => store, cleanup: async () => {} }))(memorySessionStore()) },
  {
    name: 'file',
    reachable: true,
    open: () => {
      const dir = mkdtempSync(join(tmpdir(), 'attack-round-trip-'));
      return { stores: () => fileSessionStore({ dir }), cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
  ...serverBackends.map((backend) => ({ name: backend.name, reachable: backend.reachable, open: () => backend.open() })),
];

let server: MessagesServer | undefined;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const note = defineTool({ name: 'note', description: 'Notes a text.', inputSchema: z.object({ text: z.string() }), kind: 'edit', execute: ({ input }) => `noted ${input.text}` });

describe('attack: every block the model streamed goes back unchanged, in any process', () => {
  for (const store of stores) {
    for (const resumeFrom of ['store', 'snapshot'] as const) {
      it.skipIf(!store.reachable)(`resumed from the ${resumeFrom} (${store.name})`, async () => {
        server = await startMessagesServer();
        server.enqueue({ recording: recording() }, { content: [{ type: 'text', text: 'Noted.' }] });
        const opened = store.open();
        cleanups.push(opened.cleanup);
        const model = () => anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test-key', baseURL: server!.url, maxRetries: 0 });
        const first = createAgent({ model: model(), tools: [note], store: opened.stores() });
        const waiting = await first.run('What is the answer? Note it.').result;
        expect(waiting.status).toBe('awaiting-approval');
        expect(first.messages[1]).toEqual({ role: 'assistant', content: expected });
        const snapshot = JSON.parse(JSON.stringify(first.snapshot()));
        await first.close();

        const second = createAgent({ model: model(), tools: [note], store: opened.stores(), resume: resumeFrom === 'store' ? first.sessionId : snapshot });
        await second.ready;
        const approval = second.pendingApprovals[0]!;
        const done = await second.resolveApproval(approval.id, { behavior: 'allow' }).result;
        expect(done.status).toBe('completed');
        expect(server.errors).toEqual([]);
        expect(server.requests).toHaveLength(2);
        // Byte for byte: the JSON of the assistant message in the second request is the streamed one's.
        expect(JSON.stringify(server.requests[1]!.messages[1])).toBe(JSON.stringify({ role: 'assistant', content: expected }));
        expect(server.requests[1]!.messages[2]).toMatchObject({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'noted 42' }] });
        await second.close();
      });
    }
  }
});

describe('attack: a turn paused by the API (pause_turn) is continued as one message, thinking and all', () => {
  it('the continuation request ends with the paused message as sent; the joined message goes back whole', async () => {
    server = await startMessagesServer();
    const [thinking, , serverUse, searchResult] = expected as Array<Record<string, unknown>>;
    const paused = [
      frame({ type: 'message_start', message: { id: 'msg_p1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 50, output_tokens: 1 } } }),
      frame({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }),
      frame({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: thinking!.thinking } }),
      frame({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: thinking!.signature } }),
      frame({ type: 'content_block_stop', index: 0 }),
      frame({ type: 'content_block_start', index: 1, content_block: serverUse }),
      frame({ type: 'content_block_stop', index: 1 }),
      frame({ type: 'content_block_start', index: 2, content_block: searchResult }),
      frame({ type: 'content_block_stop', index: 2 }),
      frame({ type: 'message_delta', delta: { stop_reason: 'pause_turn', stop_sequence: null }, usage: { output_tokens: 30 } }),
      frame({ type: 'message_stop' }),
    ].join('');
    server.enqueue({ recording: paused }, { content: [{ type: 'text', text: 'Found it.' }, { type: 'tool_use', id: 'toolu_p', name: 'note', input: { text: '42' } }] }, { content: [{ type: 'text', text: 'Noted.' }] });
    const agent = createAgent({ model: anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'k', baseURL: server.url, maxRetries: 0 }), tools: [note], canUseTool: () => ({ behavior: 'allow' }) });
    const result = await agent.run('Search, then note.').result;
    expect(result.status).toBe('completed');
    expect(server.errors).toEqual([]);
    // As sent, but for the adapter's cache breakpoint on the last block that takes one.
    const withoutBreakpoints = JSON.stringify(server.requests[1]!.messages.at(-1), (key, value: unknown) => (key === 'cache_control' ? undefined : value));
    expect(withoutBreakpoints).toBe(JSON.stringify({ role: 'assistant', content: [thinking, serverUse, searchResult] }));
    expect(server.requests[2]!.messages[1]).toEqual({ role: 'assistant', content: [thinking, serverUse, searchResult, { type: 'text', text: 'Found it.' }, { type: 'tool_use', id: 'toolu_p', name: 'note', input: { text: '42' } }] });
    await agent.close();
  });
});
