// The loopback Messages server behind TLS, in its own process, for bench/connections.bench.mjs:
// a TLS server (the certificate and key given as file paths in argv) that forwards each connection
// to a loopback Messages server, as the API's TLS endpoint would. It answers a session of tool
// turns: a call of `note` until the request holds `TOOL_TURNS` tool results, then a short text;
// each streamed body ends the gap given in argv (ms) after its `message_stop` (`endAfter`).
// Prints `{ "url": ... }` on stdout once listening; exits when stdin closes.
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { createServer } from 'node:tls';
import { startMessagesServer } from '../../dist/testing/messages-server/index.js';

const [certFile, keyFile, toolTurnsArgument, endGapArgument] = process.argv.slice(2);
const toolTurns = Number(toolTurnsArgument);
const endGapMs = Number(endGapArgument ?? 0);

function answer({ body }) {
  const results = body.messages.filter((message) => Array.isArray(message.content) && message.content.some((block) => block.type === 'tool_result')).length;
  // The body's last chunk `endGapMs` after message_stop (0: in the same packet as far as it can be).
  const endAfter = endGapMs > 0 ? new Promise((resolve) => setTimeout(resolve, endGapMs)) : undefined;
  if (results < toolTurns) return { content: [{ type: 'text', text: 'Noting.' }, { type: 'tool_use', id: `toolu_${results + 1}`, name: 'note', input: { text: `note ${results + 1}` } }], endAfter };
  return { content: [{ type: 'text', text: 'All noted.' }], endAfter };
}

const messages = await startMessagesServer({ validate: false, responses: Array.from({ length: 200_000 }, () => answer) });
const { port } = new URL(messages.url);
const server = createServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, (socket) => {
  const upstream = connect(Number(port), '127.0.0.1');
  // As a server does: no Nagle delay on a small last chunk (it would wait for the client's delayed ACK).
  socket.setNoDelay(true);
  upstream.setNoDelay(true);
  const close = () => {
    socket.destroy();
    upstream.destroy();
  };
  socket.on('error', close).on('close', close);
  upstream.on('error', close).on('close', close);
  socket.pipe(upstream).pipe(socket);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
process.stdout.write(`${JSON.stringify({ url: `https://127.0.0.1:${server.address().port}` })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  server.close();
  messages.close().then(() => process.exit(0));
});
