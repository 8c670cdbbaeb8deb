// Subagents of one type started one after the other send the same tools and system prompt, so
// each reads that start from the prompt cache the earlier one wrote (nothing of the call, its
// id or its description goes into it), and each subagent's requests read the one before them.
// Through the real SDK and the loopback server's prompt cache.
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BUILTIN_AGENTS, createAgent, defineTool, type Usage } from 'agent-harness';
import { anthropicModel } from '../../src/model/anthropic/anthropic-model.js';
import { startMessagesServer, type MessagesServer } from '../../src/testing/messages-server/index.js';
import { requestSegments } from '../../src/testing/messages-server/request-segments.js';

let server: MessagesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const read = defineTool({ name: 'Read', description: 'Reads a file.', inputSchema: z.object({ path: z.string() }), readOnly: true, execute: ({ input }) => `# ${input.path}\n${'Some notes about the topic. '.repeat(70)}` });

describe('subagents and the prompt cache', () => {
  it('a second subagent of the same type reads the tools and system prompt the first one wrote; every request reads the one before it in its own thread', async () => {
    server = await startMessagesServer({ promptCaching: { now: () => 0 } });
    for (const n of [1, 2]) {
      server.enqueue({ content: [{ type: 'tool_use', id: `toolu_agent${n}`, name: 'Agent', input: { description: `survey ${n}`, prompt: `Read notes-${n}.md and sum it up.`, subagent_type: 'explore' } }] });
      server.enqueue({ content: [{ type: 'tool_use', id: `toolu_read${n}`, name: 'Read', input: { path: `notes-${n}.md` } }] });
      server.enqueue({ content: [{ type: 'text', text: `notes-${n}.md is about tide pools.` }] });
    }
    server.enqueue({ content: [{ type: 'text', text: 'Both surveyed.' }] });
    const agent = createAgent({
      model: anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test', baseURL: server.url, maxRetries: 0 }),
      system: `You write articles.\n${'Research, then plan, then write. '.repeat(150)}`,
      tools: [read],
      agents: { explore: { ...BUILTIN_AGENTS.explore, prompt: `${BUILTIN_AGENTS.explore.prompt}\n${'Cite the files you read. '.repeat(120)}` } },
    });
    const turns: Array<{ agentId: string | undefined; usage: Usage }> = [];
    agent.on('turn-end', (event) => turns.push({ agentId: event.agentId, usage: event.usage }));
    const result = await agent.run('Survey the notes.').result;
    await agent.close();
    expect(result.status, result.error?.message).toBe('completed');
    expect(server.errors).toEqual([]);
    // Requests in order: parent, first subagent (2), parent, second subagent (2), parent.
    const bodies = server.requests as unknown as Array<{ tools: unknown[]; system: unknown[]; messages: unknown[] }>;
    expect(bodies).toHaveLength(7);
    expect(turns.map((turn) => (turn.agentId === undefined ? 'parent' : 'sub'))).toEqual(['parent', 'sub', 'sub', 'parent', 'sub', 'sub', 'parent']);
    const segments = bodies.map((body) => requestSegments(body as unknown as Record<string, unknown>));
    const usage = turns.map((turn) => turn.usage);
    const prefixOf = (index: number) => segments[index]!.segments[bodies[index]!.tools.length + bodies[index]!.system.length - 1]!.prefixTokens;
    // The two subagents start the same way (their tools and system prompt, byte for byte).
    expect(JSON.stringify([bodies[4]!.tools, bodies[4]!.system])).toBe(JSON.stringify([bodies[1]!.tools, bodies[1]!.system]));
    expect(prefixOf(4)).toBeGreaterThan(1000);
    // The first subagent's first request writes everything; the second's reads its start.
    expect(usage[1]!.cacheReadInputTokens).toBe(0);
    expect(usage[4]!.cacheReadInputTokens).toBe(prefixOf(4));
    expect(usage[4]!.cacheCreationInputTokens).toBe(segments[4]!.totalTokens - prefixOf(4));
    // Within each thread, a request reads the whole one before it.
    for (const [index, before] of [[2, 1], [3, 0], [5, 4], [6, 3]] as const) {
      expect(usage[index]!.cacheReadInputTokens, `request ${index + 1}`).toBe(segments[before]!.totalTokens);
    }
  });
});
