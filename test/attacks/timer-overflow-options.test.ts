// A host that means "practically never" passes a long timeout. Node's timers fire at once past
// 2^31-1 ms (about 24.8 days): a timeout that long must be refused, naming the most, never taken
// to cut every call short at once.
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigurationError, createAgent, type Agent } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { createNotesServer } from '../mcp/fixtures/notes-server.js';
import { collect } from '../helpers.js';

const agents: Agent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
});

const THIRTY_DAYS = 30 * 24 * 60 * 60 * 1000;

describe('MCP timeouts past what a timer can wait', () => {
  it.each(['toolTimeoutMs', 'maxTotalTimeoutMs', 'connectTimeoutMs'])('%s of 30 days is refused with a ConfigurationError naming the most', (field) => {
    let caught: unknown;
    try {
      createAgent({ model: scriptedModel(['x']), mcpServers: { notes: { type: 'sdk', server: () => createNotesServer(), [field]: THIRTY_DAYS } } });
    } catch (error) {
      caught = error;
    }
    expect(ConfigurationError.isInstance(caught), String(caught)).toBe(true);
    expect((caught as Error).message).toMatch(new RegExp(`mcpServers\\.notes\\.${field} must be .*2147483647`));
  });

  it('the most a timer can wait is accepted, and a call then runs to its answer', async () => {
    const model = scriptedModel([turn(toolCall('mcp__notes__list_notes', {})), 'Listed.']);
    const agent = createAgent({ model, rules: { allow: ['mcp__notes'] }, mcpServers: { notes: { type: 'sdk', server: () => createNotesServer(), toolTimeoutMs: 2_147_483_647, maxTotalTimeoutMs: 2_147_483_647 } } });
    agents.push(agent);
    const { events } = await collect(agent.run('list'));
    const result = events.find((event) => event.type === 'tool-result')!;
    expect(result.isError).toBe(false);
    expect(result.content).toBe('(no notes)');
  });
});

describe('stdioMcpServer() timeouts past what a timer can wait', () => {
  it('refuses them when the config is made, naming the option and the maximum (a plain positive number passed before)', async () => {
    const { stdioMcpServer } = await import('agent-harness/node');
    for (const field of ['toolTimeoutMs', 'maxTotalTimeoutMs', 'connectTimeoutMs'] as const) {
      expect(() => stdioMcpServer({ command: 'node', [field]: 30 * 24 * 60 * 60 * 1000 })).toThrow(ConfigurationError);
      expect(() => stdioMcpServer({ command: 'node', [field]: 2 ** 31 })).toThrow(new RegExp(`${field}.*at most 2147483647`));
      expect(stdioMcpServer({ command: 'node', [field]: 2 ** 31 - 1 })[field]).toBe(2 ** 31 - 1);
    }
  });
});
