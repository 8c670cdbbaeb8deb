import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicModel } from '../../../src/model/anthropic/anthropic-model.js';
import { toAnthropicRequest, type AnthropicRequestSettings } from '../../../src/model/anthropic/to-anthropic-request.js';
import type { Message } from '../../../src/model/messages.js';
import type { ModelRequest, ToolDefinition } from '../../../src/model/model.js';
import { startMessagesServer, type MessagesServer } from '../../../src/testing/messages-server/index.js';

const settings: AnthropicRequestSettings = { model: 'claude-test', maxTokens: 1000, promptCaching: true };
const tools: ToolDefinition[] = [
  { name: 'Read', description: 'Read a file', input_schema: { type: 'object', properties: { path: { type: 'string' } } } },
  { name: 'Write', description: 'Write a file', input_schema: { type: 'object', properties: {} } },
];
const system = [{ type: 'text' as const, text: 'You are a writing assistant.' }, { type: 'text' as const, text: 'Be brief.' }];

function history(): Message[] {
  return [
    { role: 'user', content: 'Read a.md' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { path: 'a.md' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'hello' }] },
  ];
}

describe('toAnthropicRequest', () => {
  it('puts cache_control on the last system block, the last tool, the last block of the last message and of the message before the latest assistant message', () => {
    const body = toAnthropicRequest({ system, tools, messages: history() }, settings);
    expect(body.system?.map((block) => block.cache_control)).toEqual([undefined, { type: 'ephemeral' }]);
    expect(body.tools?.map((tool) => tool.cache_control)).toEqual([undefined, { type: 'ephemeral' }]);
    expect(body.messages[2]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_1', content: 'hello', cache_control: { type: 'ephemeral' } },
    ]);
    // The anchor: where the previous request ended (a string turned into its one text block).
    expect(body.messages[0]!.content).toEqual([{ type: 'text', text: 'Read a.md', cache_control: { type: 'ephemeral' } }]);
    expect(JSON.stringify(body).match(/cache_control/g)).toHaveLength(4);
  });

  it('turns a string last message into a text block carrying the breakpoint', () => {
    const body = toAnthropicRequest({ system, tools, messages: [{ role: 'user', content: 'Hi' }] }, settings);
    expect(body.messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: { type: 'ephemeral' } }] });
  });

  it('does not mutate the caller and copies only the messages it marks', () => {
    const messages = history();
    const snapshot = structuredClone(messages);
    const request: ModelRequest = { system, tools, messages };
    const body = toAnthropicRequest(request, settings);
    expect(messages).toEqual(snapshot);
    expect(system.some((block) => 'cache_control' in block)).toBe(false);
    expect(tools.some((tool) => 'cache_control' in tool)).toBe(false);
    expect(body.messages[0]).not.toBe(messages[0]);
    expect(body.messages[1]).toBe(messages[1]);
    expect(body.messages[2]).not.toBe(messages[2]);
  });

  it('adds no breakpoints with promptCaching off, and shares every message', () => {
    const messages = history();
    const body = toAnthropicRequest({ system, tools, messages }, { ...settings, promptCaching: false });
    expect(JSON.stringify(body)).not.toContain('cache_control');
    body.messages.forEach((message, index) => expect(message).toBe(messages[index]));
  });

  it('skips a breakpoint the API would refuse (thinking block) and omits empty system/tools', () => {
    const messages: Message[] = [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'hm', signature: 'sig' }] },
    ];
    const body = toAnthropicRequest({ system: [], tools: [], messages }, settings);
    expect(body).not.toHaveProperty('system');
    expect(body).not.toHaveProperty('tools');
    expect(body.messages[1]).toBe(messages[1]);
  });

  it('passes thinking, temperature, stop sequences and extra body fields', () => {
    const body = toAnthropicRequest(
      { system, tools, messages: history() },
      {
        ...settings,
        thinking: { type: 'enabled', budget_tokens: 2048 },
        temperature: 0.5,
        stopSequences: ['END'],
        extraBody: { metadata: { user_id: 'u1' }, model: 'ignored' },
      },
    );
    expect(body).toMatchObject({
      model: 'claude-test',
      max_tokens: 1000,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      temperature: 0.5,
      stop_sequences: ['END'],
      metadata: { user_id: 'u1' },
      stream: true,
    });
  });
});

