import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { anthropicModel, createAgent, defineTool, INCOMPLETE_TOOL_INPUT_KEY, isIncompleteToolInput, type Message, type ModelResponse } from 'agent-harness';
import { startMessagesServer, type MessagesServer } from 'agent-harness/testing/messages-server';
import { validateMessagesRequest } from 'agent-harness/testing';

let server: MessagesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A recording in SSE form. */
const sse = (events: Array<Record<string, unknown>>) => events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join('');
const start = { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } };
const toolStart = (index: number, id: string) => ({ type: 'content_block_start', index, content_block: { type: 'tool_use', id, name: 'shell', input: {} } });
const inputDelta = (index: number, partialJson: string) => ({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: partialJson } });
const blockStop = (index: number) => ({ type: 'content_block_stop', index });
const messageEnd = (stopReason: string) => [{ type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 100 } }, { type: 'message_stop' }];
const hello: Message[] = [{ role: 'user', content: 'Hello' }];

/** The response the Anthropic adapter assembles from `events`, sent by the loopback server through the real SDK. */
async function responseTo(events: Array<Record<string, unknown>>): Promise<ModelResponse> {
  server = await startMessagesServer({ responses: [{ recording: sse(events) }] });
  const model = anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'k', baseURL: server.url, maxRetries: 0 });
  for await (const event of model.stream({ system: [], tools: [], messages: hello })) if (event.type === 'response') return event.response;
  throw new Error('the stream ended without a response');
}
const inputOf = (response: ModelResponse, index: number) => (response.message.content[index] as { input: unknown }).input;

describe('a tool call cut by max_tokens before any of its input arrived', () => {
  it('gets the incomplete-input marker, not {}, whether or not its block was closed', async () => {
    const closed = await responseTo([start, toolStart(0, 'toolu_cut'), blockStop(0), ...messageEnd('max_tokens')]);
    expect(closed.stopReason).toBe('max_tokens');
    expect(inputOf(closed, 0)).toEqual({ [INCOMPLETE_TOOL_INPUT_KEY]: '' });
    expect(isIncompleteToolInput(inputOf(closed, 0))).toBe(true);
    await server!.close();

    const open = await responseTo([start, toolStart(0, 'toolu_cut'), ...messageEnd('max_tokens')]);
    expect(isIncompleteToolInput(inputOf(open, 0))).toBe(true);
    await server!.close();

    const onlyEmptyDelta = await responseTo([start, toolStart(0, 'toolu_cut'), inputDelta(0, ''), blockStop(0), ...messageEnd('max_tokens')]);
    expect(isIncompleteToolInput(inputOf(onlyEmptyDelta, 0))).toBe(true);
  });

  it('keeps {} for a call that genuinely has no input: completed (stop reason tool_use), or finished before a later block was cut', async () => {
    const completed = await responseTo([start, toolStart(0, 'toolu_empty'), blockStop(0), ...messageEnd('tool_use')]);
    expect(inputOf(completed, 0)).toEqual({});
    await server!.close();

    const withEmptyDelta = await responseTo([start, toolStart(0, 'toolu_empty'), inputDelta(0, ''), blockStop(0), ...messageEnd('tool_use')]);
    expect(inputOf(withEmptyDelta, 0)).toEqual({});
    await server!.close();

    // Only the last block can be the one cut off: an earlier empty call was whole.
    const earlier = await responseTo([start, toolStart(0, 'toolu_empty'), blockStop(0), toolStart(1, 'toolu_cut'), inputDelta(1, '{"command": "l'), ...messageEnd('max_tokens')]);
    expect(inputOf(earlier, 0)).toEqual({});
    expect(isIncompleteToolInput(inputOf(earlier, 1))).toBe(true);
  });

  it('is not run by the agent (even a tool whose inputs are all optional): it gets an error result and the run goes on', async () => {
    const recording = sse([start, toolStart(0, 'toolu_cut'), blockStop(0), ...messageEnd('max_tokens')]);
    server = await startMessagesServer({ responses: [{ recording }, { content: [{ type: 'text', text: 'Sent again, shorter.' }] }] });
    const ran: unknown[] = [];
    const shell = defineTool({ name: 'shell', description: 'Runs.', inputSchema: z.object({ command: z.string().optional() }), kind: 'other', execute: ({ input }) => (ran.push(input), 'ran') });
    const agent = createAgent({
      model: anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'k', baseURL: server.url, maxRetries: 0 }),
      tools: [shell],
      permissionMode: 'bypassPermissions',
      allowDangerouslySkipPermissions: true,
    });
    const result = await agent.run('go').result;
    expect(ran).toEqual([]);
    expect(result.status).toBe('completed');
    const answer = (agent.messages[2]!.content as Array<{ type: string; tool_use_id?: string; is_error?: boolean; content?: unknown }>).find((block) => block.type === 'tool_result')!;
    expect(answer).toMatchObject({ tool_use_id: 'toolu_cut', is_error: true });
    expect(JSON.stringify(answer.content)).toMatch(/cut off/);
    expect(validateMessagesRequest(agent.messages)).toBeUndefined();
    expect(server.errors).toEqual([]);
  });
});

