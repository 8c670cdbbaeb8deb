/**
 * The offline demo model of the fleet: a loopback Messages API server (the real SDK talks to it)
 * whose answer depends only on the conversation it is sent, so any worker can continue any
 * session. Each task takes five tool turns — `step` 0, 1, then `publish` (which asks for
 * approval), then `step` 3 and 4 — and a closing sentence.
 */
import { randomUUID } from 'node:crypto';
import type { MessagesRequestBody, MessagesServer, MessagesServerResponse, MessagesServerTurn } from 'agent-harness/testing/messages-server';
import { startMessagesServer } from 'agent-harness/testing/messages-server';

/** Tool turns per task. */
export const TOOL_TURNS = 5;
/** The turn (0-based) that calls `publish`, which waits for approval. */
export const PUBLISH_TURN = 2;

/** The next turn for a conversation: counts the tool turns since the last prompt. */
export function demoTurn(body: MessagesRequestBody): MessagesServerTurn {
  let promptAt = 0;
  body.messages.forEach((message, index) => {
    const blocks = typeof message.content === 'string' ? [{ type: 'text' }] : message.content;
    if (message.role === 'user' && !blocks.some((block) => block.type === 'tool_result')) promptAt = index;
  });
  const toolTurns = body.messages.slice(promptAt).filter((message) => message.role === 'assistant' && Array.isArray(message.content) && message.content.some((block) => block.type === 'tool_use')).length;
  if (toolTurns >= TOOL_TURNS) return { content: [{ type: 'text', text: `All ${TOOL_TURNS} steps are done.` }] };
  const id = `toolu_${randomUUID().replaceAll('-', '')}`;
  if (toolTurns === PUBLISH_TURN) return { content: [{ type: 'tool_use', id, name: 'publish', input: { n: toolTurns } }] };
  return { content: [{ type: 'tool_use', id, name: 'step', input: { n: toolTurns } }] };
}

/** Starts the demo model's server: it answers every request with {@link demoTurn}. */
export async function startDemoModelServer(): Promise<MessagesServer> {
  const server = await startMessagesServer({ responses: [] });
  // Each answer queues the next one, so the server never runs out.
  const respond: MessagesServerResponse = ({ body }) => {
    server.enqueue(respond);
    return demoTurn(body);
  };
  server.enqueue(respond);
  return server;
}
