import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { anthropicModel, createAgent, defineTool, type ContentBlock, type Tool } from 'agent-harness';
import { startMessagesServer, type MessagesServer } from 'agent-harness/testing/messages-server';
import { toAnthropicRequest } from '../../../src/model/anthropic/to-anthropic-request.js';
import { anthropicToolSearchSupport } from '../../../src/model/anthropic/tool-search-support.js';

let server: MessagesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const executed: string[] = [];
function catalogTool(name: string, description: string, deferLoading = true): Tool {
  return defineTool({
    name,
    description,
    inputSchema: z.object({ id: z.string().describe('Record id') }),
    readOnly: true,
    deferLoading,
    execute: ({ input }) => {
      executed.push(`${name}(${input.id})`);
      return `${name} ran for ${input.id}`;
    },
  });
}

const tools = [
  catalogTool('crm_lookup_customer', 'Look up a customer record in the CRM by id.'),
  catalogTool('billing_get_invoice', 'Fetch an invoice from the billing system.'),
  catalogTool('billing_refund_invoice', 'Refund an invoice, fully or partly.'),
  catalogTool('calendar_list_events', 'List events of a calendar.'),
  catalogTool('notes_read', 'Read a note.', false),
];

const model = (url: string, options: { toolSearch?: 'server' | 'none' } = {}) =>
  anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test-key', baseURL: url, maxRetries: 0, ...(options.toolSearch ? { toolSearch: options.toolSearch } : {}) });

