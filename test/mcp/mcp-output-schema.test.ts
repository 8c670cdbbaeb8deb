import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { createAgent, type Agent } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { collect } from '../helpers.js';

// The MCP SDK's client checks a tool's structured result against the output schema it listed
// (with Ajv). The adapter makes that validator only when a listed tool has an output schema.

const agents: Agent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
});

/** A server whose `count` tool declares `{ total: number }` and answers with `answer`. */
function countingServer(answer: unknown): Server {
  const server = new Server({ name: 'stats', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      {
        name: 'count',
        description: 'Counts.',
        inputSchema: { type: 'object' },
        outputSchema: { type: 'object', properties: { total: { type: 'number' } }, required: ['total'] },
        annotations: { readOnlyHint: true },
      },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [{ type: 'text', text: JSON.stringify(answer) }], structuredContent: answer }));
  return server;
}

async function callCount(server: () => Server | McpServer) {
  const model = scriptedModel([turn(toolCall('mcp__stats__count', {}, 'c1')), 'Done.']);
  const agent = createAgent({ model, mcpServers: { stats: { type: 'sdk', server } } });
  agents.push(agent);
  const { events } = await collect(agent.run('count'));
  return events.find((event) => event.type === 'tool-result')!;
}

describe('MCP tools with an output schema', () => {
  it('passes a structured result that matches it', async () => {
    const result = await callCount(() => countingServer({ total: 3 }));
    expect(result.isError).toBe(false);
    expect(result.content).toBe('{"total":3}');
  });

  it('turns a structured result that breaks it into an error result naming the mismatch', async () => {
    const result = await callCount(() => countingServer({ total: 'three' }));
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/does not match the tool's output schema/i);
  });

  it('an McpServer tool whose result breaks its own zod output schema ends as an error result too (its server refuses it)', async () => {
    const make = () => {
      const server = new McpServer({ name: 'stats', version: '1.0.0' });
      server.registerTool('count', { description: 'Counts.', outputSchema: { total: z.number() }, annotations: { readOnlyHint: true } }, async () => ({
        content: [{ type: 'text', text: 'bad' }],
        structuredContent: { total: 'three' } as never,
      }));
      return server;
    };
    const result = await callCount(make);
    expect(result.isError).toBe(true);
  });
});
