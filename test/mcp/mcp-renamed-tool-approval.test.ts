// Tools whose names collide once normalised (`drop.table` and `drop_table` are both
// `mcp__db__drop_table` to the model) are told apart per listing: a server that lists only one of
// them gives it the plain name, one that lists both gives the plain name to `drop_table`. A call
// parked for approval in one process and answered in another (two agents over one store) where the
// server's tools changed must never run the other tool under the name the host approved.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, memorySessionStore, type Agent } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

const agents: Agent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
});

/** A server with the given tools; each call is recorded by its server-side name. */
function dbServer(tools: readonly string[], calls: string[]): McpServer {
  const server = new McpServer({ name: 'db', version: '1.0.0' });
  for (const name of tools) {
    server.registerTool(name, { description: `The tool ${name}.`, inputSchema: { table: z.string() } }, async ({ table }) => {
      calls.push(`${name}(${table})`);
      return { content: [{ type: 'text', text: `${name} done` }] };
    });
  }
  return server;
}

describe('a pending MCP call answered where its name means another tool of the server', () => {
  it('is refused, not run on the other tool; the model is told to call again', async () => {
    const store = memorySessionStore();
    const calls: string[] = [];
    // Process one: the server lists only "archive.table", which gets the plain name.
    const first = createAgent({ store, mcpServers: { db: { type: 'sdk', server: () => dbServer(['archive.table'], calls) } }, model: scriptedModel([turn(toolCall('mcp__db__archive_table', { table: 'users' }, 'call_1'))]) });
    agents.push(first);
    const parked = await first.run('Archive users.').result;
    expect(parked.status).toBe('awaiting-approval');
    const approval = parked.pendingApprovals[0]!;
    expect(approval.mcpTool).toMatchObject({ server: 'db', tool: 'archive.table' });
    await first.close();

    // Process two: the server now also lists "archive_table", which takes the plain name.
    const model = scriptedModel(['Understood.']);
    const second = createAgent({ store, mcpServers: { db: { type: 'sdk', server: () => dbServer(['archive.table', 'archive_table'], calls) } }, model, resume: first.sessionId });
    agents.push(second);
    await second.ready;
    expect(second.pendingApprovals.map((pending) => pending.mcpTool)).toMatchObject([{ server: 'db', tool: 'archive.table' }]);
    const result = await second.resolveApproval(approval.id, { behavior: 'allow' }).result;
    expect(calls).toEqual([]);
    expect(result.status).toBe('completed');
    const answer = JSON.stringify(model.requests[0]!.request.messages); 
    expect(answer).toMatch(/not run.*\\"archive\.table\\" of the MCP server \\"db\\".*now names its tool \\"archive_table\\"/);
  });

  it('where the name still means the same tool, the approved call runs once', async () => {
    const store = memorySessionStore();
    const calls: string[] = [];
    const first = createAgent({ store, mcpServers: { db: { type: 'sdk', server: () => dbServer(['archive.table'], calls) } }, model: scriptedModel([turn(toolCall('mcp__db__archive_table', { table: 'users' }, 'call_1'))]) });
    agents.push(first);
    const approval = (await first.run('Archive users.').result).pendingApprovals[0]!;
    await first.close();
    // Another tool arrived, but none that collides: the name keeps its tool.
    const second = createAgent({ store, mcpServers: { db: { type: 'sdk', server: () => dbServer(['archive.table', 'restore'], calls) } }, model: scriptedModel(['Done.']), resume: first.sessionId });
    agents.push(second);
    await second.ready;
    expect((await second.resolveApproval(approval.id, { behavior: 'allow' }).result).status).toBe('completed');
    expect(calls).toEqual(['archive.table(users)']);
  });

  it('resumed from a snapshot (no store), the approval keeps its tool and is checked the same way', async () => {
    const calls: string[] = [];
    const first = createAgent({ mcpServers: { db: { type: 'sdk', server: () => dbServer(['archive.table'], calls) } }, model: scriptedModel([turn(toolCall('mcp__db__archive_table', { table: 'users' }, 'call_1'))]) });
    agents.push(first);
    const approval = (await first.run('Archive users.').result).pendingApprovals[0]!;
    const snapshot = first.snapshot();
    const second = createAgent({ mcpServers: { db: { type: 'sdk', server: () => dbServer(['archive.table', 'archive_table'], calls) } }, model: scriptedModel(['Understood.']), resume: snapshot });
    agents.push(second);
    await second.ready;
    expect(second.pendingApprovals[0]!.mcpTool).toMatchObject({ server: 'db', tool: 'archive.table' });
    await second.resolveApproval(approval.id, { behavior: 'allow' }).result;
    expect(calls).toEqual([]);
  });
});
