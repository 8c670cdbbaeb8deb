// Parallel subagents of one type send the same tools and system prompt at the same moment. The
// API makes a cache entry readable only once the response that wrote it has begun, so sent
// together they would each write that prefix; anthropicModel sends the first, and the others once
// its answer has begun, so they read it. Through the real SDK and the loopback server's prompt
// cache, which reads no entry before the answer that writes it has begun (the control shows it).
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BUILTIN_AGENTS, createAgent, defineTool, type Usage } from 'agent-harness';
import { anthropicModel } from '../../src/model/anthropic/anthropic-model.js';
import type { Model } from '../../src/model/model.js';
import { startMessagesServer, type MessagesServer, type MessagesServerResponse } from '../../src/testing/messages-server/index.js';
import { requestSegments } from '../../src/testing/messages-server/request-segments.js';

let server: MessagesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const read = defineTool({ name: 'Read', description: 'Reads a file.', inputSchema: z.object({ path: z.string() }), readOnly: true, execute: ({ input }) => `# ${input.path}` });
const SUBAGENTS = 3;

/** Lets the event loop run (timers aside): a request the SDK was going to send by now has arrived. */
async function settle(): Promise<void> {
  for (let round = 0; round < 25; round++) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * A parent that starts three `explore` subagents in one turn; the first subagent request to arrive
 * is answered only once every subagent has asked the model for its first turn and the event loop
 * has run on (or, in the control, once every subagent request has arrived). Returns the subagents' usage, the bodies, and what the
 * server had received when the first answer was released.
 */
async function fanOut(sharedPrefixWaitMs: number | undefined) {
  server = await startMessagesServer({ promptCaching: { now: () => 0 } });
  let arrive!: () => void;
  let release!: () => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  let othersArrived = 0;
  let allArrived!: () => void;
  const everyArrived = new Promise<void>((resolve) => (allArrived = resolve));
  const held: MessagesServerResponse = async () => {
    arrive();
    await released;
    return { content: [{ type: 'text', text: 'Surveyed.' }] };
  };
  // Without the wait (the control) every subagent's answer is held until all have arrived, as
  // requests sent together are on the API while none has begun its answer.
  const announced: MessagesServerResponse = async () => {
    if (++othersArrived === SUBAGENTS - 1) allArrived();
    if (sharedPrefixWaitMs === 0) await everyArrived;
    return { content: [{ type: 'text', text: 'Surveyed.' }] };
  };
  server.enqueue({
    content: Array.from({ length: SUBAGENTS }, (_, index) => ({ type: 'tool_use' as const, id: `toolu_agent${index}`, name: 'Agent', input: { description: `survey ${index}`, prompt: `Read notes-${index}.md and sum it up.`, subagent_type: 'explore' } })),
  });
  server.enqueue(held, ...Array.from({ length: SUBAGENTS - 1 }, () => announced), { content: [{ type: 'text', text: 'All surveyed.' }] });

  const model = anthropicModel({ model: 'claude-sonnet-4-6', apiKey: `test-${sharedPrefixWaitMs}`, baseURL: server.url, maxRetries: 0, ...(sharedPrefixWaitMs === undefined ? {} : { promptCaching: { sharedPrefixWaitMs } }) });
  let asked = 0;
  let everyAsked!: () => void;
  const allAsked = new Promise<void>((resolve) => (everyAsked = resolve));
  const counted: Model = { ...model, stream: (request) => (++asked === SUBAGENTS + 1 && everyAsked(), model.stream(request)) };
  const agent = createAgent({
    model: counted,
    system: `You write articles.\n${'Research, then plan, then write. '.repeat(150)}`,
    tools: [read],
    agents: { explore: { ...BUILTIN_AGENTS.explore, prompt: `${BUILTIN_AGENTS.explore.prompt}\n${'Cite the files you read. '.repeat(120)}` } },
  });
  const turns: Array<{ agentId: string | undefined; usage: Usage }> = [];
  agent.on('turn-end', (event) => turns.push({ agentId: event.agentId, usage: event.usage }));
  const run = agent.run('Survey the notes.');
  await arrived;
  await allAsked;
  if (sharedPrefixWaitMs === 0) await everyArrived;
  else await settle();
  const receivedWhileHeld = server.requests.length;
  release();
  const result = await run.result;
  await agent.close();
  expect(result.status, result.error?.message).toBe('completed');
  expect(server.errors).toEqual([]);
  const bodies = server.requests.slice(1, 1 + SUBAGENTS) as unknown as Array<{ tools: unknown[]; system: unknown[] }>;
  const segments = bodies.map((body) => requestSegments(body as unknown as Record<string, unknown>));
  const prefix = segments[0]!.segments[bodies[0]!.tools.length + bodies[0]!.system.length - 1]!.prefixTokens;
  const subagents = turns.filter((turn) => turn.agentId !== undefined).map((turn) => turn.usage);
  return { receivedWhileHeld, subagents, prefix, totals: segments.map((segment) => segment.totalTokens) };
}

describe('parallel subagents and the prompt cache', () => {
  it('three subagents of one type started in one turn write their tools and system prompt once: the other two wait for the first answer to begin, then read it', async () => {
    // A wait longer than any test: subagents sent only because their wait ran out fail the test.
    const { receivedWhileHeld, subagents, prefix, totals } = await fanOut(3_600_000);
    // While the first subagent's answer was held, only it (and the parent's first request) had been sent.
    expect(receivedWhileHeld).toBe(2);
    expect(prefix).toBeGreaterThan(1024);
    expect(subagents).toHaveLength(SUBAGENTS);
    const readers = subagents.filter((usage) => usage.cacheReadInputTokens === prefix);
    const writers = subagents.filter((usage) => usage.cacheReadInputTokens === 0);
    expect(writers).toHaveLength(1);
    expect(readers).toHaveLength(SUBAGENTS - 1);
    const written = subagents.reduce((sum, usage) => sum + usage.cacheCreationInputTokens, 0);
    const total = totals.reduce((sum, tokens) => sum + tokens, 0);
    // The prefix is written once; each subagent writes its own task after it.
    expect(written).toBe(total - (SUBAGENTS - 1) * prefix);
  });

  it('interrupted while two subagents wait for the first answer to begin: the run ends interrupted at once and the waiting requests are never sent', async () => {
    server = await startMessagesServer({ promptCaching: { now: () => 0 } });
    let arrive!: () => void;
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    server.enqueue({
      content: Array.from({ length: SUBAGENTS }, (_, index) => ({ type: 'tool_use' as const, id: `toolu_agent${index}`, name: 'Agent', input: { description: `survey ${index}`, prompt: `Read notes-${index}.md.`, subagent_type: 'explore' } })),
    });
    server.enqueue(async () => {
      arrive();
      await released;
      return { content: [{ type: 'text', text: 'Surveyed.' }] };
    });
    const agent = createAgent({
      model: anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test-interrupted', baseURL: server.url, maxRetries: 0 }),
      system: 'You write articles.',
      tools: [read],
      agents: { explore: { ...BUILTIN_AGENTS.explore, prompt: `${BUILTIN_AGENTS.explore.prompt}\n${'Cite the files you read. '.repeat(120)}` } },
    });
    const ends: string[] = [];
    agent.on('subagent-end', (event) => ends.push(event.summary.status));
    const run = agent.run('Survey the notes.');
    await arrived;
    await settle();
    agent.interrupt();
    const result = await run.result;
    release();
    await agent.close();
    expect(result.status).toBe('interrupted');
    expect(server.requests).toHaveLength(2);
    expect(ends).toHaveLength(SUBAGENTS);
    expect(ends.every((status) => status === 'interrupted')).toBe(true);
  });

  it('control: with sharedPrefixWaitMs 0 all three are sent at once and each writes the prefix', async () => {
    const { receivedWhileHeld, subagents, totals } = await fanOut(0);
    expect(receivedWhileHeld).toBe(1 + SUBAGENTS);
    expect(subagents.every((usage) => usage.cacheReadInputTokens === 0)).toBe(true);
    const written = subagents.reduce((sum, usage) => sum + usage.cacheCreationInputTokens, 0);
    expect(written).toBe(totals.reduce((sum, tokens) => sum + tokens, 0));
  });
});
