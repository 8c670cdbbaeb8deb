import { afterEach, describe, expect, it, vi } from 'vitest';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ConfigurationError, createAgent, type Agent, type McpServerConfig, type ToolResultBlock } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { deferred } from '../helpers.js';

// Progress notifications restart a call's `toolTimeoutMs`; a server that reports progress for
// ever must still not keep a call (and the run waiting on it) open for ever.

const agents: Agent[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
});

/** What the hostile server saw of its one call. */
interface Seen {
  progressSent: number;
  cancelled: boolean;
}

/** A server whose `build` never answers and sends a progress notification every `everyMs`, until the client cancels the call (or for ever, `deaf`). */
function progressForever(seen: Seen, everyMs: number, started: () => void, deaf = false) {
  return () => {
    const server = new McpServer({ name: 'hostile', version: '1.0.0' });
    server.registerTool('build', { description: 'Builds for ever, reporting progress.', annotations: { readOnlyHint: true } }, (extra) => {
      const token = extra._meta?.progressToken;
      extra.signal.addEventListener('abort', () => (seen.cancelled = true));
      const tick = () => {
        if ((extra.signal.aborted && !deaf) || token === undefined) return;
        seen.progressSent++;
        void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: seen.progressSent } }).catch(() => undefined);
        setTimeout(tick, everyMs);
      };
      setTimeout(tick, everyMs);
      started();
      return new Promise<never>(() => undefined);
    });
    return server;
  };
}

/** Runs one call of the hostile server's tool with `config`, advancing fake timers by `stepMs` until the run ends (at most `limitMs`). */
async function callHostile(config: Partial<McpServerConfig>, stepMs: number, limitMs: number, deaf = false) {
  const seen: Seen = { progressSent: 0, cancelled: false };
  const started = deferred();
  const model = scriptedModel([turn(toolCall('mcp__hostile__build', {})), 'Gave up.']);
  const agent = createAgent({ model, mcpServers: { hostile: { type: 'sdk', server: progressForever(seen, 600, started.resolve, deaf), ...config } as McpServerConfig } });
  agents.push(agent);
  await agent.ready;
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const run = agent.run('build');
  let ended = false;
  void run.result.then(() => (ended = true));
  await started.promise;
  let elapsed = 0;
  while (!ended && elapsed < limitMs) {
    await vi.advanceTimersByTimeAsync(stepMs);
    elapsed += stepMs;
  }
  expect(ended, `the call was still open after ${elapsed} ms`).toBe(true);
  const result = (model.requests[1]!.messages.at(-1)!.content as ToolResultBlock[])[0]!;
  return { seen, elapsed, result, status: (await run.result).status, agent };
}

describe('attack: an MCP server that sends progress for ever', () => {
  it('the call ends at maxTotalTimeoutMs, however often progress restarts toolTimeoutMs; the server is told to cancel and the run goes on', async () => {
    const { seen, elapsed, result, status } = await callHostile({ toolTimeoutMs: 1_000, maxTotalTimeoutMs: 5_000 }, 100, 20_000);
    expect(status).toBe('completed');
    expect(elapsed).toBeGreaterThanOrEqual(5_000);
    expect(elapsed).toBeLessThanOrEqual(5_100);
    expect(seen.progressSent).toBeGreaterThanOrEqual(8);
    expect(seen.cancelled).toBe(true);
    expect(result).toMatchObject({ is_error: true, content: expect.stringMatching(/kept the call to "build" open for 5000 ms in all.*maxTotalTimeoutMs/) });
  });

  it('a server that ignores the cancellation and goes on sending progress changes nothing: the run has ended and the server stays connected', async () => {
    const { seen, agent, status } = await callHostile({ toolTimeoutMs: 1_000, maxTotalTimeoutMs: 3_000 }, 100, 10_000, true);
    expect(status).toBe('completed');
    const sentAtEnd = seen.progressSent;
    await vi.advanceTimersByTimeAsync(3_000);
    expect(seen.progressSent).toBeGreaterThan(sentAtEnd);
    expect(agent.mcpServers[0]!.status).toBe('connected');
  });

  it('ends by default after an hour', async () => {
    const { elapsed, result } = await callHostile({ toolTimeoutMs: 1_000 }, 60_000, 2 * 3_600_000);
    expect(elapsed).toBe(3_600_000);
    expect(result).toMatchObject({ is_error: true, content: expect.stringMatching(/open for 3600000 ms in all/) });
  });

  it('a toolTimeoutMs longer than the default total raises the default to it', async () => {
    const { elapsed } = await callHostile({ toolTimeoutMs: 2 * 3_600_000 }, 600_000, 4 * 3_600_000);
    expect(elapsed).toBe(2 * 3_600_000);
  });

  it('maxTotalTimeoutMs must be a positive number', () => {
    const make = (maxTotalTimeoutMs: unknown) => () => createAgent({ model: scriptedModel([]), mcpServers: { hostile: { type: 'sdk', server: new McpServer({ name: 'x', version: '1' }), maxTotalTimeoutMs } as McpServerConfig } });
    expect(make(0)).toThrow(ConfigurationError);
    expect(make(-1)).toThrow('createAgent: mcpServers.hostile.maxTotalTimeoutMs must be a positive number of milliseconds, at most 2147483647 (about 24.8 days: a timer fires at once past it), got -1.');
  });
});
