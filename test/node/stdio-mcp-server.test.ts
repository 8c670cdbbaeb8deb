import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { isGone } from '../process-helpers.js';
import { ConfigurationError, createAgent, sharedMcpServer, type Agent, type AgentOptions, type McpServerStatusEvent } from 'agent-harness';
import { MAX_STDIO_MCP_LINE_BYTES, stdioMcpServer, type StdioMcpServerOptions } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { collect, deferred } from '../helpers.js';

const script = fileURLToPath(new URL('../mcp/fixtures/stdio-notes-server.ts', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'agent-harness-stdio-mcp-'));
const agents: Agent[] = [];

afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Waits (a bounded number of short polls) for a process to end. */
async function waitGone(pid: number): Promise<boolean> {
  for (let attempt = 0; attempt < 500 && !isGone(pid); attempt++) await new Promise((resolve) => setTimeout(resolve, 10));
  return isGone(pid);
}

function notesServer(options: Partial<StdioMcpServerOptions> = {}) {
  return stdioMcpServer({ command: process.execPath, args: ['--import', 'tsx', script], stderr: 'pipe', ...options });
}

function agentWith(options: Partial<AgentOptions> & Pick<AgentOptions, 'model'>, server: NonNullable<AgentOptions['mcpServers']>[string] = notesServer()) {
  const agent = createAgent({ mcpServers: { notes: server }, rules: { allow: ['mcp__notes'] }, ...options });
  agents.push(agent);
  return agent;
}

/** Resolves on the first status event that matches. */
function nextStatus(agent: Agent, matches: (event: McpServerStatusEvent) => boolean): Promise<McpServerStatusEvent> {
  const found = deferred<McpServerStatusEvent>();
  const listener = (event: McpServerStatusEvent) => {
    if (!matches(event)) return;
    agent.off('mcp-server-status', listener);
    found.resolve(event);
  };
  agent.on('mcp-server-status', listener);
  return found.promise;
}

const pidOf = async (agent: Agent, model: ReturnType<typeof scriptedModel>) => {
  model.push(turn(toolCall('mcp__notes__pid', {})), 'Got it.');
  const { events } = await collect(agent.run('pid?'));
  return Number(events.find((event) => event.type === 'tool-result')!.content);
};

