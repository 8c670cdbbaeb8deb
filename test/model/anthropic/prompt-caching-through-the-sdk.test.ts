import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type Usage } from 'agent-harness';
import { anthropicModel } from '../../../src/model/anthropic/anthropic-model.js';
import type { ContentBlock } from '../../../src/model/messages.js';
import { startMessagesServer, type MessagesServer } from '../../../src/testing/messages-server/index.js';
import { requestSegments } from '../../../src/testing/messages-server/request-segments.js';
import { toAnthropicRequest } from '../../../src/model/anthropic/to-anthropic-request.js';

let server: MessagesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const MODEL = 'claude-sonnet-4-6';

const read = defineTool({
  name: 'Read',
  description: 'Reads a file.',
  inputSchema: z.object({ path: z.string() }),
  readOnly: true,
  execute: ({ input }) => `Contents of ${input.path}: ${'a line of the file. '.repeat(20)}`,
});

/** A turn of `width` parallel Read calls. */
const wideTurn = (turn: number, width: number) => ({
  content: Array.from({ length: width }, (_, index): ContentBlock => ({ type: 'tool_use', id: `toolu_${turn}_${index}`, name: 'Read', input: { path: `file-${turn}-${index}.md` } })),
});

/**
 * Runs an agent through `turns` turns of `width` parallel calls and an answer, on the loopback
 * server's prompt cache (which looks 20 blocks back from a breakpoint, as the API does), and
 * returns each request's usage with the server's token count of the request before it.
 */
async function session(turns: number, width: number) {
  server = await startMessagesServer({ promptCaching: { now: () => 0 } });
  for (let turn = 1; turn <= turns; turn++) server.enqueue(wideTurn(turn, width));
  server.enqueue({ content: [{ type: 'text', text: 'All read.' }] });
  const model = anthropicModel({ model: MODEL, apiKey: 'test', baseURL: server.url, maxRetries: 0 });
  const agent = createAgent({ model, tools: [read], system: `You read files for the user.\n${'Read every file you are given, in full. '.repeat(150)}`, todoWrite: false, exitPlanMode: false });
  const usages: Usage[] = [];
  agent.on('turn-end', (event) => usages.push(event.usage));
  const result = await agent.run('Read the files.').result;
  await agent.close();
  expect(result.status).toBe('completed');
  expect(server.errors).toEqual([]);
  const totals = server.requests.map((body) => requestSegments(body as unknown as Record<string, unknown>).totalTokens);
  return { usages, totals };
}

describe('prompt caching across turns wider than the cache lookback', () => {
  it('a turn of 12 parallel calls (24 blocks, past the 20-block lookback) still reads every earlier request from the cache', async () => {
    const { usages, totals } = await session(4, 12);
    expect(usages).toHaveLength(5);
    // Each request reads exactly what the request before it sent (the anchor breakpoint sits
    // where that one ended), and writes only what the turn added.
    for (let index = 1; index < usages.length; index++) {
      expect(usages[index]!.cacheReadInputTokens).toBe(totals[index - 1]);
      expect(usages[index]!.cacheCreationInputTokens).toBe(totals[index]! - totals[index - 1]!);
    }
  });

  it('a narrow turn reads the same (the anchor adds no write of its own)', async () => {
    const { usages, totals } = await session(3, 2);
    for (let index = 1; index < usages.length; index++) {
      expect(usages[index]!.cacheReadInputTokens).toBe(totals[index - 1]);
      expect(usages[index]!.inputTokens + usages[index]!.cacheReadInputTokens + usages[index]!.cacheCreationInputTokens).toBe(totals[index]);
    }
  });
});

