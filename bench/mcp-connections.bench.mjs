// Issue 16: what an MCP server costs a host that makes an agent per request. Each request is
// `createAgent` with one MCP server, a run with one call to its tool and the answer, then
// `agent.close()`: with the agent's own connection (connected before its first request, closed
// with it) and with a `sharedMcpServer()` (connected once, lent to every agent). For an in-process
// server with one tool and with 101, and a stdio server (a Node child process). Run with `npm run bench:mcp-connections`
// (builds first); `--full` for more rounds. Info rows, no goal.
import { cpuUsage } from 'node:process';
import { loadBuilds } from './lib/builds.mjs';
import { environmentHeader, fullRun } from './lib/environment.mjs';
import { fakeModel } from './lib/fake-model.mjs';
import { makeNotesServer, notesServerScript } from './lib/notes-mcp-server.mjs';
import { median } from './lib/stats.mjs';
import { renderTable } from './lib/table.mjs';

const started = performance.now();
const ROUNDS = fullRun ? 9 : 5;
/** Requests per batch: stdio batches start a process per request with the agent's own connection. */
const BATCH = { 'in-process': fullRun ? 200 : 100, 'in-process, 101 tools': fullRun ? 40 : 20, stdio: fullRun ? 20 : 10 };
const { lib, node } = (await loadBuilds()).this;

const model = fakeModel({
  decide: (request) =>
    request.messages.length === 1 ? [{ type: 'tool_use', id: `toolu_${request.messages.length}`, name: 'mcp__notes__list_notes', input: {} }] : [{ type: 'text', text: 'Done.' }],
});
const servers = {
  'in-process': () => ({ type: 'sdk', server: makeNotesServer }),
  'in-process, 101 tools': () => ({ type: 'sdk', server: () => makeNotesServer({ extraTools: 100 }) }),
  stdio: () => node.stdioMcpServer({ command: process.execPath, args: [notesServerScript] }),
};
const shared = Object.fromEntries(Object.entries(servers).map(([kind, config]) => [kind, lib.sharedMcpServer({ name: 'notes', server: config() })]));

/** One request: an agent, a run with one MCP call, the agent closed. */
async function request(mcpServer) {
  const agent = lib.createAgent({ model, mcpServers: { notes: mcpServer } });
  const result = await agent.run('What is on the list?').result;
  await agent.close();
  if (result.status !== 'completed' || result.text !== 'Done.') throw new Error(`unexpected run: ${result.status}`);
}

/** Wall and own-process CPU per request, over a batch. */
async function batch(kind, mode) {
  const count = BATCH[kind];
  const cpu = cpuUsage();
  const wall = performance.now();
  for (let index = 0; index < count; index++) await request(mode === 'shared' ? shared[kind] : servers[kind]());
  const used = cpuUsage(cpu);
  return { wall: ((performance.now() - wall) * 1000) / count, cpu: (used.user + used.system) / count };
}

const cases = Object.keys(servers).flatMap((kind) => ['own', 'shared'].map((mode) => ({ kind, mode })));
const samples = new Map(cases.map((item) => [item, []]));
for (const { kind, mode } of cases) await batch(kind, mode); // warm-up
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 ? [...cases].reverse() : cases;
  for (const item of order) samples.get(item).push(await batch(item.kind, item.mode));
}
await Promise.all(Object.values(shared).map((server) => server.close()));

const time = (us) => (us >= 1000 ? `${(us / 1000).toFixed(2)} ms` : `${us.toFixed(0)} µs`);
const rows = cases.map((item) => {
  const wall = median(samples.get(item).map((sample) => sample.wall));
  const cpu = median(samples.get(item).map((sample) => sample.cpu));
  const own = cases.find((other) => other.kind === item.kind && other.mode === 'own');
  const ownWall = median(samples.get(own).map((sample) => sample.wall));
  return [
    `${item.kind} server, ${item.mode === 'own' ? "the agent's own connection" : 'sharedMcpServer()'}`,
    time(wall),
    time(cpu),
    item.mode === 'own' ? '' : `${(ownWall / wall).toFixed(1)}× faster`,
  ];
});
console.log(environmentHeader('agent-harness MCP connections benchmark (issue 16): an agent per request, each with one MCP server and one call to it', { quick: !fullRun }));
console.log(`${ROUNDS} rounds; batches of ${Object.entries(BATCH).map(([kind, size]) => `${size} (${kind})`).join(', ')} requests; medians of the batches' means per request\n`);
console.log(renderTable(['request (createAgent, run with one MCP call, close)', 'wall', 'CPU of this process', 'shared vs own'], rows));
console.log('\nCPU of this process leaves out the stdio server processes (started per request with an own connection).');
console.log(`\n(${((performance.now() - started) / 1000).toFixed(1)} s; info rows, no goal)`);
