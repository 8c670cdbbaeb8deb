import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ConfigurationError,
  createAgent,
  deferTool,
  defineSkill,
  defineTool,
  isServerToolDefinition,
  serverTool,
  type RequestTool,
  type ToolDefinition,
} from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { collect, echoTool } from '../helpers.js';

const calls: string[] = [];
const weather = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city.',
  inputSchema: z.object({ city: z.string().describe('City name') }),
  readOnly: true,
  deferLoading: true,
  execute: ({ input }) => {
    calls.push(input.city);
    return `Sunny in ${input.city}`;
  },
});
const deleteAll = deferTool(
  defineTool({ name: 'delete_everything', description: 'Deletes every record.', inputSchema: z.object({}), execute: () => 'deleted' }),
);

const names = (tools: readonly RequestTool[]) => tools.map((tool) => (isServerToolDefinition(tool) ? `server:${tool.type}` : `${tool.name}${tool.defer_loading ? ' (deferred)' : ''}`));

describe('deferred tools', () => {
  it('for a model without tool search: leaves deferred tools out, offers ToolSearch, and runs what it finds', async () => {
    calls.length = 0;
    const model = scriptedModel([
      turn(toolCall('ToolSearch', { query: 'weather in a city' })),
      turn(toolCall('get_weather', { city: 'Lima' })),
      'It is sunny.',
    ]);
    const agent = createAgent({ model, tools: [echoTool, weather, deleteAll] });
    const { events, result } = await collect(agent.run('weather in Lima?'));
    expect(result.status).toBe('completed');
    expect(names(model.requests[0]!.request.tools)).toEqual(['echo', 'TodoWrite', 'ExitPlanMode', 'ToolSearch']);
    const found = events.find((event) => event.type === 'tool-result')!;
    expect(found.content).toMatch(/^Found 1 tool\. Call them by name/);
    expect(found.content).toContain('<tool name="get_weather">');
    expect(found.content).toContain('"city":{"type":"string","description":"City name"}');
    expect(calls).toEqual(['Lima']);
    // The prefix stays byte-identical from turn to turn.
    const prefixes = new Set(model.requests.map((request) => JSON.stringify([request.request.system, request.request.tools])));
    expect(prefixes.size).toBe(1);
  });

  it('for a model that expands tool_reference blocks: sends deferred tools with defer_loading, last, and ToolSearch answers with references', async () => {
    const model = scriptedModel([turn(toolCall('ToolSearch', { query: 'select:get_weather,nope' })), 'Found it.'], { capabilities: { toolSearch: 'tool-reference' } });
    const agent = createAgent({ model, tools: [weather, echoTool, deleteAll] });
    const { events } = await collect(agent.run('find weather'));
    expect(names(model.requests[0]!.request.tools)).toEqual(['echo', 'TodoWrite', 'ExitPlanMode', 'ToolSearch', 'get_weather (deferred)', 'delete_everything (deferred)']);
    expect(events.find((event) => event.type === 'tool-result')!.content).toEqual([
      { type: 'tool_reference', tool_name: 'get_weather' },
      { type: 'text', text: 'No deferred tool is named "nope".' },
    ]);
  });

  it('for a model with server-side tool search: the BM25 search tool by default, the regex one on request, no ToolSearch', async () => {
    const bm25 = scriptedModel(['Hi.'], { capabilities: { toolSearch: 'server' } });
    await createAgent({ model: bm25, tools: [weather, echoTool] }).run('hi').result;
    expect(names(bm25.requests[0]!.request.tools)).toEqual(['echo', 'TodoWrite', 'ExitPlanMode', 'server:tool_search_tool_bm25_20251119', 'get_weather (deferred)']);
    const regex = scriptedModel(['Hi.'], { capabilities: { toolSearch: 'server' } });
    await createAgent({ model: regex, tools: [weather, echoTool], toolSearch: 'regex' }).run('hi').result;
    expect((regex.requests[0]!.request.tools as Array<{ type?: string; name: string }>).find((tool) => tool.type)).toEqual({ type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' });
  });

  it('refuses a server-side search the model does not run, and a host tool named like the client search', () => {
    expect(() => createAgent({ model: scriptedModel([]), tools: [weather], toolSearch: 'bm25' })).toThrow(/does not run \(its capabilities.toolSearch is 'none'\)/);
    const impostor = defineTool({ name: 'ToolSearch', description: 'Mine.', inputSchema: z.object({}), execute: () => '' });
    expect(() => createAgent({ model: scriptedModel([]), tools: [weather, impostor] })).toThrow(ConfigurationError);
    expect(() => createAgent({ model: scriptedModel([]), tools: [weather], toolSearch: 'fuzzy' as never })).toThrow(/`toolSearch` must be/);
  });

  it('keeps deferred tools under the same permissions: a found tool that writes is asked, and refused in plan mode', async () => {
    const model = scriptedModel([turn(toolCall('delete_everything', {})), 'Stopped.']);
    const agent = createAgent({ model, tools: [deleteAll], permissionMode: 'plan' });
    const { events } = await collect(agent.run('delete'));
    expect(events.find((event) => event.type === 'tool-result')).toMatchObject({ isError: true, content: expect.stringMatching(/plan/i) });
  });

  it('sets no tool search up when nothing is deferred, unless toolSearch is given', async () => {
    const plain = scriptedModel(['Hi.']);
    await createAgent({ model: plain, tools: [echoTool] }).run('hi').result;
    expect(names(plain.requests[0]!.request.tools)).toEqual(['echo', 'TodoWrite', 'ExitPlanMode']);
    const asked = scriptedModel(['Hi.']);
    await createAgent({ model: asked, tools: [echoTool], toolSearch: 'client' }).run('hi').result;
    expect(names(asked.requests[0]!.request.tools)).toEqual(['echo', 'TodoWrite', 'ExitPlanMode', 'ToolSearch']);
  });
});

describe('provider server tools in the tool list', () => {
  it('passes them through unchanged, after the function tools, and the loop never tries to run them', async () => {
    const model = scriptedModel([
      turn({ type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'tides' } }, { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] }, 'Nothing found.'),
    ]);
    const search = serverTool({ type: 'web_search_20250305', name: 'web_search', max_uses: 2 });
    const agent = createAgent({ model, tools: [search, echoTool] });
    const { result, events } = await collect(agent.run('tides?'));
    expect(result.status).toBe('completed');
    expect(model.requests[0]!.request.tools.at(-1)).toEqual({ type: 'web_search_20250305', name: 'web_search', max_uses: 2 });
    expect(events.some((event) => event.type === 'tool-call')).toBe(false);
    expect(agent.messages.at(-1)!.content).toHaveLength(3);
  });

  it('refuses a server tool without a type, and one named like a function tool', () => {
    expect(() => serverTool({ type: '', name: 'x' })).toThrow(ConfigurationError);
    expect(() => createAgent({ model: scriptedModel([]), tools: [echoTool, serverTool({ type: 'web_search_20250305', name: 'echo' })] })).toThrow(/Two tools are named "echo"/);
  });

  it('a tool of the host named like a built-in it cannot leave out is refused with the fix for that built-in, not an option that does not exist', () => {
    const named = (name: string) => defineTool({ name, description: 'Mine.', inputSchema: z.object({}), readOnly: true, execute: () => 'mine' });
    const refusal = (options: Record<string, unknown>) => {
      try {
        createAgent({ model: scriptedModel([]), ...options } as never);
      } catch (error) {
        return (error as Error).message;
      }
      return 'no error';
    };
    const toolSearch = refusal({ tools: [named('ToolSearch'), deferTool(named('later'))] });
    expect(toolSearch).toMatch(/^Two tools are named "ToolSearch": yours, and the built-in one that finds deferred tools/);
    expect(toolSearch).toMatch(/rename yours/);
    expect(toolSearch).not.toMatch(/todoWrite, exitPlanMode/);
    const skill = refusal({ tools: [named('Skill')], skills: [defineSkill({ name: 'house-style', description: 'Style.', instructions: 'Short.' })] });
    expect(skill).toMatch(/^Two tools are named "Skill": yours, and the built-in one that loads `skills`; rename yours/);
    expect(refusal({ tools: [named('TodoWrite')] })).toMatch(/^Two tools are named "TodoWrite": yours, and the built-in one; rename yours, or leave the built-in out with `todoWrite: false`/);
    expect(refusal({ tools: [named('ExitPlanMode')] })).toMatch(/leave the built-in out with `exitPlanMode: false`/);
    expect(refusal({ tools: [named('dup'), named('dup')] })).toMatch(/^Two tools are named "dup"\. Tool names must be unique; rename one\.$/);
  });

  it('types the request tool list as a union hosts can tell apart', () => {
    const list: RequestTool[] = [{ name: 'a', description: 'b', input_schema: { type: 'object' } }, { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' }];
    expect(list.map((tool) => isServerToolDefinition(tool))).toEqual([false, true]);
    expect(isServerToolDefinition({ type: 'custom', name: 'x', description: '', input_schema: {} } as ToolDefinition)).toBe(false);
    // A function tool that implements a provider type (the memory tool) is still a function tool.
    expect(isServerToolDefinition({ type: 'memory_20250818', name: 'memory', description: '', input_schema: { type: 'object' } })).toBe(false);
  });
});
