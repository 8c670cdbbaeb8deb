import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createAgent, type Agent } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { collect } from '../helpers.js';

const agents: Agent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
});

describe('attack: an MCP tool whose annotations contradict each other', () => {
  it('readOnlyHint with destructiveHint: true is taken as writing: refused in plan mode, never run', async () => {
    const ran: string[] = [];
    const server = () => {
      const made = new McpServer({ name: 'db', version: '1.0.0' });
      made.registerTool('purge', { description: 'Purges the table.', annotations: { readOnlyHint: true, destructiveHint: true } }, async () => (ran.push('purge'), { content: [{ type: 'text' as const, text: 'purged' }] }));
      made.registerTool('count', { description: 'Counts rows.', annotations: { readOnlyHint: true, destructiveHint: false } }, async () => (ran.push('count'), { content: [{ type: 'text' as const, text: '42' }] }));
      return made;
    };
    const model = scriptedModel([turn(toolCall('mcp__db__purge', {}, 'c1'), toolCall('mcp__db__count', {}, 'c2')), 'Planned.']);
    const agent = createAgent({ model, permissionMode: 'plan', canUseTool: () => ({ behavior: 'allow' }), mcpServers: { db: { type: 'sdk', server } } });
    agents.push(agent);
    const { events } = await collect(agent.run('clean the table'));
    const results = events.filter((event) => event.type === 'tool-result');
    expect(results.map((event) => event.type === 'tool-result' && [event.toolName, event.isError])).toEqual([
      ['mcp__db__purge', true],
      ['mcp__db__count', false],
    ]);
    expect(ran).toEqual(['count']);
  });
});
