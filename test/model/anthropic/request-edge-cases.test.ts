import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../../src/errors/configuration-error.js';
import { anthropicModel } from '../../../src/model/anthropic/anthropic-model.js';
import { toAnthropicRequest, type AnthropicRequestSettings } from '../../../src/model/anthropic/to-anthropic-request.js';
import type { ContentBlock, Message, TextBlock } from '../../../src/model/messages.js';
import type { ToolDefinition } from '../../../src/model/model.js';

const settings: AnthropicRequestSettings = { model: 'claude-test', maxTokens: 1000, promptCaching: true };
const tool: ToolDefinition = { name: 'Read', description: 'Read a file', input_schema: { type: 'object', properties: {} } };

function countBreakpoints(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, item) => n + countBreakpoints(item), 0);
  if (value && typeof value === 'object') {
    let n = 'cache_control' in value && (value as { cache_control?: unknown }).cache_control ? 1 : 0;
    for (const [key, child] of Object.entries(value)) if (key !== 'cache_control') n += countBreakpoints(child);
    return n;
  }
  return 0;
}

describe('cache breakpoints', () => {
  it('never sends more than 4 cache_control blocks when the caller already marked some', () => {
    const system: TextBlock[] = [
      { type: 'text', text: 'A', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'B', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'C' },
    ];
    const body = toAnthropicRequest({ system, tools: [tool], messages: [{ role: 'user', content: 'hi' }] }, settings);
    // API: "A maximum of 4 blocks with cache_control may be provided. Found 5."
    expect(countBreakpoints(body)).toBeLessThanOrEqual(4);
  });

  it('counts cache_control already in the history (e.g. inside a tool_result content array)', () => {
    const marked = { type: 'ephemeral' as const };
    const messages: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'one', cache_control: marked }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: {} }] },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'r', cache_control: marked }] }],
      },
    ];
    const body = toAnthropicRequest({ system: [{ type: 'text', text: 'S' }], tools: [tool], messages }, settings);
    expect(countBreakpoints(body)).toBeLessThanOrEqual(4);
  });

  it('no 5m breakpoint ahead of a caller 1h breakpoint (API: 1h must not come after 5m; order tools→system→messages)', () => {
    const system: TextBlock[] = [{ type: 'text', text: 'S', cache_control: { type: 'ephemeral', ttl: '1h' } }];
    const body = toAnthropicRequest({ system, tools: [tool], messages: [{ role: 'user', content: 'hi' }] }, settings);
    const ordered = [...(body.tools ?? []), ...(body.system ?? [])]
      .map((block) => (block as { cache_control?: { ttl?: string } }).cache_control)
      .filter(Boolean)
      .map((cc) => cc!.ttl ?? '5m');
    const first1h = ordered.indexOf('1h');
    expect(ordered.slice(0, first1h).includes('5m')).toBe(false);
  });

  it('does not put cache_control on beta block types without it (fallback, mcp_tool_listing) at the end of a paused assistant turn', () => {
    for (const last of [
      { type: 'mcp_tool_listing', mcp_server_name: 'srv', tools: [] },
      { type: 'fallback', from: { model: 'a' }, to: { model: 'b' } },
    ] as ContentBlock[]) {
      const messages: Message[] = [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: [{ type: 'text', text: 'Working' }, last] },
      ];
      const body = toAnthropicRequest({ system: [], tools: [], messages }, settings);
      const sent = (body.messages[1]!.content as ContentBlock[]).at(-1) as Record<string, unknown>;
      expect(sent.cache_control).toBeUndefined();
    }
  });

  it('a last message ending in a thinking block still gets a breakpoint on its last cacheable block', () => {
    const messages: Message[] = [
      { role: 'user', content: 'hi' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Searching' },
          { type: 'thinking', thinking: 't', signature: 's' },
        ],
      },
    ];
    const body = toAnthropicRequest({ system: [], tools: [], messages }, settings);
    expect(countBreakpoints([body.messages[1]!])).toBe(1);
    expect((body.messages[1]!.content as ContentBlock[])[0]).toMatchObject({ type: 'text', cache_control: { type: 'ephemeral' } });
    // (And the anchor: the message before the assistant's.)
    expect(countBreakpoints(body.messages)).toBe(2);
  });

  it('tool_result with array content gets the breakpoint on the tool_result itself, caller untouched', () => {
    const result = { type: 'tool_result' as const, tool_use_id: 't1', content: [{ type: 'text' as const, text: 'x' }] };
    const messages: Message[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: {} }] },
      { role: 'user', content: [result] },
    ];
    const snapshot = JSON.stringify(messages);
    const body = toAnthropicRequest({ system: [], tools: [], messages }, settings);
    const sent = (body.messages[2]!.content as ContentBlock[])[0] as Record<string, unknown>;
    expect(sent.cache_control).toEqual({ type: 'ephemeral' });
    expect((sent.content as Array<Record<string, unknown>>)[0]!.cache_control).toBeUndefined();
    expect(JSON.stringify(messages)).toBe(snapshot);
  });

  it('server_tool_use / web_search_tool_result last (pause_turn continuation) get a breakpoint the API accepts', () => {
    const messages: Message[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [{ type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x' } }] },
    ];
    const body = toAnthropicRequest({ system: [], tools: [], messages }, settings);
    expect(((body.messages[1]!.content as ContentBlock[])[0] as Record<string, unknown>).cache_control).toEqual({ type: 'ephemeral' });
  });

  it('system + tools JSON identical across turns while history grows', () => {
    const system: TextBlock[] = [{ type: 'text', text: 'S1' }, { type: 'text', text: 'S2' }];
    const one = toAnthropicRequest({ system, tools: [tool, { ...tool, name: 'Write' }], messages: [{ role: 'user', content: 'a' }] }, settings);
    const two = toAnthropicRequest(
      {
        system,
        tools: [tool, { ...tool, name: 'Write' }],
        messages: [
          { role: 'user', content: 'a' },
          { role: 'assistant', content: [{ type: 'text', text: 'b' }] },
          { role: 'user', content: 'c' },
        ],
      },
      settings,
    );
    expect(JSON.stringify([one.system, one.tools])).toBe(JSON.stringify([two.system, two.tools]));
  });
});

