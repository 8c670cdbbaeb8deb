import { afterEach, describe, expect, it } from 'vitest';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createAgent, type Agent, type ToolDefinition } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

// A tool's input schema goes into every request's prefix: a server that lists one of unbounded
// size or nesting would crowd out the conversation (or exhaust the stack compiling it). Such a
// tool is skipped, with a reason naming it, and the server's other tools are offered.

/** An object schema nested `levels` objects deep (two JSON levels each: `properties`, then the property). */
function nested(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let level = 0; level < levels; level++) schema = { type: 'object', properties: { inner: schema } };
  return schema;
}

/** An object schema with `count` properties, each with a long description. */
function wide(count: number): Record<string, unknown> {
  const properties = Object.fromEntries(Array.from({ length: count }, (_, index) => [`field_${index}`, { type: 'string', description: 'x'.repeat(200) }]));
  return { type: 'object', properties };
}

const TOOLS = [
  { name: 'fine', description: 'A tool with a small schema.', inputSchema: { type: 'object', properties: { text: { type: 'string' } } }, annotations: { readOnlyHint: true } },
  { name: 'deep', description: 'A schema 100 objects deep.', inputSchema: nested(100) },
  { name: 'huge', description: 'A schema of 1000 long properties.', inputSchema: wide(1000) },
  { name: 'deep_but_fine', description: 'A schema 10 objects deep.', inputSchema: nested(10) },
  { name: 'either', description: 'One of two fields, said with a top-level oneOf.', inputSchema: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, oneOf: [{ required: ['a'] }, { required: ['b'] }] } },
];

function hostileServer(): Server {
  const server = new Server({ name: 'big', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => ({ content: [{ type: 'text', text: `called ${request.params.name}` }] }));
  return server;
}

describe('input schemas from an MCP server', () => {
  const agents: Agent[] = [];
  afterEach(async () => {
    await Promise.all(agents.splice(0).map((agent) => agent.close()));
  });

  it('too large or too deeply nested: the tool is skipped with a reason naming it, the others are offered and work', async () => {
    const model = scriptedModel([turn(toolCall('mcp__big__fine', { text: 'hi' }, 'call_1')), 'Done.']);
    const agent = createAgent({ model, mcpServers: { big: { type: 'sdk', server: hostileServer } } });
    agents.push(agent);
    const result = await agent.run('go').result;
    expect(result.status).toBe('completed');
    expect(model.requests[1]!.messages.at(-1)!.content).toEqual([expect.objectContaining({ type: 'tool_result', content: 'called fine' })]);

    const [state] = agent.mcpServers;
    expect(state!.tools).toEqual(['mcp__big__fine', 'mcp__big__deep_but_fine']);
    expect(state!.skippedTools).toEqual([
      { name: 'deep', reason: expect.stringMatching(/^The MCP server "big" lists the tool "deep" with an input schema nested deeper than 32 levels/) },
      { name: 'huge', reason: expect.stringMatching(/^The MCP server "big" lists the tool "huge" with an input schema longer than 64000 characters/) },
      // The Messages API refuses every request whose tool has oneOf, anyOf or allOf at the top of its input schema.
      { name: 'either', reason: expect.stringMatching(/^The MCP server "big" lists the tool "either" with an input schema that has oneOf at the top level, which the Messages API refuses/) },
    ]);
    const sent = (model.requests[0]!.request.tools as ToolDefinition[]).map((tool) => tool.name);
    expect(sent).toContain('mcp__big__fine');
    expect(sent).not.toContain('mcp__big__deep');
    expect(sent).not.toContain('mcp__big__huge');
    expect(sent).not.toContain('mcp__big__either');
  });
});
