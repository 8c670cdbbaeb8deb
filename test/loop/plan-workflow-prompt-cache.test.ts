// The native plan workflow (plan mode, ExitPlanMode approved, the todo list, the writes) keeps the
// prompt cache warm from request to request: the mode change, the approval and the reminders go
// into the history, never into the system prompt or the tool list. Also when every step is a new
// agent resumed from the store (an agent per HTTP request), from each of the library's stores: a
// store that gave the history back otherwise than it was sent (a key order, a number's form) would
// make the resumed request miss. Through the real SDK and the loopback server's prompt cache.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memorySessionStore, type SessionStore, type Usage } from 'agent-harness';
import { fileSessionStore } from 'agent-harness/node';
import { postgresSessionStore } from 'agent-harness/postgres';
import { redisSessionStore } from 'agent-harness/redis';
import { postgres } from '../postgres/postgres-test-database.js';
import { postgresTestScope } from '../postgres/postgres-test-scope.js';
import { redis } from '../redis/redis-test-server.js';
import { redisTestScope } from '../redis/redis-test-scope.js';
import { anthropicModel } from '../../src/model/anthropic/anthropic-model.js';
import { startMessagesServer, type MessagesServer } from '../../src/testing/messages-server/index.js';
import { requestSegments } from '../../src/testing/messages-server/request-segments.js';

