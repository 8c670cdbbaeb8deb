// A call to an MCP tool allowed while an earlier call of the same answer still waited for the host
// cannot have started when the process stopped. Resumed where the server's tools changed (names
// that collide once normalised given out differently), the name means another tool: the call must
// not run on it, nor be decided again for it — it is refused, the model told to call again.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memorySessionStore, type Agent, type AgentOptions } from 'agent-harness';
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

/** A tool that writes, so it waits for the host (no canUseTool). */
const note = defineTool({ name: 'note', description: 'Notes.', inputSchema: z.object({ text: z.string() }), execute: ({ input }) => `noted ${input.text}` });

/** Agent options with the server listing `tools`; the MCP tool's name is allowed by a rule. */
function options(tools: readonly string[], calls: string[]): Pick<AgentOptions, 'mcpServers' | 'tools' | 'rules'> {
  return { mcpServers: { db: { type: 'sdk', server: () => dbServer(tools, calls) } }, tools: [note], rules: { allow: ['mcp__db__archive_table'] } };
}

/** Process one: the server lists only "archive.table" (the plain name); `note` waits, the MCP call is allowed behind it. */
async function parkedWithAllowedCall(calls: string[], store?: ReturnType<typeof memorySessionStore>) {
  const first = createAgent({
    ...(store ? { store } : {}),
    ...options(['archive.table'], calls),
    model: scriptedModel([turn(toolCall('note', { text: 'first' }, 'call_note'), toolCall('mcp__db__archive_table', { table: 'users' }, 'call_mcp'))]),
  });
  agents.push(first);
  const parked = await first.run('Note, then archive users.').result;
  expect(parked.status).toBe('awaiting-approval');
  expect(parked.pendingApprovals.map((approval) => approval.toolName)).toEqual(['note']);
  expect(calls).toEqual([]);
  return { first, approval: parked.pendingApprovals[0]! };
}

const REFUSED = /not run.*\\"archive\.table\\" of the MCP server \\"db\\".*now names its tool \\"archive_table\\"/;

describe('an allowed MCP call not started before a crash, resumed where its name means another tool', () => {
  it('resumed from the store (the answer kept): refused when it would run, not run on the other tool', async () => {
    const store = memorySessionStore();
    const calls: string[] = [];
    const { first, approval } = await parkedWithAllowedCall(calls, store);
    // The crash: the process is gone; the store holds the allowed call, not started.
    await first.close();
    // Process two: the server also lists "archive_table", which takes the plain name.
    const model = scriptedModel(['Understood.']);
    const second = createAgent({ store, ...options(['archive.table', 'archive_table'], calls), model, resume: first.sessionId });
    agents.push(second);
    await second.ready;
    const result = await second.resolveApproval(approval.id, { behavior: 'allow' }).result;
    expect(result.status).toBe('completed');
    expect(calls).toEqual([]);
    expect(JSON.stringify(model.requests[0]!.request.messages)).toMatch(REFUSED);
  });

  it('resumed from an unsigned snapshot (the call decided again): refused before it is decided for the other tool', async () => {
    const calls: string[] = [];
    const { first, approval } = await parkedWithAllowedCall(calls);
    const snapshot = first.snapshot();
    const model = scriptedModel(['Understood.']);
    const second = createAgent({ ...options(['archive.table', 'archive_table'], calls), model, resume: snapshot });
    agents.push(second);
    await second.ready;
    await second.resolveApproval(approval.id, { behavior: 'allow' }).result;
    expect(calls).toEqual([]);
    expect(JSON.stringify(model.requests[0]!.request.messages)).toMatch(REFUSED);
  });

  it('where the name still means the same tool, the allowed call runs once after the answer', async () => {
    const store = memorySessionStore();
    const calls: string[] = [];
    const { first, approval } = await parkedWithAllowedCall(calls, store);
    await first.close();
    const second = createAgent({ store, ...options(['archive.table', 'restore'], calls), model: scriptedModel(['Done.']), resume: first.sessionId });
    agents.push(second);
    await second.ready;
    expect((await second.resolveApproval(approval.id, { behavior: 'allow' }).result).status).toBe('completed');
    expect(calls).toEqual(['archive.table(users)']);
  });
});
