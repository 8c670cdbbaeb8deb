// Attack on the model boundary: an answer whose tool_use block arrived whole before the stream
// broke (an `overloaded_error` frame, a dropped connection) is retried as a turn; the tool of the
// broken attempt must not run, and the tool of the retried answer runs exactly once.
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { anthropicModel, createAgent, defineTool, type AgentEvent } from 'agent-harness';
import { startMessagesServer, type MessagesServer, type MessagesServerTurn } from 'agent-harness/testing/messages-server';

let server: MessagesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const call = (id: string): MessagesServerTurn => ({
  content: [
    { type: 'text', text: 'Counting.' },
    { type: 'tool_use', id, name: 'count', input: { by: 1 } },
  ],
  stopReason: 'tool_use',
});

describe('a stream that breaks after a whole tool_use block', () => {
  for (const fault of ['stream-error', 'drop-connection'] as const) {
    it(`(${fault}) runs no tool of the broken attempt, and the retried answer's tool once`, async () => {
      const ran: string[] = [];
      const count = defineTool({ name: 'count', description: 'Counts.', inputSchema: z.object({ by: z.number() }), execute: ({ toolUseId }) => (ran.push(toolUseId), 'counted') });
      // Every event of the turn but its message_delta/message_stop: the tool_use block is complete.
      server = await startMessagesServer({ responses: [{ fault, after: 9, turn: call('toolu_broken') }, call('toolu_retried'), { content: [{ type: 'text', text: 'Done.' }] }] });
      const agent = createAgent({
        model: anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test-key', baseURL: server.url, maxRetries: 0 }),
        tools: [count],
        canUseTool: async () => ({ behavior: 'allow' }),
        streamRetryBackoff: false,
      });
      const events: AgentEvent[] = [];
      const run = agent.run('Count once.');
      for await (const event of run) events.push(event);
      const result = await run.result;
      expect(result.status).toBe('completed');
      expect(ran).toEqual(['toolu_retried']);
      expect(events.filter((event) => event.type === 'tool-result').map((event) => (event as Extract<AgentEvent, { type: 'tool-result' }>).toolUseId)).toEqual(['toolu_retried']);
      // The transcript holds the retried answer only: no tool_use of the broken attempt waits for a result.
      expect(JSON.stringify(agent.messages)).not.toContain('toolu_broken');
      await agent.close();
    });
  }
});