describe('the anchor breakpoint (where the previous request ended)', () => {
  const marked = (message: Message | undefined) => (Array.isArray(message?.content) ? message.content.map((block) => Boolean((block as { cache_control?: unknown }).cache_control)) : 'string');
  const call = (id: string): ContentBlock => ({ type: 'tool_use', id, name: 'Read', input: {} });
  const result = (id: string): ContentBlock => ({ type: 'tool_result', tool_use_id: id, content: 'r' });

  it('goes on the message before the latest assistant message: the tool results before the last turn, or the prompt before a continued answer', () => {
    const turns: Message[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [call('t1'), call('t2')] },
      { role: 'user', content: [result('t1'), result('t2')] },
      { role: 'assistant', content: [call('t3')] },
      { role: 'user', content: [result('t3')] },
    ];
    const body = toAnthropicRequest({ system: [], tools: [], messages: turns }, settings);
    expect(body.messages.map(marked)).toEqual(['string', [false, false], [false, true], [false], [true]]);
    // A paused answer continued: the last message is the assistant's, the anchor the one before.
    const continued = toAnthropicRequest({ system: [], tools: [], messages: turns.slice(0, 4) }, settings);
    expect(continued.messages.map(marked)).toEqual(['string', [false, false], [false, true], [true]]);
  });

  it('is not set before the first answer, and walks back past a block that takes none', () => {
    expect(countBreakpoints(toAnthropicRequest({ system: [], tools: [], messages: [{ role: 'user', content: 'hi' }] }, settings).messages)).toBe(1);
    const messages: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'go' }, { type: 'text', text: '' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
      { role: 'user', content: 'and now?' },
    ];
    expect(toAnthropicRequest({ system: [], tools: [], messages }, settings).messages.map(marked)).toEqual([[true, false], [false], [true]]);
  });

  it('is the first breakpoint given up when the caller uses some, and a block the caller marked is left as it is', () => {
    const history: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [call('t1')] },
      { role: 'user', content: [result('t1')] },
    ];
    const system: TextBlock[] = [{ type: 'text', text: 'A', cache_control: { type: 'ephemeral' } }, { type: 'text', text: 'B' }];
    const body = toAnthropicRequest({ system, tools: [tool], messages: history }, settings);
    expect(countBreakpoints(body)).toBe(4);
    expect(body.messages.map(marked)).toEqual([[false], [false], [true]]);
    expect(body.messages[0]).toBe(history[0]);
    // The caller's own breakpoint where the anchor would go: not marked twice, the message shared.
    const own: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'go', cache_control: { type: 'ephemeral' } }] }, ...history.slice(1)];
    const withOwn = toAnthropicRequest({ system: [], tools: [tool], messages: own }, settings);
    expect(withOwn.messages[0]).toBe(own[0]);
    expect(countBreakpoints(withOwn)).toBe(3);
  });
});

