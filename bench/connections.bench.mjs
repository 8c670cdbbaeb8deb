// Issue 16: the connections a session opens to the Messages API, and what each costs the host. A
// session of tool turns through anthropicModel (the real SDK, Node's fetch) against the loopback
// Messages server behind TLS in another process (a certificate made with `openssl` for the run):
// the TLS connections it opens, and the CPU time and wall time of this process per session. The
// bare SDK doing the same turns by hand is the floor. `BENCH_BASE=<other build's dist/ folder>`
// measures that build too, alternated session by session (before the fix in bench/README's
// thirty-ninth round, a turn cut its response short and opened a new connection for the next).
// Run with `npm run bench:connections`; `--full` for more sessions. Exits non-zero only when
// something crashes.
import { execFileSync, spawn } from 'node:child_process';
import { channel } from 'node:diagnostics_channel';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { environmentHeader, fullRun, verdict } from './lib/environment.mjs';
import { median } from './lib/stats.mjs';
import { renderTable } from './lib/table.mjs';

const TOOL_TURNS = Number(process.env.BENCH_TOOL_TURNS ?? 20);
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? (fullRun ? 30 : 10));
const MODEL = 'claude-sonnet-4-6';
/** Goal: a session of turns made one after the other keeps its connections (one, and one more while a body ends). */
const GOAL_CONNECTIONS = 2;
/** How long after message_stop the server ends each body: at once, and in a later packet. */
const END_GAPS_MS = [0, 1];

/** A self-signed certificate for 127.0.0.1, made by openssl in `folder`; undefined without openssl. */
function certificate(folder) {
  const cert = path.join(folder, 'cert.pem');
  const key = path.join(folder, 'key.pem');
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert], { stdio: 'ignore' });
  } catch {
    return undefined;
  }
  return { cert, key };
}