let server: MessagesServer | undefined;
const folders: string[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
const pg = postgresTestScope();
const redisScope = redisTestScope();

/** Each store of the library, with whether its server answers (the memory and file stores always do). */
const stores: Array<[string, boolean, () => SessionStore]> = [
  ['memory', true, () => memorySessionStore()],
  ['file', true, () => fileSessionStore({ dir: (folders.push(mkdtempSync(join(tmpdir(), 'cache-resume-'))), folders.at(-1)!) })],
  ['PostgreSQL', postgres.reachable, () => postgresSessionStore({ pool: pg.pool(2), schema: pg.schema() })],
  ['Redis', redis.reachable, () => redisSessionStore({ client: redisScope.client(), keyPrefix: redisScope.prefix() })],
];

const read = defineTool({ name: 'Read', description: 'Reads a file.', inputSchema: z.object({ path: z.string() }), readOnly: true, execute: ({ input }) => `Contents of ${input.path}: ${'a line of the notes. '.repeat(40)}` });
const write = defineTool({ name: 'Write', description: 'Writes a file.', inputSchema: z.object({ path: z.string(), content: z.string() }), kind: 'edit', execute: () => 'written' });

/** The writing agent's options, in plan mode, on the loopback server started for the test. */
function writerOptions(running: MessagesServer, store: SessionStore) {
  return {
    model: anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test', baseURL: running.url, maxRetries: 0 }),
    store,
    tools: [read, write],
    system: `You write articles.\n${'Plan carefully before you write. '.repeat(150)}`,
    permissionMode: 'plan' as const,
  };
}

describe('the plan workflow and the prompt cache', () => {
  const cases = [[false, ...stores[0]!], ...stores.map((store) => [true, ...store])] as Array<[boolean, string, boolean, () => SessionStore]>;
  for (const [perRequest, storeName, reachable, makeStore] of cases) {
    it.skipIf(!reachable)(`every request reads the whole request before it from the cache${perRequest ? `, with a new agent resumed from the ${storeName} store for each step` : ''}`, async () => {
      server = await startMessagesServer({ promptCaching: { now: () => 0 } });
      server.enqueue({ content: [{ type: 'tool_use', id: 'toolu_read', name: 'Read', input: { path: 'notes.md' } }] });
      server.enqueue({ content: [{ type: 'tool_use', id: 'toolu_exit', name: 'ExitPlanMode', input: { plan: '# Plan\n1. Write the opening\n2. Write the body' } }] });
      server.enqueue({ content: [{ type: 'tool_use', id: 'toolu_todos', name: 'TodoWrite', input: { todos: [{ content: 'Write the opening', activeForm: 'Writing the opening', status: 'in_progress' }, { content: 'Write the body', activeForm: 'Writing the body', status: 'pending' }] } }] });
      server.enqueue({ content: [{ type: 'tool_use', id: 'toolu_write', name: 'Write', input: { path: 'article.md', content: 'Tide pools…' } }] });
      server.enqueue({ content: [{ type: 'text', text: 'The article is written.' }] });
      const options = writerOptions(server, makeStore());
      const usages: Usage[] = [];
      const warnings: string[] = [];
      let agent = createAgent(options);
      agent.on('turn-end', (event) => usages.push(event.usage));
      agent.on('warning', (event) => warnings.push(`${event.source}: ${event.message}`));
      /** The agent that takes the next step: the same one, or a new one resumed from the store. */
      const nextAgent = async () => {
        if (!perRequest) return agent;
        await agent.close();
        agent = createAgent({ ...options, resume: agent.sessionId });
        agent.on('turn-end', (event) => usages.push(event.usage));
        agent.on('warning', (event) => warnings.push(`${event.source}: ${event.message}`));
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
      // The library keeps the start of the request across the workflow: no prompt-cache (or other) warning.
      expect(warnings).toEqual([]);
      const totals = server.requests.map((body) => requestSegments(body as unknown as Record<string, unknown>).totalTokens);
      expect(usages).toHaveLength(5);
      for (let index = 1; index < usages.length; index++) {
        expect(usages[index]!.cacheReadInputTokens, `request ${index + 1}`).toBe(totals[index - 1]);
        expect(usages[index]!.cacheCreationInputTokens, `request ${index + 1}`).toBe(totals[index]! - totals[index - 1]!);
      }
    });
  }

  it.each([
    ['the same agent', false],
    ['a new agent resumed from the store for the approval', true],
  ])('a plan approved into a fresh context (clearContext) still reads the tools and the system prompt from the cache, and the writes read each request before them (%s)', async (_, perRequest) => {
    server = await startMessagesServer({ promptCaching: { now: () => 0 } });
    for (const path of ['notes.md', 'sources.md']) server.enqueue({ content: [{ type: 'tool_use', id: `toolu_${path.split('.')[0]}`, name: 'Read', input: { path } }] });
    server.enqueue({ content: [{ type: 'tool_use', id: 'toolu_exit', name: 'ExitPlanMode', input: { plan: '# Plan\n1. Write the opening\n2. Write the body' } }] });
    server.enqueue({ content: [{ type: 'tool_use', id: 'toolu_write', name: 'Write', input: { path: 'article.md', content: 'Tide pools…' } }] });
    server.enqueue({ content: [{ type: 'text', text: 'The article is written.' }] });
    const options = writerOptions(server, memorySessionStore());
    const usages: Usage[] = [];
    const first = createAgent(options);
    first.on('turn-end', (event) => usages.push(event.usage));
    const planned = await first.run('Plan an article about tide pools.').result;
    expect(planned.pendingApprovals.map((approval) => approval.toolName)).toEqual(['ExitPlanMode']);
    let next = first;
    if (perRequest) {
      await first.close();
      // The resumed agent allows the writes as they come (the approval of the plan is the one its host waits on).
      next = createAgent({ ...options, resume: first.sessionId, canUseTool: async () => ({ behavior: 'allow' as const }) });
      next.on('turn-end', (event) => usages.push(event.usage));
      await next.ready;
    }
    let done = await next.resolveApproval(next.pendingApprovals[0]!.id, { behavior: 'allow', clearContext: true }).result;
    // The same agent has no canUseTool: the write waits for the host too.
    if (!perRequest) done = await next.resolveApproval(done.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
    expect(done.status, done.error?.message).toBe('completed');
    await next.close();
    expect(server.errors).toEqual([]);
    const requests = server.requests.map((body) => requestSegments(body as unknown as Record<string, unknown>));
    expect(requests).toHaveLength(5);
    // The fresh context starts with one message: what comes before it (the tools, the system
    // prompt) is the planning requests' own start, read from the cache.
    const fresh = server.requests[3]! as unknown as { messages: unknown[]; tools: unknown[]; system: unknown[] };
    expect(fresh.messages).toHaveLength(1);
    const prefix = requests[3]!.segments[fresh.tools.length + fresh.system.length - 1]!.prefixTokens;
    expect(prefix).toBeGreaterThan(1000);
    expect(usages[3]!.cacheReadInputTokens).toBe(prefix);
    expect(usages[3]!.cacheCreationInputTokens).toBe(requests[3]!.totalTokens - prefix);
    expect(usages[4]!.cacheReadInputTokens).toBe(requests[3]!.totalTokens);
  });
});