describe('requests the API refuses', () => {
  it('thinking with temperature != 1 is refused up front (API 400: temperature may only be set to 1 when thinking is enabled)', () => {
    expect(() =>
      anthropicModel({ model: 'm', apiKey: 'k', thinking: { type: 'enabled', budget_tokens: 2048 }, temperature: 0.2 }),
    ).toThrow(ConfigurationError);
  });

  it('thinking budget_tokens >= maxTokens (documented "must be below maxTokens") is refused up front', () => {
    // default maxTokens is 8192
    expect(() => anthropicModel({ model: 'm', apiKey: 'k', thinking: { type: 'enabled', budget_tokens: 10_000 } })).toThrow(
      ConfigurationError,
    );
  });

  it('a temperature outside 0..1, a blank stop sequence and a thinking config the API refuses are refused when the model is made, naming the value and the fix', () => {
    const refuse = (options: Record<string, unknown>, message: RegExp) => {
      let thrown: unknown;
      try {
        anthropicModel({ model: 'm', apiKey: 'k', ...options });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ConfigurationError);
      expect((thrown as ConfigurationError).code).toBe('configuration');
      expect((thrown as Error).message).toMatch(message);
    };
    refuse({ temperature: 1.5 }, /anthropicModel: `temperature` must be a number from 0 to 1 \(the range the Messages API takes\), got 1\.5/);
    refuse({ temperature: -0.1 }, /`temperature` must be a number from 0 to 1.*got -0\.1/);
    refuse({ temperature: Number.NaN }, /`temperature` must be a number from 0 to 1.*got NaN/);
    refuse({ stopSequences: ['END', ' \n'] }, /anthropicModel: `stopSequences\[1\]` must be a string with a non-whitespace character, got the string " \\n"/);
    refuse({ stopSequences: 'END' }, /`stopSequences` must be an array of strings, got the string "END"/);
    refuse({ thinking: { budget_tokens: 4096 } }, /`thinking\.type` must be a string such as 'enabled' \(with budget_tokens\), 'adaptive' or 'disabled', got undefined/);
    refuse({ thinking: { type: 'enabled' } }, /`thinking\.budget_tokens` must be an integer of at least 1024 \(the API's minimum\) with type 'enabled', got undefined/);
    refuse({ thinking: { type: 'enabled', budget_tokens: 512 } }, /`thinking\.budget_tokens` must be an integer of at least 1024.*got 512/);
    refuse({ thinking: { type: 'enabled', budget_tokens: '4096' } }, /`thinking\.budget_tokens` must be an integer of at least 1024.*got the string "4096"/);
    // What the API takes passes: the range's ends, other thinking types (adaptive, later ones) as given.
    expect(anthropicModel({ model: 'm', apiKey: 'k', temperature: 0, stopSequences: ['\n\nHuman:'] }).modelId).toBe('m');
    expect(anthropicModel({ model: 'm', apiKey: 'k', temperature: 1, thinking: { type: 'enabled', budget_tokens: 1024 } }).modelId).toBe('m');
    expect(anthropicModel({ model: 'm', apiKey: 'k', thinking: { type: 'adaptive' } }).modelId).toBe('m');
    expect(anthropicModel({ model: 'm', apiKey: 'k', thinking: { type: 'disabled' } }).modelId).toBe('m');
  });
});