describe('output_config: effort, a typed output\'s format and extraBody merged', () => {
  const format = { type: 'json_schema', schema: { type: 'object', properties: { title: { type: 'string' } } } } as const;
  const request = (outputFormat?: typeof format): ModelRequest => ({ system, tools, messages: history(), ...(outputFormat ? { outputFormat } : {}) });

  it('sends effort alone, beside the format, and beside what extraBody puts in output_config', () => {
    expect(toAnthropicRequest(request(), { ...settings, effort: 'low' }).output_config).toEqual({ effort: 'low' });
    expect(toAnthropicRequest(request(format), { ...settings, effort: 'high' }).output_config).toEqual({ effort: 'high', format });
    // extraBody's output_config used to be replaced whole by the format: its effort was lost.
    expect(toAnthropicRequest(request(format), { ...settings, extraBody: { output_config: { effort: 'medium' } } }).output_config).toEqual({ effort: 'medium', format });
    // The option wins over extraBody for the same field; the host's extraBody object is not changed.
    const extraBody = { output_config: { effort: 'max', other: 1 } };
    expect(toAnthropicRequest(request(), { ...settings, effort: 'low', extraBody }).output_config).toEqual({ effort: 'low', other: 1 });
    expect(extraBody).toEqual({ output_config: { effort: 'max', other: 1 } });
  });

  it('sends no output_config when nothing sets one, and extraBody\'s as it is when only it does', () => {
    expect(toAnthropicRequest(request(), settings)).not.toHaveProperty('output_config');
    expect(toAnthropicRequest(request(), { ...settings, extraBody: { output_config: { effort: 'low' } } }).output_config).toEqual({ effort: 'low' });
    // structuredOutput: false leaves the format out (the run validates the answer itself).
    expect(toAnthropicRequest(request(format), { ...settings, structuredOutput: false, effort: 'low' }).output_config).toEqual({ effort: 'low' });
  });

  it('anthropicModel takes effort and sends it through the SDK; a bad value is named', async () => {
    const server = await startMessagesServer();
    try {
      const model = anthropicModel({ model: 'claude-test', apiKey: 'test-key', baseURL: server.url, maxRetries: 0, effort: 'low' });
      server.enqueue({ content: [{ type: 'text', text: 'Hi.' }] });
      for await (const _event of model.stream({ system, tools: [], messages: [{ role: 'user', content: 'Hi' }] })) void _event;
      expect(server.requests[0]!.output_config).toEqual({ effort: 'low' });
    } finally {
      await server.close();
    }
    expect(() => anthropicModel({ model: 'claude-test', effort: 3 as never })).toThrow(/effort.*'low', 'medium', 'high', 'xhigh' or 'max'/);
    expect(() => anthropicModel({ model: 'claude-test', output_config: {} } as never)).toThrow(/`effort` sets output_config\.effort/);
  });
});

describe('anthropicModel request prefix', () => {
  let server: MessagesServer;
  beforeAll(async () => {
    server = await startMessagesServer();
  });
  afterAll(() => server.close());

  it('sends system + tools byte-identical on every turn', async () => {
    const model = anthropicModel({ model: 'claude-test', apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
    const messages: Message[] = [{ role: 'user', content: 'Read a.md' }];
    server.enqueue({ content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { path: 'a.md' } }] });
    server.enqueue({ content: [{ type: 'text', text: 'Done.' }] });
    for (let turn = 0; turn < 2; turn++) {
      for await (const event of model.stream({ system, tools, messages })) {
        if (event.type === 'response') messages.push(event.response.message);
      }
      if (turn === 0) messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'hello' }] });
    }
    expect(server.requests).toHaveLength(2);
    const prefix = (index: number) => JSON.stringify([server.requests[index]!.system, server.requests[index]!.tools]);
    expect(prefix(1)).toBe(prefix(0));
    expect(server.requests[0]!.max_tokens).toBe(8192);
    // The caller's history never picked up a breakpoint.
    expect(JSON.stringify(messages)).not.toContain('cache_control');
  });
});
