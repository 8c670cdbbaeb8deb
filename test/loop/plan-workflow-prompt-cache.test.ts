// The native plan workflow (plan mode, ExitPlanMode approved, the todo list, the writes) keeps the
// prompt cache warm from request to request: the mode change, the approval and the reminders go
// into the history, never into the system prompt or the tool list. Also when every step is a new
// agent resumed from the store (an agent per HTTP request). Through the real SDK and the loopback
// server's prompt cache.
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memorySessionStore, type Usage } from 'agent-harness';
import { anthropicModel } from '../../src/model/anthropic/anthropic-model.js';
import { startMessagesServer, type MessagesServer } from '../../src/testing/messages-server/index.js';
import { requestSegments } from '../../src/testing/messages-server/request-segments.js';

let server: MessagesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const read = defineTool({ name: 'Read', description: 'Reads a file.', inputSchema: z.object({ path: z.string() }), readOnly: true, execute: ({ input }) => `Contents of ${input.path}: ${'a line of the notes. '.repeat(40)}` });
const write = defineTool({ name: 'Write', description: 'Writes a file.', inputSchema: z.object({ path: z.string(), content: z.string() }), kind: 'edit', execute: () => 'written' });

describe('the plan workflow and the prompt cache', () => {
  for (const perRequest of [false, true]) {
    it(`every request reads the whole request before it from the cache${perRequest ? ', with a new agent resumed from the store for each step' : ''}`, async () => {
      server = await startMessagesServer({ promptCaching: { now: () => 0 } });
      server.enqueue({ content: [{ type: 'tool_use', id: 'toolu_read', name: 'Read', input: { path: 'notes.md' } }] });
      server.enqueue({ content: [{ type: 'tool_use', id: 'toolu_exit', name: 'ExitPlanMode', input: { plan: '# Plan\n1. Write the opening\n2. Write the body' } }] });
      server.enqueue({ content: [{ type: 'tool_use', id: 'toolu_todos', name: 'TodoWrite', input: { todos: [{ content: 'Write the opening', activeForm: 'Writing the opening', status: 'in_progress' }, { content: 'Write the body', activeForm: 'Writing the body', status: 'pending' }] } }] });
      server.enqueue({ content: [{ type: 'tool_use', id: 'toolu_write', name: 'Write', input: { path: 'article.md', content: 'Tide pools…' } }] });
      server.enqueue({ content: [{ type: 'text', text: 'The article is written.' }] });
      const options = {
        model: anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test', baseURL: server.url, maxRetries: 0 }),
        store: memorySessionStore(),
        tools: [read, write],
        system: `You write articles.\n${'Plan carefully before you write. '.repeat(150)}`,
        permissionMode: 'plan' as const,
      };
      const usages: Usage[] = [];
      let agent = createAgent(options);
      agent.on('turn-end', (event) => usages.push(event.usage));
      /** The agent that takes the next step: the same one, or a new one resumed from the store. */
      const nextAgent = async () => {
        if (!perRequest) return agent;
        await agent.close();
        agent = createAgent({ ...options, resume: agent.sessionId });
        agent.on('turn-end', (event) => usages.push(event.usage));
        await agent.ready;
        return agent;
      };
      const planned = await agent.run('Plan an article about tide pools.').result;
      expect(planned.pendingApprovals.map((approval) => approval.toolName)).toEqual(['ExitPlanMode']);
      let next = await nextAgent();
      const approved = await next.resolveApproval(next.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
      expect(approved.pendingApprovals.map((approval) => approval.toolName)).toEqual(['Write']);
      next = await nextAgent();
      expect((await next.resolveApproval(next.pendingApprovals[0]!.id, { behavior: 'allow' }).result).status).toBe('completed');
      await next.close();
      expect(server.errors).toEqual([]);
      const totals = server.requests.map((body) => requestSegments(body as unknown as Record<string, unknown>).totalTokens);
      expect(usages).toHaveLength(5);
      for (let index = 1; index < usages.length; index++) {
        expect(usages[index]!.cacheReadInputTokens, `request ${index + 1}`).toBe(totals[index - 1]);
        expect(usages[index]!.cacheCreationInputTokens, `request ${index + 1}`).toBe(totals[index]! - totals[index - 1]!);
      }
    });
  }
});
