// An answer the model stops as a refusal (stop reason "refusal") while it holds tool calls: the
// API says such a conversation must not go on as it is. No call of it runs, the model is not asked
// again, the run completes with the refusal (and its warning), and the history stays one the API
// accepts for the next run (every call answered).
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, defineTool, INCOMPLETE_TOOL_INPUT_KEY, memorySessionStore, type Message, type SessionEntry, type SessionStore } from 'agent-harness';
import { z } from 'zod';
import { scriptedModel, text, toolCall, turn } from 'agent-harness/testing';
import { anthropicModel } from '../../src/model/anthropic/anthropic-model.js';
import { startMessagesServer, type MessagesServer } from '../../src/testing/messages-server/index.js';
import { collect } from '../helpers.js';

let server: MessagesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function countingTool() {
  const ran: string[] = [];
  const tool = defineTool({
    name: 'echo',
    description: 'Echoes its text.',
    inputSchema: z.object({ text: z.string() }),
    execute: ({ input }) => {
      ran.push(input.text);
      return `echo: ${input.text}`;
    },
  });
  return { tool, ran };
}

/** Every tool_use of the messages has its tool_result in the next message. */
function unansweredCalls(messages: readonly Message[]): string[] {
  const open: string[] = [];
  messages.forEach((message, index) => {
    if (message.role !== 'assistant' || !Array.isArray(message.content)) return;
    const next = messages[index + 1];
    const answered = new Set<string>(Array.isArray(next?.content) ? next.content.filter((block) => block.type === 'tool_result').map((block) => (block as { tool_use_id: string }).tool_use_id) : []);
    for (const block of message.content) if (block.type === 'tool_use' && !answered.has(String(block.id))) open.push(String(block.id));
  });
  return open;
}

const warningsOf = (events: Array<{ type: string }>) => events.filter((event) => event.type === 'warning') as Array<{ type: 'warning'; source: string; message: string }>;

describe('a refusal in the middle of a tool call', () => {
  it.each([
    ['a complete call', [toolCall('echo', { text: 'a' }, 'toolu_a')]],
    ['a complete call and one cut before its input', [toolCall('echo', { text: 'a' }, 'toolu_a'), toolCall('echo', { [INCOMPLETE_TOOL_INPUT_KEY]: '{"te' }, 'toolu_b')]],
    ['a call cut before any input', [toolCall('echo', { [INCOMPLETE_TOOL_INPUT_KEY]: '' }, 'toolu_a')]],
  ])('%s: nothing runs, the model is not asked again, the run completes on the refusal', async (_name, calls) => {
    const { tool, ran } = countingTool();
    const model = scriptedModel([turn(text('Sure, let me'), ...calls, { stopReason: 'refusal' }), 'Not for this run.', 'Happy to help with that.']);
    const agent = createAgent({ model, tools: [tool] });
    const { events, result } = await collect(agent.run('Do it.'));
    expect(ran).toEqual([]);
    expect(model.requests).toHaveLength(1);
    expect(result).toMatchObject({ status: 'completed', stopReason: 'refusal', text: 'Sure, let me', permissionDenials: [] });
    const warnings = warningsOf(events);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toContain('"refusal"');
    // Every call is answered with an error saying why it did not run; no permission was asked.
    const results = events.filter((event) => event.type === 'tool-result') as Array<{ type: 'tool-result'; toolUseId: string; isError?: boolean }>;
    expect(results.map((event) => event.toolUseId).sort()).toEqual(calls.map((call) => call.id).sort());
    expect(events.some((event) => event.type === 'permission-request')).toBe(false);
    expect(unansweredCalls(agent.messages)).toEqual([]);
    const last = agent.messages[agent.messages.length - 1]!;
    expect(JSON.stringify(last.content)).toContain('refusal');

    // The next run's request carries no unanswered call.
    const next = await agent.run('Something else then.').result;
    expect(next).toMatchObject({ status: 'completed', stopReason: 'end_turn', text: 'Not for this run.' });
    expect(model.requests).toHaveLength(2);
    expect(unansweredCalls(model.requests[1]!.messages)).toEqual([]);
    expect(ran).toEqual([]);
  });

  it('the refused answer is stored with its calls\' answers in one append: a crash in between cannot leave them open for continue() to run', async () => {
    const inner = memorySessionStore();
    const appends: SessionEntry[][] = [];
    const store: SessionStore = { ...inner, append: (sessionId, entries, options) => (appends.push([...entries]), inner.append(sessionId, entries, options)) };
    const { tool, ran } = countingTool();
    const agent = createAgent({ model: scriptedModel([turn(text('Sure'), toolCall('echo', { text: 'a' }, 'toolu_a'), { stopReason: 'refusal' })]), tools: [tool], store });
    expect((await agent.run('Do it.').result).stopReason).toBe('refusal');
    const holding = (predicate: (entry: SessionEntry) => boolean) => appends.findIndex((entries) => entries.some(predicate));
    const isMessage = (role: string, type: string) => (entry: SessionEntry) => entry.kind === 'message' && entry.message.role === role && JSON.stringify(entry.message.content).includes(`"type":"${type}"`);
    const call = holding(isMessage('assistant', 'tool_use'));
    expect(call).toBeGreaterThanOrEqual(0);
    expect(holding(isMessage('user', 'tool_result'))).toBe(call);
    expect(ran).toEqual([]);
  });

  it('through anthropicModel on the loopback server (which refuses an unanswered tool_use)', async () => {
    const { tool, ran } = countingTool();
    server = await startMessagesServer({
      responses: [
        { content: [{ type: 'text', text: 'Sure, let me' }, { type: 'tool_use', id: 'toolu_1', name: 'echo', input: { text: 'a' } }], stopReason: 'refusal' },
        { content: [{ type: 'text', text: 'Here is something else.' }] },
      ],
    });
    const agent = createAgent({ model: anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test-key', baseURL: server.url, maxRetries: 0 }), tools: [tool] });
    const { events, result } = await collect(agent.run('Do it.'));
    expect(ran).toEqual([]);
    expect(server.requests).toHaveLength(1);
    expect(result).toMatchObject({ status: 'completed', stopReason: 'refusal' });
    expect(warningsOf(events).map((warning) => warning.source)).toEqual(['model']);
    const next = await agent.run('Something else then.').result;
    expect(next).toMatchObject({ status: 'completed', text: 'Here is something else.' });
    expect(server.requests).toHaveLength(2);
    expect(ran).toEqual([]);
  });

  it('through anthropicModel: a refusal streamed inside a call\'s input (cut JSON) runs nothing either', async () => {
    const { tool, ran } = countingTool();
    const sse = (events: Array<Record<string, unknown>>) => events.map((event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`).join('');
    const recording = sse([
      { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'echo', input: {} } },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"text": "a' } },
      { type: 'message_delta', delta: { stop_reason: 'refusal', stop_sequence: null }, usage: { output_tokens: 5 } },
      { type: 'message_stop' },
    ]);
    server = await startMessagesServer({ responses: [{ recording }, { content: [{ type: 'text', text: 'Fine.' }] }] });
    const agent = createAgent({ model: anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test-key', baseURL: server.url, maxRetries: 0 }), tools: [tool] });
    const result = await agent.run('Do it.').result;
    expect(result).toMatchObject({ status: 'completed', stopReason: 'refusal' });
    expect(server.requests).toHaveLength(1);
    const next = await agent.run('Something else then.').result;
    expect(next).toMatchObject({ status: 'completed', text: 'Fine.' });
    expect(ran).toEqual([]);
  });
});