describe('stdioMcpServer', () => {
  it('starts the server as a child process, calls its tools, and ends the process with agent.close()', async () => {
    const model = scriptedModel([turn(toolCall('mcp__notes__append_note', { text: 'milk' })), turn(toolCall('mcp__notes__list_notes', {})), 'Listed.']);
    const agent = agentWith({ model });
    const { events, result } = await collect(agent.run('note milk'));
    expect(result.status).toBe('completed');
    expect(events.filter((event) => event.type === 'tool-result').map((event) => event.content)).toEqual(['Saved note 1.', 'milk']);
    expect(agent.mcpServers[0]).toMatchObject({ name: 'notes', transport: 'stdio', status: 'connected', serverInfo: { name: 'notes', version: '1.2.3' } });
    const pid = await pidOf(agent, model);
    await agent.close();
    expect(await waitGone(pid)).toBe(true);
  });

  it("ends the server process of an agent dropped without close() once the agent is collected (the open pipes do not keep the agent alive)", async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const pid = await (async () => {
      const model = scriptedModel([]);
      // Not in `agents`: nothing but the server's connection could still reach it.
      const agent = createAgent({ model, mcpServers: { notes: notesServer() }, rules: { allow: ['mcp__notes'] } });
      return pidOf(agent, model);
    })();
    expect(isGone(pid)).toBe(false);
    for (let round = 0; round < 100 && !isGone(pid); round++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(isGone(pid)).toBe(true);
  });

  it('answers a call whose server crashes mid-call with an error result, goes on, and restarts the server', async () => {
    const model = scriptedModel([]);
    const agent = agentWith({ model });
    const before = await pidOf(agent, model);
    const back = nextStatus(agent, (event) => event.status === 'connected');
    const lost = nextStatus(agent, (event) => event.status === 'reconnecting');
    model.push(turn(toolCall('mcp__notes__crash', {})), 'The server crashed; moving on.');
    const { events, result } = await collect(agent.run('crash it'));
    expect(result.status).toBe('completed');
    const crashed = events.find((event) => event.type === 'tool-result')!;
    expect(crashed.isError).toBe(true);
    expect(crashed.content).toMatch(/closed the connection during the call to "crash".*may or may not have taken effect/);
    expect((await lost).error).toMatch(/lost/);
    await back;
    const after = await pidOf(agent, model);
    expect(after).not.toBe(before);
    expect(isGone(before)).toBe(true);
  });

  it('shared (sharedMcpServer): one process for every agent, restarted once for all after a crash, ended only by the shared server’s close()', async () => {
    const shared = sharedMcpServer({ name: 'notes', server: notesServer() });
    try {
      const models = [scriptedModel([]), scriptedModel([])];
      const [first, second] = models.map((model) => agentWith({ model }, shared));
      const before = await pidOf(first!, models[0]!);
      expect(await pidOf(second!, models[1]!)).toBe(before);
      const back = [first!, second!].map((agent) => nextStatus(agent, (event) => event.status === 'connected'));
      models[0]!.push(turn(toolCall('mcp__notes__crash', {})), 'Crashed.');
      await first!.run('crash it').result;
      await Promise.all(back);
      const after = await pidOf(second!, models[1]!);
      expect(after).not.toBe(before);
      expect(await pidOf(first!, models[0]!)).toBe(after);
      await Promise.all([first!.close(), second!.close()]);
      expect(isGone(after)).toBe(false);
      await shared.close();
      expect(await waitGone(after)).toBe(true);
    } finally {
      await shared.close();
    }
  });

  it('interrupts a call the server never answers, and the server stays usable', async () => {
    const model = scriptedModel([turn(toolCall('mcp__notes__hang', {}))]);
    const agent = agentWith({ model });
    const called = deferred();
    agent.on('tool-call', () => called.resolve());
    const run = agent.run('wait');
    await called.promise;
    agent.interrupt();
    const result = await run.result;
    expect(result.status).toBe('interrupted');
    model.push(turn(toolCall('mcp__notes__list_notes', {})), 'Still here.');
    const next = await collect(agent.run('list'));
    expect(next.result.status).toBe('completed');
    expect(next.events.find((event) => event.type === 'tool-result')!.content).toBe('(no notes)');
    expect(agent.mcpServers[0]!.status).toBe('connected');
  });

  it('turns a malformed result into a clear error result, and the run and the connection go on', async () => {
    const model = scriptedModel([turn(toolCall('mcp__notes__malformed', {})), turn(toolCall('mcp__notes__list_notes', {})), 'Recovered.']);
    const agent = agentWith({ model });
    const { events, result } = await collect(agent.run('try'));
    expect(result.status).toBe('completed');
    const [malformed, list] = events.filter((event) => event.type === 'tool-result');
    expect(malformed!.isError).toBe(true);
    expect(malformed!.content).toMatch(/The MCP server "notes" answered the call to "malformed" with a malformed result \(content: .*\), so it was discarded/);
    expect(list).toMatchObject({ isError: false, content: '(no notes)' });
  });

  it('ends the connection to a server that writes a line that never ends, naming the 10 MB line limit, and starts the server again', async () => {
    // Bounded by the SDK's read buffer: without the bound this run would never end and the
    // host's memory would grow with the line.
    const model = scriptedModel([turn(toolCall('mcp__notes__endless', {})), 'Stopped.']);
    const agent = agentWith({ model });
    const { events, result } = await collect(agent.run('go'));
    expect(result.status).toBe('completed');
    const limit = /The server wrote a line \(one MCP message\) of more than 10 MB on stdout, the most stdioMcpServer reads, so the connection was closed\./;
    expect(events.find((event) => event.type === 'tool-result')).toMatchObject({ isError: true, content: expect.stringMatching(limit) });
    expect(String(events.find((event) => event.type === 'tool-result')!.content)).toMatch(/The connection to the MCP server "notes" was closed during the call to "endless": /);
    const lost = events.find((event) => event.type === 'mcp-server-status' && event.status === 'reconnecting') as McpServerStatusEvent;
    expect(lost.error).toMatch(limit);
    expect(MAX_STDIO_MCP_LINE_BYTES).toBe(10 * 1024 * 1024);
    expect(await pidOf(agent, model)).toBeGreaterThan(0);
    expect(agent.mcpServers[0]!.status).toBe('connected');
  });

  it('reports a server that cannot start as failed, with its stderr to the host, and the agent still runs', async () => {
    const stderr: string[] = [];
    const agent = agentWith({ model: scriptedModel(['Working without notes.']) }, notesServer({ env: { NOTES_FAIL_START: '1' }, onStderr: (text) => stderr.push(text) }));
    const result = await agent.run('hi').result;
    expect(result.status).toBe('completed');
    expect(agent.mcpServers[0]).toMatchObject({ status: 'failed', tools: [] });
    expect(agent.mcpServers[0]!.error).toMatch(/The MCP server "notes" could not be connected/);
    expect(stderr.join('')).toContain('cannot start (NOTES_FAIL_START)');
  });

  it('gives up reconnecting after reconnect.maxAttempts, then tries again when a tool is called', async () => {
    const marker = join(work, 'fail-start');
    // Preloaded before the server: while the marker file exists, the process exits at once.
    const preload = join(work, 'preload.cjs');
    writeFileSync(preload, `if (require('node:fs').existsSync(${JSON.stringify(marker)})) process.exit(2);`);
    const model = scriptedModel([]);
    const server = notesServer({ args: ['--require', preload, '--import', 'tsx', script], reconnect: { maxAttempts: 2, initialDelayMs: 1, maxDelayMs: 2 } });
    const agent = agentWith({ model }, server);
    await agent.ready;
    expect(agent.mcpServers[0]!.status).toBe('connected');
    writeFileSync(marker, 'x');
    const failed = nextStatus(agent, (event) => event.status === 'failed');
    model.push(turn(toolCall('mcp__notes__crash', {})), 'Crashed.');
    await agent.run('crash').result;
    expect((await failed).error).toMatch(/could not be connected/);
    model.push(turn(toolCall('mcp__notes__list_notes', {})), 'Not there.');
    const stillDown = await collect(agent.run('list'));
    expect(stillDown.events.find((event) => event.type === 'tool-result')).toMatchObject({ isError: true, content: expect.stringMatching(/is not connected \(failed/) });
    rmSync(marker);
    expect(existsSync(marker)).toBe(false);
    model.push(turn(toolCall('mcp__notes__list_notes', {})), 'Back.');
    const back = await collect(agent.run('list again'));
    expect(back.events.find((event) => event.type === 'tool-result')).toMatchObject({ isError: false, content: '(no notes)' });
    expect(agent.mcpServers[0]!.status).toBe('connected');
  });

  it('refuses a plain stdio configuration, which needs Node, naming stdioMcpServer', () => {
    expect(() => createAgent({ model: scriptedModel([]), mcpServers: { notes: { type: 'stdio', command: 'node' } } })).toThrow(ConfigurationError);
    expect(() => createAgent({ model: scriptedModel([]), mcpServers: { notes: { type: 'stdio', command: 'node' } } })).toThrow(/stdioMcpServer\(\{ command: "node", args \}\) from agent-harness\/node/);
    expect(() => stdioMcpServer({ command: '' })).toThrow(ConfigurationError);
  });

  it('refuses wrong options when called, naming the option and the fix, not at the first connect', () => {
    const refuse = (options: unknown, message: RegExp) => {
      let thrown: unknown;
      try {
        stdioMcpServer(options as StdioMcpServerOptions);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ConfigurationError);
      expect((thrown as ConfigurationError).code).toBe('configuration');
      expect((thrown as Error).message).toMatch(message);
    };
    // A string where the array goes would reach the child process (or the MCP SDK) much later.
    refuse({ command: 'node', args: 'server.js --verbose' }, /stdioMcpServer: `args` must be an array of strings, got the string "server\.js --verbose"/);
    refuse({ command: 'node', arg: ['server.js'] }, /`arg` is not an option of stdioMcpServer; did you mean `args`\?/);
    refuse({ command: 'node', env: { PORT: 8080 } }, /stdioMcpServer: `env.PORT` must be a string, got 8080/);
    refuse({ command: 'node', stderr: 'stdout' }, /`stderr` must be one of "inherit", "ignore", "pipe", got the string "stdout"/);
    refuse({ type: 'stdio', command: 'node' }, /sets `type: 'stdio'` itself; leave `type` out/);
    refuse({ command: 'node', toolTimeoutMs: -1 }, /`toolTimeoutMs` must be a positive number of milliseconds, at most 2147483647 .*, got -1/);
    // onStderr is called only for a piped stderr: elsewhere it would be silently never called.
    refuse({ command: 'node', onStderr: () => undefined }, /`onStderr` receives the server's stderr only with `stderr: 'pipe'`, got stderr "inherit"/);
    expect(stdioMcpServer({ command: 'node', args: ['server.js'], stderr: 'pipe', onStderr: () => undefined, env: { A: 'b' }, toolTimeoutMs: 1000 })).toMatchObject({ type: 'stdio', command: 'node', args: ['server.js'] });
  });
});