describe('promptCaching: { ttl }', () => {
  /** Two requests ten minutes apart (a person reading a plan card), on the loopback server's cache. */
  async function tenMinutesApart(promptCaching: boolean | { ttl?: '5m' | '1h' }) {
    let clock = 0;
    server = await startMessagesServer({ promptCaching: { now: () => clock } });
    server.enqueue({ content: [{ type: 'text', text: 'A plan.' }] }, { content: [{ type: 'text', text: 'Done.' }] });
    const model = anthropicModel({ model: MODEL, apiKey: 'test', baseURL: server.url, maxRetries: 0, promptCaching });
    const agent = createAgent({ model, tools: [read], system: `You plan articles.\n${'Plan with care. '.repeat(400)}`, todoWrite: false, exitPlanMode: false });
    const usages: Usage[] = [];
    agent.on('turn-end', (event) => usages.push(event.usage));
    await agent.run('Plan it.').result;
    clock += 10 * 60_000;
    await agent.run('Go ahead.').result;
    await agent.close();
    expect(server.errors).toEqual([]);
    const markers = server.requests.flatMap((body) => JSON.stringify(body).match(/"cache_control":\{[^}]*\}/g) ?? []);
    return { usages, markers };
  }

  it("{ ttl: '1h' } marks every breakpoint for an hour: the history is read after ten minutes, where five-minute entries are gone", async () => {
    const hour = await tenMinutesApart({ ttl: '1h' });
    expect(hour.markers.length).toBeGreaterThan(0);
    expect(hour.markers.every((marker) => marker === '"cache_control":{"type":"ephemeral","ttl":"1h"}')).toBe(true);
    expect(hour.usages[1]!.cacheReadInputTokens).toBeGreaterThan(1000);
    expect(hour.usages[0]!.cacheCreationInputTokens).toBeGreaterThan(1000);
    await server!.close();
    server = undefined;
    for (const fiveMinutes of [true, { ttl: '5m' as const }, {}]) {
      const short = await tenMinutesApart(fiveMinutes);
      expect(short.markers.every((marker) => marker === '"cache_control":{"type":"ephemeral"}')).toBe(true);
      expect(short.usages[1]!.cacheReadInputTokens).toBe(0);
      await server!.close();
      server = undefined;
    server = undefined;
    }
  });

  it("keeps five-minute breakpoints when the caller's own five-minute one comes first (the API refuses a 1h breakpoint after a 5m one)", () => {
    const body = toAnthropicRequest(
      { system: [{ type: 'text', text: 'S', cache_control: { type: 'ephemeral' } }, { type: 'text', text: 'T' }], tools: [], messages: [{ role: 'user', content: 'hi' }] },
      { model: MODEL, maxTokens: 100, promptCaching: true, cacheTtl: '1h' },
    );
    expect(JSON.stringify(body)).not.toContain('"ttl":"1h"');
    const alone = toAnthropicRequest({ system: [{ type: 'text', text: 'S' }], tools: [], messages: [{ role: 'user', content: 'hi' }] }, { model: MODEL, maxTokens: 100, promptCaching: true, cacheTtl: '1h' });
    expect(JSON.stringify(body.system).match(/cache_control/g)).toHaveLength(2);
    expect(JSON.stringify(alone).match(/"ttl":"1h"/g)).toHaveLength(2);
  });

  it('refuses a lifetime the API does not take, naming the value and the choices', () => {
    const bads = [{ ttl: '2h' }, { ttl: '1h', scope: 'global' }, 'yes', null, { ttl: 3600 }, { sharedPrefixWaitMs: -1 }, { sharedPrefixWaitMs: 1.5 }, { sharedPrefixWaitMs: '30s' }, { sharedPrefixWaitMs: Number.POSITIVE_INFINITY }, { sharedPrefixWaitMs: 2_147_483_648 }];
    for (const bad of bads) {
      expect(() => anthropicModel({ model: MODEL, apiKey: 'test', promptCaching: bad as never })).toThrow(
        /anthropicModel: `promptCaching` must be true, false or \{ ttl\?: '5m' \| '1h', sharedPrefixWaitMs\?: a whole number of milliseconds from 0 to 2147483647 \}, got /,
      );
    }
    expect(() => anthropicModel({ model: MODEL, apiKey: 'test', promptCaching: { ttl: '1h' } })).not.toThrow();
    expect(() => anthropicModel({ model: MODEL, apiKey: 'test', promptCaching: { sharedPrefixWaitMs: 0 } })).not.toThrow();
    expect(() => anthropicModel({ model: MODEL, apiKey: 'test', promptCaching: { ttl: '5m', sharedPrefixWaitMs: 5000 } })).not.toThrow();
  });
});