// Node reads NODE_EXTRA_CA_CERTS at start only: the measuring process is a child that trusts the run's certificate.
if (process.env.BENCH_CONNECTIONS_CHILD === undefined) {
  const folder = mkdtempSync(path.join(tmpdir(), 'agent-harness-connections-'));
  try {
    const files = certificate(folder);
    if (files === undefined) {
      console.log('connections benchmark skipped: `openssl` is not on the PATH (it makes the certificate of the TLS server)');
    } else {
      const child = spawn(process.execPath, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
        stdio: 'inherit',
        env: { ...process.env, NODE_EXTRA_CA_CERTS: files.cert, BENCH_CONNECTIONS_CHILD: JSON.stringify(files) },
      });
      const [code] = await once(child, 'exit');
      process.exitCode = code ?? 1;
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
} else {
  await measure(JSON.parse(process.env.BENCH_CONNECTIONS_CHILD));
}

async function startServer(files, endGapMs) {
  const script = fileURLToPath(new URL('./lib/tls-messages-server-process.mjs', import.meta.url));
  const child = spawn(process.execPath, [script, files.cert, files.key, String(TOOL_TURNS), String(endGapMs)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const [line] = await once(createInterface({ input: child.stdout }), 'line');
  return { url: JSON.parse(line).url, stop: () => child.stdin.end() };
}

async function measure(files) {
  const started = performance.now();
  const own = fileURLToPath(new URL('../dist', import.meta.url));
  const builds = { this: own, ...(process.env.BENCH_BASE ? { base: path.resolve(process.env.BENCH_BASE) } : {}) };
  console.log(environmentHeader('agent-harness connections benchmark (issue 16): connections a session opens, over TLS, server out of process', { quick: !fullRun, extra: [`${SESSIONS} sessions of ${TOOL_TURNS} tool turns + the answer per side and gap`, ...(builds.base ? [`BENCH_BASE=${builds.base}`] : [])] }));
  const { default: Anthropic } = await import('@anthropic-ai/sdk');
  const { z } = await import('zod');
  const libs = {};
  for (const [name, dist] of Object.entries(builds)) libs[name] = await import(pathToFileURL(path.join(dist, 'index.js')).href);
  let connections = 0;
  // Held in a variable: Node 20 keeps a channel only while something references it, and its subscribers with it.
  const connected = channel('undici:client:connected');
  connected.subscribe(() => connections++);
  const rows = [];
  for (const endGapMs of END_GAPS_MS) {
    const server = await startServer(files, endGapMs);
    try {
      const sides = { bare: bareSession(new Anthropic({ apiKey: 'bench', baseURL: server.url, maxRetries: 0 })) };
      for (const [name, lib] of Object.entries(libs)) {
        const note = lib.defineTool({ name: 'note', description: 'Takes a note.', inputSchema: z.object({ text: z.string() }), readOnly: true, execute: ({ input }) => `Noted: ${input.text}` });
        const model = lib.anthropicModel({ model: MODEL, client: new Anthropic({ apiKey: 'bench', baseURL: server.url, maxRetries: 0 }) });
        sides[name] = async () => {
          const result = await lib.createAgent({ model, tools: [note], todoWrite: false, exitPlanMode: false }).run('Take the notes.').result;
          if (result.status !== 'completed' || result.turns !== TOOL_TURNS + 1) throw new Error(`${name}: the run ended ${result.status} after ${result.turns} turns: ${result.error?.message}`);
        };
      }
      const samples = Object.fromEntries(Object.keys(sides).map((name) => [name, { connections: [], cpuMs: [], wallMs: [] }]));
      for (const side of Object.values(sides)) await side(); // warm-up (the first connection, code compiled)
      for (let session = 0; session < SESSIONS; session++) {
        const names = Object.keys(sides);
        if (session % 2 === 1) names.reverse();
        for (const name of names) {
          const before = connections;
          const cpu = process.cpuUsage();
          const wall = performance.now();
          await sides[name]();
          samples[name].wallMs.push(performance.now() - wall);
          const used = process.cpuUsage(cpu);
          samples[name].cpuMs.push((used.user + used.system) / 1000);
          samples[name].connections.push(connections - before);
        }
      }
      const gap = endGapMs === 0 ? 'body ends right after message_stop' : `body ends ${endGapMs} ms after message_stop`;
      for (const [name, sample] of Object.entries(samples)) {
        const label = name === 'bare' ? 'bare SDK, the same turns by hand' : name === 'this' ? 'agent (this build)' : 'agent (BENCH_BASE)';
        const opened = median(sample.connections);
        rows.push([
          `${gap}; ${label}: connections opened per session (median; max ${Math.max(...sample.connections)})`,
          String(opened),
          name === 'bare' ? '—' : `≤ ${GOAL_CONNECTIONS}`,
          name === 'bare' ? 'info' : verdict(opened <= GOAL_CONNECTIONS),
        ]);
        rows.push(['  CPU time of this process per session (median)', `${median(sample.cpuMs).toFixed(1)} ms`, '—', 'info']);
        rows.push(['  wall time per session (median)', `${median(sample.wallMs).toFixed(1)} ms`, '—', 'info']);
      }
    } finally {
      server.stop();
    }
  }
  console.log(renderTable(['measure', 'value', 'goal', 'result'], rows));
  console.log(`\nA session: createAgent + run of ${TOOL_TURNS} tool turns and the answer (${TOOL_TURNS + 1} model calls), the sessions one after the other; every client shares Node's connection pool.`);
  console.log('On the loopback a handshake costs CPU but next to no wait; to the API each new connection also waits a TCP and a TLS round trip before the request goes.');
  console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s; a MISS is reported, not an exit code)`);
}

/** The same session by hand on the bare SDK: the tool call, its result, until the answer. */
function bareSession(client) {
  const tools = [{ name: 'note', description: 'Takes a note.', input_schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } }];
  return async () => {
    const messages = [{ role: 'user', content: 'Take the notes.' }];
    for (;;) {
      const message = await client.messages.stream({ model: MODEL, max_tokens: 8192, tools, messages }).finalMessage();
      const use = message.content.find((block) => block.type === 'tool_use');
      if (use === undefined) return;
      messages.push({ role: 'assistant', content: message.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: `Noted: ${use.input.text}` }] });
    }
  };
}