describe('tool search through @anthropic-ai/sdk and the loopback Messages server', () => {
  it('sends deferred tools with defer_loading beside the BM25 search tool, the server searches, and the history keeps the search blocks unchanged', async () => {
    executed.length = 0;
    server = await startMessagesServer({
      responses: [
        {
          content: [
            { type: 'text', text: 'Let me find a billing tool.' },
            { type: 'server_tool_use', id: 'srvtoolu_01', name: 'tool_search_tool_bm25', input: { query: 'refund an invoice' } },
            { type: 'tool_use', id: 'toolu_01', name: 'billing_refund_invoice', input: { id: 'INV-7' } },
          ],
        },
        { content: [{ type: 'text', text: 'Refunded.' }] },
      ],
    });
    const agent = createAgent({ model: model(server.url), system: 'You are a back-office agent.', tools });
    const result = await agent.run('Refund invoice INV-7').result;
    expect(result.status).toBe('completed');
    expect(server.errors).toEqual([]);
    expect(executed).toEqual(['billing_refund_invoice(INV-7)']);

    const [first, second] = server.requests;
    expect(first!.tools!.map((tool) => [tool.name, tool.type ?? null, tool.defer_loading ?? false, Boolean(tool.cache_control)])).toEqual([
      ['notes_read', null, false, false],
      ['TodoWrite', null, false, false],
      ['ExitPlanMode', null, false, false],
      ['tool_search_tool_bm25', 'tool_search_tool_bm25_20251119', false, true],
      ['crm_lookup_customer', null, true, false],
      ['billing_get_invoice', null, true, false],
      ['billing_refund_invoice', null, true, false],
      ['calendar_list_events', null, true, false],
    ]);
    expect(JSON.stringify(second!.tools)).toBe(JSON.stringify(first!.tools));
    // The assistant message of the first turn went back exactly as the server streamed it.
    const assistant = second!.messages[1]!.content as ContentBlock[];
    expect(assistant.map((block) => block.type)).toEqual(['text', 'server_tool_use', 'tool_search_tool_result', 'tool_use']);
    expect(assistant[1]).toEqual({ type: 'server_tool_use', id: 'srvtoolu_01', name: 'tool_search_tool_bm25', input: { query: 'refund an invoice' } });
    expect(assistant[2]).toEqual({
      type: 'tool_search_tool_result',
      tool_use_id: 'srvtoolu_01',
      content: {
        type: 'tool_search_tool_search_result',
        tool_references: [
          { type: 'tool_reference', tool_name: 'billing_refund_invoice' },
          { type: 'tool_reference', tool_name: 'billing_get_invoice' },
        ],
      },
    });
    expect(agent.messages[1]!.content).toEqual(assistant);
  });

  it('runs the regex variant and reports an invalid pattern as the API does, inside the same response', async () => {
    server = await startMessagesServer({
      responses: [
        {
          content: [
            { type: 'server_tool_use', id: 'srvtoolu_a', name: 'tool_search_tool_regex', input: { pattern: '(?i)^calendar_' } },
            { type: 'server_tool_use', id: 'srvtoolu_b', name: 'tool_search_tool_regex', input: { pattern: '([' } },
            { type: 'text', text: 'Found the calendar tool.' },
          ],
        },
      ],
    });
    const agent = createAgent({ model: model(server.url), tools, toolSearch: 'regex' });
    await agent.run('find calendar tools').result;
    const content = agent.messages[1]!.content as Array<Record<string, unknown>>;
    expect(content[1]).toEqual({
      type: 'tool_search_tool_result',
      tool_use_id: 'srvtoolu_a',
      content: { type: 'tool_search_tool_search_result', tool_references: [{ type: 'tool_reference', tool_name: 'calendar_list_events' }] },
    });
    expect(content[3]).toMatchObject({ type: 'tool_search_tool_result', tool_use_id: 'srvtoolu_b', content: { type: 'tool_search_tool_result_error', error_code: 'invalid_tool_input' } });
    expect(server.requests[0]!.tools!.find((tool) => tool.type)).toEqual({ type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex', cache_control: { type: 'ephemeral' } });
  });

  it('falls back to the client-side ToolSearch for models that do not run the server search', async () => {
    server = await startMessagesServer({
      responses: [
        { content: [{ type: 'tool_use', id: 'toolu_s', name: 'ToolSearch', input: { query: 'customer record' } }] },
        { content: [{ type: 'text', text: 'Found it.' }] },
      ],
    });
    expect(anthropicToolSearchSupport('claude-3-5-haiku-latest')).toBe('none');
    const agent = createAgent({ model: anthropicModel({ model: 'claude-3-5-haiku-latest', apiKey: 'k', baseURL: server.url, maxRetries: 0 }), tools });
    const result = await agent.run('find the customer tool').result;
    expect(result.status).toBe('completed');
    expect(server.requests[0]!.tools!.map((tool) => tool.name)).toEqual(['notes_read', 'TodoWrite', 'ExitPlanMode', 'ToolSearch']);
    expect(JSON.stringify(server.requests[1]!.messages)).toContain('crm_lookup_customer');
  });
});

describe('toAnthropicRequest with the tool union', () => {
  const settings = { model: 'claude-test', maxTokens: 100, promptCaching: true };
  const fn = (name: string, deferLoading = false) => ({ name, description: name, input_schema: { type: 'object' }, ...(deferLoading ? { defer_loading: true } : {}) });

  it('passes server tools through as given and marks the last tool that is not deferred', () => {
    const body = toAnthropicRequest(
      { system: [], messages: [{ role: 'user', content: 'hi' }], tools: [fn('a'), { type: 'web_search_20250305', name: 'web_search', max_uses: 3 }, fn('b', true), fn('c', true)] },
      settings,
    );
    expect(body.tools).toEqual([
      { name: 'a', description: 'a', input_schema: { type: 'object' } },
      { type: 'web_search_20250305', name: 'web_search', max_uses: 3, cache_control: { type: 'ephemeral' } },
      { name: 'b', description: 'b', input_schema: { type: 'object' }, defer_loading: true },
      { name: 'c', description: 'c', input_schema: { type: 'object' }, defer_loading: true },
    ]);
  });

  it('leaves the breakpoint for the messages when every tool is deferred', () => {
    const body = toAnthropicRequest({ system: [], messages: [{ role: 'user', content: 'hi' }], tools: [fn('b', true)] }, settings);
    expect(JSON.stringify(body.tools)).not.toContain('cache_control');
  });

  it('judges server-side tool search by the model id, and takes an override', () => {
    expect(['claude-opus-4-5', 'claude-sonnet-4-5-20250929', 'claude-sonnet-4-6', 'claude-opus-5'].map(anthropicToolSearchSupport)).toEqual(['server', 'server', 'server', 'server']);
    expect(['claude-sonnet-4-20250514', 'claude-opus-4-1', 'claude-haiku-4-5', 'claude-3-7-sonnet-latest'].map(anthropicToolSearchSupport)).toEqual(['none', 'none', 'none', 'none']);
    expect(anthropicModel({ model: 'claude-haiku-4-5', toolSearch: 'tool-reference' }).capabilities).toEqual({ toolSearch: 'tool-reference' });
    expect(() => anthropicModel({ model: 'claude-haiku-4-5', toolSearch: 'yes' as never })).toThrow(/`toolSearch` must be/);
  });
});