describe('a tool call cut by another limit of the response before any of its input arrived', () => {
  it.each(['model_context_window_exceeded', 'refusal'])('stop reason %s: the call gets the marker and is not run, even with all-optional inputs', async (stopReason) => {
    const cut = await responseTo([start, toolStart(0, 'toolu_cut'), blockStop(0), ...messageEnd(stopReason)]);
    expect(isIncompleteToolInput(inputOf(cut, 0))).toBe(true);
    await server!.close();

    const recording = sse([start, toolStart(0, 'toolu_cut'), inputDelta(0, ''), ...messageEnd(stopReason)]);
    server = await startMessagesServer({ responses: [{ recording }, { content: [{ type: 'text', text: 'Stopped.' }] }] });
    const ran: unknown[] = [];
    const shell = defineTool({ name: 'shell', description: 'Runs.', inputSchema: z.object({ command: z.string().optional() }), kind: 'other', execute: ({ input }) => (ran.push(input), 'ran') });
    const agent = createAgent({
      model: anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'k', baseURL: server.url, maxRetries: 0 }),
      tools: [shell],
      permissionMode: 'bypassPermissions',
      allowDangerouslySkipPermissions: true,
    });
    await agent.run('go').result;
    expect(ran).toEqual([]);
    const answer = (agent.messages[2]!.content as Array<{ type: string; tool_use_id?: string; is_error?: boolean; content?: unknown }>).find((block) => block.type === 'tool_result')!;
    expect(answer).toMatchObject({ tool_use_id: 'toolu_cut', is_error: true });
    expect(validateMessagesRequest(agent.messages)).toBeUndefined();
  });

  it('a call whose JSON is malformed, not cut, is not told it hit max_tokens', async () => {
    const recording = sse([start, toolStart(0, 'toolu_bad'), inputDelta(0, '{"command": ls}'), blockStop(0), ...messageEnd('tool_use')]);
    server = await startMessagesServer({ responses: [{ recording }, { content: [{ type: 'text', text: 'Fixed.' }] }] });
    const shell = defineTool({ name: 'shell', description: 'Runs.', inputSchema: z.object({ command: z.string().optional() }), kind: 'other', execute: () => 'ran' });
    const agent = createAgent({ model: anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'k', baseURL: server.url, maxRetries: 0 }), tools: [shell], permissionMode: 'bypassPermissions', allowDangerouslySkipPermissions: true });
    await agent.run('go').result;
    const answer = (agent.messages[2]!.content as Array<{ type: string; content?: unknown }>).find((block) => block.type === 'tool_result')!;
    expect(JSON.stringify(answer.content)).not.toMatch(/max_tokens limit/);
    expect(JSON.stringify(answer.content)).toMatch(/not valid JSON|did not parse/);
  });
});
