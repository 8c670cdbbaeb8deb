// What a session store costs an agent's turn (issue 16, twenty-seventh round): an agent with a
// store writes its transcript as it goes and waits for it twice a turn (a tool runs only once its
// call is stored; a model call only once the results are), so every append in the way is a disk
// write, a WAL flush or a round trip the turn waits for. For each store: the appends per turn, the
// wall time per turn, and the CPU time per turn (`process.cpuUsage`: libuv's thread pool included),
// for turns of one tool call (answering at once, or on a later turn of the event loop as a tool
// doing I/O does: fortieth round) and turns of four parallel calls (the same two ways), through an
// instant fake model and a trivial read-only tool, with the KB each turn stores; and per run, for a new session's whole run and for a chat answer of an
// agent kept between runs (twenty-eighth round), and per request for a host that makes its store
// and agent per request on a short session (thirtieth round). Info rows: the issue sets no goal on them.
//
// Run: `npm run bench:store-turns` (builds first); `--full` for the full sizes;
// `BENCH_BASE=<other build's dist/ folder>` measures that build too, alternated run by run.
// PostgreSQL and Redis are the loopback servers the tests use (or `AGENT_HARNESS_PG_URL` /
// `AGENT_HARNESS_REDIS_URL`), each with a schema or key prefix of its own, dropped at the end; a
// server that does not answer is left out with one line.
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { base, loadBuilds } from './lib/builds.mjs';
import { environmentHeader, fullRun } from './lib/environment.mjs';
import { fakeModel, toolUses } from './lib/fake-model.mjs';
import { remoteStores } from './lib/remote-stores.mjs';
import { median } from './lib/stats.mjs';
import { renderTable } from './lib/table.mjs';

const started = performance.now();
const TURNS = fullRun ? 100 : 40;
const ROUNDS = fullRun ? 9 : 5;
/** New sessions per cell of the short-run rows. */
const SHORT_RUNS = fullRun ? 40 : 20;
const builds = await loadBuilds();
const names = Object.keys(builds);
const tag = `bench_store_turns_${process.pid}`;

/** The trivial tool of each build (a tool belongs to the build that defined it). */
const tools = new Map(
  Object.values(builds).map((build) => [
    build,
    build.lib.defineTool({ name: 'note', description: 'Returns a short note.', inputSchema: z.object({}), readOnly: true, execute: () => 'A short note.' }),
  ]),
);

/**
 * A tool answering 50 KB of prose with a typographic apostrophe every 49 characters (thirty-sixth
 * round): V8 keeps such text two bytes a character, so a turn's two entries that carry it (the
 * result and the user message) are each about 100 KB as JSON.
 */
const LONG_TEXT = 'The writer’s draft said the tide pools were full. '.repeat(1000).slice(0, 50_000);
const longTools = new Map(
  Object.values(builds).map((build) => [
    build,
    build.lib.defineTool({ name: 'read_draft', description: 'Returns the draft.', inputSchema: z.object({}), readOnly: true, execute: () => LONG_TEXT }),
  ]),
);

/**
 * The trivial tool answering on a later turn of the event loop (`setImmediate`), as a tool doing
 * I/O does (fortieth round): its answer comes after the loop's step, not in it.
 */
const laterTools = new Map(
  Object.values(builds).map((build) => [
    build,
    build.lib.defineTool({
      name: 'note',
      description: 'Returns a short note.',
      inputSchema: z.object({}),
      readOnly: true,
      execute: () => new Promise((resolve) => setImmediate(() => resolve('A short note.'))),
    }),
  ]),
);

/** `store` with its appends counted. */
function counted(store) {
  const counter = { appends: 0 };
  const wrapped = Object.create(store);
  wrapped.append = (sessionId, entries, options) => {
    counter.appends += 1;
    return store.append(sessionId, entries, options);
  };
  // The store's own optional parts (leases, close) stay reachable through the prototype.
  return { store: wrapped, counter };
}

/** A new session of `toolTurns` turns of `calls` calls each, then the answer; `timed` is called around the run alone. */
async function session(build, store, sessionId, toolTurns, calls, timed = (work) => work(), tool = tools.get(build)) {
  let turns = 0;
  const model = fakeModel({ decide: () => (++turns <= toolTurns ? toolUses(tool.name, calls) : [{ type: 'text', text: 'Done.' }]) });
  const agent = build.lib.createAgent({ model, tools: [tool], store, sessionId, maxTurns: toolTurns + 1 });
  const result = await timed(() => agent.run('Take notes.').result);
  await agent.close();
  if (result.status !== 'completed') throw new Error(`the run ended ${result.status}: ${result.error?.message}`);
}

