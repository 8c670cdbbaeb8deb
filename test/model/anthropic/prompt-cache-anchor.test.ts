import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type Usage } from 'agent-harness';
import { anthropicModel } from '../../../src/model/anthropic/anthropic-model.js';
import type { ContentBlock } from '../../../src/model/messages.js';
import { startMessagesServer, type MessagesServer } from '../../../src/testing/messages-server/index.js';
import { requestSegments } from '../../../src/testing/messages-server/request-segments.js';

let server: MessagesServer | undefined;
afterEach(() => server?.close());

const MODEL = 'claude-sonnet-4-6';

const read = defineTool({
  name: 'Read',
  description: 'Reads a file.',
  inputSchema: z.object({ path: z.string() }),
  readOnly: true,
  execute: ({ path }) => `Contents of ${path}: ${'a line of the file. '.repeat(20)}`,
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
