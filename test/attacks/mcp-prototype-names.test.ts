// Server and tool names that are also names of Object.prototype's members (`constructor`,
// `toString`, `hasOwnProperty`): a server configured under one works like any other, and a model
// calling `mcp__<such a name>__x` when no such server is configured gets an error result, never a
// crash or a lookup that finds the prototype's member.
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, type Agent } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { createNotesServer } from '../mcp/fixtures/notes-server.js';
import { collect } from '../helpers.js';

const agents: Agent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
});

describe('MCP names shared with Object.prototype', () => {
  it('a server named "constructor" connects, and its tools run', async () => {
    const model = scriptedModel([turn(toolCall('mcp__constructor__list_notes', {})), 'Listed.']);
    const agent = createAgent({ model, rules: { allow: ['mcp__constructor'] }, mcpServers: { constructor: { type: 'sdk' as const, server: () => createNotesServer() } } });
    agents.push(agent);
    const { events, result } = await collect(agent.run('list'));
    expect(result.status).toBe('completed');
    const results = events.filter((event) => event.type === 'tool-result');
    expect(results.map((event) => [event.isError, event.content])).toEqual([[false, '(no notes)']]);
  });

  it.each(['mcp__toString__x', 'mcp__constructor__x', 'mcp__hasOwnProperty__valueOf', 'mcp__notes__constructor', 'mcp__notes__toString', 'mcp____proto____x'])(
    'a call to %s with no such tool is an error result and the run goes on',
    async (name) => {
      const model = scriptedModel([turn(toolCall(name, {})), 'Went on.']);
      const agent = createAgent({ model, canUseTool: async () => ({ behavior: 'allow' }), mcpServers: { notes: { type: 'sdk', server: () => createNotesServer() } } });
      agents.push(agent);
      const { events, result } = await collect(agent.run('go'));
      expect(result.status).toBe('completed');
      const results = events.filter((event) => event.type === 'tool-result');
      expect(results).toHaveLength(1);
      expect(results[0]!.isError).toBe(true);
    },
  );
});
