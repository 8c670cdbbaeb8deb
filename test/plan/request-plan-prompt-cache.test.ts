// requestPlan asks for the plan in the middle of a session: the request must read the session's
// prefix from the prompt cache, not write it all again. Through the real SDK and the loopback
// server's cache (which keys structured output's format before the system prompt, as the API does).
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, requestPlan, type Usage } from 'agent-harness';
import { scriptedModel } from 'agent-harness/testing';
import { anthropicModel } from '../../src/model/anthropic/anthropic-model.js';
import { startMessagesServer, type MessagesServer } from '../../src/testing/messages-server/index.js';
import { requestSegments } from '../../src/testing/messages-server/request-segments.js';

let server: MessagesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const read = defineTool({
  name: 'Read',
  description: 'Reads a file.',
  inputSchema: z.object({ path: z.string() }),
  readOnly: true,
  execute: ({ input }) => `Contents of ${input.path}: ${'Tide pools hold anemones, crabs and sea stars. '.repeat(60)}`,
});

const PLAN = { goal: 'An article on tide pools', outline: ['What lives there', 'How to visit'], steps: [{ title: 'Write the opening' }, { title: 'Write the body' }], risks: [] };

/**
 * Research (a Read call and an answer), requestPlan, then the run that writes: each model
 * request's usage, the server's token count of each request, and the requests themselves.
 */
async function planWorkflow(planOptions: Parameters<typeof requestPlan>[1] = {}) {
  server = await startMessagesServer({ promptCaching: { now: () => 0 } });
  server.enqueue({ content: [{ type: 'tool_use', id: 'toolu_read', name: 'Read', input: { path: 'notes/tide-pools.md' } }] });
  server.enqueue({ content: [{ type: 'text', text: 'I have read the notes.' }] });
  server.enqueue({ content: [{ type: 'text', text: JSON.stringify(PLAN) }] });
  server.enqueue({ content: [{ type: 'text', text: 'The article is written.' }] });
  const model = anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test', baseURL: server.url, maxRetries: 0 });
  const agent = createAgent({ model, tools: [read], system: `You write articles.\n${'Research before you plan, and plan before you write. '.repeat(100)}` });
  const usages: Usage[] = [];
  agent.on('turn-end', (event) => usages.push(event.usage));
  expect((await agent.run('Research tide pools for an article.').result).status).toBe('completed');
  const { plan } = await requestPlan(agent, planOptions);
  expect(plan).toEqual(PLAN);
  expect((await agent.run('The plan is approved. Write it.').result).status).toBe('completed');
  await agent.close();
  expect(server.errors).toEqual([]);
  const requests = server.requests as unknown as Array<Record<string, unknown>>;
  return { usages, totals: requests.map((body) => requestSegments(body).totalTokens), requests };
}

describe('requestPlan and the prompt cache', () => {
  it('the plan request and the run after it read everything the request before sent from the cache', async () => {
    const { usages, totals, requests } = await planWorkflow();
    expect(usages).toHaveLength(4);
    // Request 3 asks for the plan: no structured output format (it would change the system prompt
    // and miss the cache); the schema is in the prompt instead.
    expect(requests[2]!.output_config).toBeUndefined();
    expect(JSON.stringify(requests[2]!.messages)).toContain('JSON Schema');
    for (let index = 1; index < usages.length; index++) {
      expect(usages[index]!.cacheReadInputTokens, `request ${index + 1}`).toBe(totals[index - 1]);
      expect(usages[index]!.cacheCreationInputTokens, `request ${index + 1}`).toBe(totals[index]! - totals[index - 1]!);
    }
  });
});

describe("requestPlan({ outputMode: 'native' })", () => {
  it('sends the format, and that request writes the session to the cache again: the cost the default avoids', async () => {
    const { usages, totals, requests } = await planWorkflow({ outputMode: 'native' });
    expect((requests[2]!.output_config as { format?: { type?: string } }).format?.type).toBe('json_schema');
    expect(JSON.stringify(requests[2]!.messages)).not.toContain('JSON Schema');
    expect(usages[2]!.cacheReadInputTokens).toBe(0);
    expect(usages[2]!.cacheCreationInputTokens).toBe(totals[2]);
    // The run after it has no format: it reads what the request before the plan request wrote.
    expect(usages[3]!.cacheReadInputTokens).toBe(totals[1]);
  });
});

describe('requestPlan outputMode', () => {
  it('"native" on a model without native structured output is refused, naming the model and the cure', async () => {
    const agent = createAgent({ model: scriptedModel([], { modelId: 'plain-model' }) });
    await expect(requestPlan(agent, { outputMode: 'native' })).rejects.toThrow(/"plain-model" has none.*leave `outputMode` out/);
    await agent.close();
  });

  it('takes "text" or "native" only, naming the choices', async () => {
    const agent = createAgent({ model: anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test', baseURL: 'http://127.0.0.1:9' }) });
    await expect(requestPlan(agent, { outputMode: 'tool' as never })).rejects.toThrow(/outputMode.*"text", "native"/);
    await agent.close();
  });
});