/**
 * One run of `TURNS` turns of `calls` calls each (`'long'`: one call to the tool answering 50 KB;
 * `'later'` / `'4 later'`: one or four calls to the tool answering on a later turn of the event
 * loop), then the answer: appends, wall and CPU per turn, and the KB of entries stored per turn
 * (read back after the run, outside the timing).
 */
async function run(build, makeStore, sessionId, calls) {
  const { store, counter } = counted(makeStore(build));
  let elapsed = 0;
  let used;
  const long = calls === 'long';
  const later = calls === 'later' || calls === '4 later';
  await session(build, store, sessionId, TURNS, long || calls === 'later' ? 1 : later ? 4 : calls, async (work) => {
    const cpu = process.cpuUsage();
    const wall = performance.now();
    const result = await work();
    elapsed = performance.now() - wall;
    used = process.cpuUsage(cpu);
    return result;
  }, long ? longTools.get(build) : later ? laterTools.get(build) : undefined);
  let bytes = 0;
  for await (const entry of store.load(sessionId)) bytes += Buffer.byteLength(JSON.stringify(entry));
  return { appends: counter.appends / (TURNS + 1), wallMs: elapsed / (TURNS + 1), cpuUs: (used.user + used.system) / (TURNS + 1), kb: bytes / 1000 / (TURNS + 1) };
}

/** `SHORT_RUNS` new sessions of one tool turn and the answer, each closed: appends and wall time per run. */
async function shortRuns(build, makeStore, prefix) {
  const { store, counter } = counted(makeStore(build));
  const wall = performance.now();
  for (let index = 0; index < SHORT_RUNS; index++) await session(build, store, `${prefix}_${index}`, 1, 1);
  return { appends: counter.appends / SHORT_RUNS, wallMs: (performance.now() - wall) / SHORT_RUNS, cpuUs: 0 };
}

/** One agent answering `SHORT_RUNS` chat prompts, each a run of one answer (no tools): appends and wall time per run. */
async function chatRuns(build, makeStore, sessionId) {
  const { store, counter } = counted(makeStore(build));
  const model = fakeModel({ decide: () => [{ type: 'text', text: 'Hello.' }] });
  const agent = build.lib.createAgent({ model, store, sessionId });
  const first = await agent.run('Hi.').result;
  if (first.status !== 'completed') throw new Error(`the run ended ${first.status}: ${first.error?.message}`);
  const before = counter.appends;
  const wall = performance.now();
  for (let index = 0; index < SHORT_RUNS; index++) {
    const result = await agent.run('And now?').result;
    if (result.status !== 'completed') throw new Error(`the run ended ${result.status}: ${result.error?.message}`);
  }
  const elapsed = performance.now() - wall;
  await agent.close();
  return { appends: (counter.appends - before) / SHORT_RUNS, wallMs: elapsed / SHORT_RUNS, cpuUs: 0 };
}

/**
 * A host that makes its store and agent per request (thirtieth round): a short chat session
 * resumed `SHORT_RUNS` times, each request a new store and agent that resume it, answer once and
 * close: appends, wall time and CPU per request. (The memory store holds its sessions itself: one
 * store serves every request.)
 */
async function requests(build, makeStore, sessionId, perRequest) {
  const model = fakeModel({ decide: () => [{ type: 'text', text: 'Hello.' }] });
  const kept = makeStore(build);
  const storeOf = perRequest ? () => makeStore(build) : () => kept;
  const first = build.lib.createAgent({ model, store: kept, sessionId });
  await first.run('Hi.').result;
  await first.close();
  let appends = 0;
  const cpu = process.cpuUsage();
  const wall = performance.now();
  for (let index = 0; index < SHORT_RUNS; index++) {
    const { store, counter } = counted(storeOf());
    const agent = build.lib.createAgent({ model, store, resume: sessionId });
    const result = await agent.run('And now?').result;
    await agent.close();
    if (result.status !== 'completed') throw new Error(`the request ended ${result.status}: ${result.error?.message}`);
    appends += counter.appends;
  }
  const elapsed = performance.now() - wall;
  const used = process.cpuUsage(cpu);
  return { appends: appends / SHORT_RUNS, wallMs: elapsed / SHORT_RUNS, cpuUs: (used.user + used.system) / SHORT_RUNS };
}

