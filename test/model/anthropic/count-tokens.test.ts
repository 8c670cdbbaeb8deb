import { afterEach, describe, expect, it } from 'vitest';
import { ModelError } from '../../../src/errors/model-error.js';
import { anthropicModel } from '../../../src/model/anthropic/anthropic-model.js';
import { toAnthropicRequest, toCountTokensRequest } from '../../../src/model/anthropic/to-anthropic-request.js';
import type { ModelRequest, ToolDefinition } from '../../../src/model/model.js';
import { startMessagesServer, type MessagesServer } from '../../../src/testing/messages-server/index.js';

let server: MessagesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const tool: ToolDefinition = { name: 'Read', description: 'Reads a file.', input_schema: { type: 'object', properties: { path: { type: 'string' } } } };
const request: ModelRequest = {
  system: [{ type: 'text', text: 'You are careful.' }],
  tools: [tool],
  messages: [{ role: 'user', content: 'Count me.' }],
};

describe('anthropicModel().countTokens', () => {
  it('asks the token counting endpoint through the SDK and returns its figure', async () => {
    server = await startMessagesServer();
    const model = anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test', baseURL: server.url, temperature: 0.5, stopSequences: ['STOP'], extraBody: { metadata: { user_id: 'u1' } } });
    const count = await model.countTokens!(request);
    expect(count.inputTokens).toBeGreaterThan(0);
    expect(server.requests).toHaveLength(0);
    expect(server.countTokensRequests).toHaveLength(1);
    const body = server.countTokensRequests[0]!;
    // The endpoint refuses generation fields: none is sent.
    expect(Object.keys(body).sort()).toEqual(['messages', 'model', 'system', 'tools']);
    expect(JSON.stringify(body)).not.toContain('cache_control');
  });

  it('counts the same bytes a turn would send, so the figure matches the server count of the turn', async () => {
    server = await startMessagesServer({ contextWindow: 1 });
    const model = anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test', baseURL: server.url, promptCaching: false, maxRetries: 0 });
    const { inputTokens } = await model.countTokens!(request);
    const turn = (async () => {
      for await (const _ of model.stream(request)) void _;
    })();
    // The turn is refused for the 1-token window, with the count in the message.
    const error = await turn.then(() => undefined, (caught: unknown) => caught);
    expect(ModelError.isInstance(error)).toBe(true);
    expect((error as ModelError).message).toContain(`prompt is too long: ${inputTokens} tokens > 1 maximum`);
  });

  it('sends context_management and its beta header on turns and counts, keeping the caller\'s betas', async () => {
    server = await startMessagesServer();
    const contextManagement = { edits: [{ type: 'clear_tool_uses_20250919' as const, trigger: { type: 'input_tokens' as const, value: 30_000 }, keep: { type: 'tool_uses' as const, value: 3 } }] };
    const seen: Array<string | string[] | undefined> = [];
    server.enqueue(({ headers }) => {
      seen.push(headers['anthropic-beta']);
      return { content: [{ type: 'text', text: 'ok' }] };
    });
    const model = anthropicModel({
      model: 'claude-sonnet-4-6',
      apiKey: 'test',
      baseURL: server.url,
      contextManagement,
      headers: { 'Anthropic-Beta': 'interleaved-thinking-2025-05-14' },
    });
    for await (const _ of model.stream(request)) void _;
    expect(server.requests[0]!.context_management).toEqual(contextManagement);
    expect(String(seen[0])).toBe('interleaved-thinking-2025-05-14,context-management-2025-06-27');
    await model.countTokens!(request);
    expect(server.countTokensRequests[0]!.context_management).toEqual(contextManagement);
  });

  it('maps a refused count to a ModelError', async () => {
    server = await startMessagesServer();
    const model = anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test', baseURL: server.url, maxRetries: 0 });
    const error = await model.countTokens!({ ...request, messages: [{ role: 'assistant', content: [{ type: 'text', text: 'first' }] }] }).catch((caught: unknown) => caught);
    expect(ModelError.isInstance(error)).toBe(true);
    expect((error as ModelError).status).toBe(400);
    expect((error as ModelError).message).toContain('first message must use the "user" role');
  });
});

describe('provider tool types', () => {
  it('sends a tool with a provider type as the native tool, and custom tools with their schema', () => {
    const memory: ToolDefinition = { name: 'memory', description: 'Memory.', input_schema: { type: 'object' }, type: 'memory_20250818' };
    const body = toAnthropicRequest({ ...request, tools: [tool, memory] }, { model: 'm', maxTokens: 10, promptCaching: true });
    expect(body.tools).toEqual([
      { name: 'Read', description: 'Reads a file.', input_schema: tool.input_schema },
      { type: 'memory_20250818', name: 'memory', cache_control: { type: 'ephemeral' } },
    ]);
    expect(toCountTokensRequest({ ...request, tools: [memory] }, { model: 'm', maxTokens: 10, promptCaching: true }).tools).toEqual([
      { type: 'memory_20250818', name: 'memory' },
    ]);
  });
});
