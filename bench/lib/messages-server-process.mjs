// The loopback Messages server in its own process, for the streaming benchmark: its CPU time is
// not the client's. Prints `{ "url": ... }` on stdout once listening; exits when stdin closes.
// Each request is answered with a recording chosen by the request (see `recordingFor`).
import { startMessagesServer } from '../../dist/testing/messages-server/index.js';
import { recordings } from './stream-recordings.mjs';

const { text, toolCall, short } = recordings();

/** The tool-call recording when the prompt asks for it, the short answer after a tool result, else the text answer. */
function recordingFor({ body }) {
  const last = body.messages.at(-1);
  const blocks = typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : last.content;
  if (blocks.some((block) => block.type === 'tool_result')) return { recording: short };
  if (blocks.some((block) => block.type === 'text' && block.text.includes('[tool]'))) return { recording: toolCall };
  return { recording: text };
}

// Enough answers for any run of the benchmark: the queue holds one function many times.
const server = await startMessagesServer({ validate: false, responses: Array.from({ length: 200_000 }, () => recordingFor) });
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
process.stdin.resume();
process.stdin.on('end', () => server.close().then(() => process.exit(0)));
