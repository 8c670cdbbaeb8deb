// A process killed with SIGKILL while its host was being asked about an MCP tool call; another
// process resumes the session from the file store. The call is decided again only where "db"
// still reaches the server the model called; where the configuration now points "db" at another
// server, nothing runs there.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, type Agent } from 'agent-harness';
import { fileSessionStore } from 'agent-harness/node';
import { scriptedModel } from 'agent-harness/testing';
import { tempDirs } from '../temp-dirs.js';

const tempDir = tempDirs();

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const child = join(root, 'test/mcp/fixtures/mcp-approval-kill.child.mjs');
const SESSION = 'mcp-kill-session';

const agents: Agent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
});

/** Runs the child until it kills itself; resolves with its signal and output. */
function killedWhileAsking(dir: string, serverInfoName: string): Promise<{ signal: string | null; stdout: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [child], { cwd: root, env: { ...process.env, DIR: dir, SESSION, SERVER_INFO_NAME: serverInfoName } }, (error, stdout) => {
      done({ signal: (error as (Error & { signal?: string }) | null)?.signal ?? null, stdout });
    });
  });
}

function dbServer(serverInfoName: string, calls: string[]): McpServer {
  const server = new McpServer({ name: serverInfoName, version: '1.0.0' });
  server.registerTool('archive', { description: 'Moves a table to cold storage.', inputSchema: { table: z.string() } }, async ({ table }) => {
    calls.push(`${serverInfoName}:archive(${table})`);
    return { content: [{ type: 'text', text: 'archived' }] };
  });
  return server;
}

describe.skipIf(!existsSync(join(root, 'dist/index.js')))('an MCP call whose process was killed while the host was asked', () => {
  it.each([
    ['the same server', 'db-primary', ['db-primary:archive(users)'], ['mcp__db__archive']],
    ['another server behind the name', 'db-replica', [], []],
  ])('resumed with %s', { timeout: 30_000 }, async (_, resumedServer, ran, asked) => {
    const dir = tempDir('agent-harness-mcp-kill-');
    const killed = await killedWhileAsking(dir, 'db-primary');
    expect(killed.signal).toBe('SIGKILL');
    expect(killed.stdout).toBe('asked\n');

    const calls: string[] = [];
    const questions: string[] = [];
    const model = scriptedModel(['Understood.']);
    const resumed = createAgent({
      store: fileSessionStore({ dir: join(dir, 'sessions') }),
      resume: SESSION,
      mcpServers: { db: { type: 'sdk', server: () => dbServer(resumedServer, calls) } },
      model,
      canUseTool: (toolName) => (questions.push(toolName), { behavior: 'allow' }),
    });
    agents.push(resumed);
    await resumed.ready;
    expect((await resumed.continue().result).status).toBe('completed');
    expect(calls).toEqual(ran);
    expect(questions).toEqual(asked);
    if (ran.length === 0) expect(JSON.stringify(model.requests[0]!.request.messages)).toMatch(/not run: the MCP server \\"db\\" is not the server it was.*\\"db-primary\\" then, \\"db-replica\\" now/);
  });
});