const KINDS = [1, 'later', 4, '4 later', 'long', 'short', 'chat', 'request'];
const label = (name, calls) =>
  calls === 'long'
    ? `${name}, 1 call a turn answering 50 KB of prose`
    : calls === 'later'
    ? `${name}, 1 call a turn answering on a later turn of the event loop`
    : calls === '4 later'
    ? `${name}, 4 calls a turn answering on a later turn of the event loop`
    : calls === 'short'
    ? `${name}, a new session's whole run (per run)`
    : calls === 'chat'
      ? `${name}, a chat answer of a live agent (per run)`
      : calls === 'request'
        ? `${name}, a request: store and agent made, resume, answer, close (per request)`
        : `${name}, ${calls} call${calls === 1 ? '' : 's'} a turn`;

const dir = fs.mkdtempSync(path.join(tmpdir(), 'bench-store-turns-'));
const remote = await remoteStores({ builds, base, tag });
const stores = [
  { name: 'memory', store: (build) => build.lib.memorySessionStore(), perRequest: false },
  { name: 'file', store: (build) => build.node.fileSessionStore({ dir: path.join(dir, 'plain') }) },
  { name: 'file, fsync', store: (build) => build.node.fileSessionStore({ dir: path.join(dir, 'synced'), fsync: true }) },
  ...remote,
];
const cells = new Map();
const cell = (key) => cells.get(key) ?? cells.set(key, []).get(key);
let sessions = 0;
try {
  for (let round = 0; round < ROUNDS + 1; round++) {
    for (const { name, store, perRequest = true } of stores) {
      for (const calls of KINDS) {
        const order = round % 2 === 0 ? names : [...names].reverse();
        for (const which of order) {
          const id = `session_bench_turns_${++sessions}`;
          const measured =
            calls === 'short'
              ? await shortRuns(builds[which], store, id)
              : calls === 'chat'
                ? await chatRuns(builds[which], store, id)
                : calls === 'request'
                  ? await requests(builds[which], store, id, perRequest)
                  : await run(builds[which], store, id, calls);
          if (round > 0) cell(`${name}|${calls}|${which}`).push(measured); // round 0 warms up
        }
      }
    }
  }
} finally {
  await Promise.all(remote.map((server) => server.dispose()));
  fs.rmSync(dir, { recursive: true, force: true });
}

const pick = (key, field) => median(cells.get(key).map((measured) => measured[field]));
const ms = (value) => (value < 1 ? `${(value * 1000).toFixed(0)} µs` : `${value.toFixed(2)} ms`);
const rows = [];
for (const { name } of stores) {
  for (const calls of KINDS) {
    const row = [label(name, calls)];
    for (const which of names) {
      const key = `${name}|${calls}|${which}`;
      row.push(
        pick(key, 'appends').toFixed(2),
        ms(pick(key, 'wallMs')),
        calls === 'short' || calls === 'chat' ? '—' : `${pick(key, 'cpuUs').toFixed(0)} µs`,
        calls === 'short' || calls === 'chat' || calls === 'request' ? '—' : pick(key, 'kb').toFixed(2),
      );
    }
    if (base) row.push(`${((pick(`${name}|${calls}|this`, 'wallMs') / pick(`${name}|${calls}|base`, 'wallMs') - 1) * 100).toFixed(0)}%`);
    rows.push(row);
  }
}
const header = ['store, turn'];
for (const which of names) header.push(`appends/turn${base ? ` (${which})` : ''}`, `wall/turn${base ? ` (${which})` : ''}`, `CPU/turn${base ? ` (${which})` : ''}`, `KB stored/turn${base ? ` (${which})` : ''}`);
if (base) header.push('wall: this vs base');

console.log(environmentHeader('agent-harness store-turns benchmark (issue 16): what a session store costs a turn', { quick: !fullRun, extra: [`${TURNS} tool turns + the answer per run, median of ${ROUNDS} runs per cell${base ? `; base build ${base}` : ''}`] }));
console.log(renderTable(header, rows));
console.log(`\n(${((performance.now() - started) / 1000).toFixed(1)} s; per turn = per model call, the answer included; CPU is the whole process's, libuv's thread pool included; a new session's whole run is createAgent + one tool turn + the answer + close(), ${SHORT_RUNS} per cell, a chat answer is one run of a text answer on an agent kept between runs, and a request is a store and an agent made to resume a short chat session, answer once and close, ${SHORT_RUNS} per cell, in the "appends/turn", "wall/turn" (and for a request "CPU/turn") columns per run or request; info rows, no goal)`);
