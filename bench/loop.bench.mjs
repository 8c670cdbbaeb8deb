// Benchmark of the agent loop (issue 2). Run with `npm run bench` (builds, then
// `node --expose-gc bench/loop.bench.mjs`). Exits non-zero only when something crashes; a missed
// goal prints MISS. See bench/README.md for the method and caveats.
import os from 'node:os';
import { z } from 'zod';
import { createAgent, defineTool } from '../dist/index.js';
import { fakeModel, toolTurnsModel } from './lib/fake-model.mjs';
import { phaseBreakdown } from './lib/phases.mjs';
import { gaps, mean, median, quantile, settledHeap } from './lib/stats.mjs';
import { renderTable } from './lib/table.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const SIZES = [50, 200, 1000];
const PARALLEL_CALLS = 8;
const PARALLEL_WAIT_MS = 5;
const PARALLEL_TURNS = 200;
const IDLE_AGENTS = 1000;
const IDLE_TURNS = 20;

const GOAL_TURN_US = 50;
const GOAL_FLAT_RATIO = 1.25;
const GOAL_PARALLEL_MS = 6;
const GOAL_HEAP_BYTES = 20_000;

const trivialTool = defineTool({
  name: 'trivial',
  description: 'Returns ok at once.',
  inputSchema: z.object({}),
  readOnly: true,
  execute: () => 'ok',
});

const waitTool = defineTool({
  name: 'wait',
  description: `Waits ${PARALLEL_WAIT_MS} ms, then returns ok.`,
  inputSchema: z.object({}),
  readOnly: true,
  execute: () => new Promise((resolve) => setTimeout(resolve, PARALLEL_WAIT_MS, 'ok')),
});

/**
 * One run of `toolTurns` turns with `callsPerTurn` calls each (plus the final text turn) on a
 * fresh agent. Returns the duration of every tool turn in ms: the time between consecutive
 * model calls.
 */
async function timedRun({ tool, toolTurns, callsPerTurn = 1, consumeEvents = false }) {
  const calls = [];
  const model = toolTurnsModel({ toolName: tool.name, toolTurns, callsPerTurn, onCall: (now) => calls.push(now) });
  const agent = createAgent({ model, tools: [tool], maxTurns: toolTurns + 1 });
  const run = agent.run('Go.');
  if (consumeEvents) for await (const _event of run);
  const result = await run.result;
  if (result.status !== 'completed' || result.turns !== toolTurns + 1) {
    throw new Error(`bench run ended ${result.status} after ${result.turns} turns${result.error ? `: ${result.error.message}` : ''}`);
  }
  return gaps(calls);
}

async function perTurnOverhead() {
  // Warm-up: 3,000 turns. With only ~600, V8 has not optimized the loop yet and turns are ~2× slower.
  for (let index = 0; index < 15; index++) await timedRun({ tool: trivialTool, toolTurns: 200 });
  const bySize = new Map(SIZES.map((size) => [size, { medians: [], means: [], p95s: [], first: [], last: [] }]));
  // Sizes interleaved, so drift (heap growth, CPU frequency, neighbours) spreads over all of them.
  for (let run = 0; run < RUNS; run++) {
    for (const size of SIZES) {
      const turns = (await timedRun({ tool: trivialTool, toolTurns: size })).map((ms) => ms * 1000);
      const stats = bySize.get(size);
      stats.medians.push(median(turns));
      stats.means.push(mean(turns));
      stats.p95s.push(quantile(turns, 0.95));
      const tenth = Math.max(1, Math.floor(size / 10));
      stats.first.push(...turns.slice(0, tenth));
      stats.last.push(...turns.slice(-tenth));
    }
  }
  const consumed = [];
  for (let run = 0; run < RUNS; run++) {
    consumed.push(median((await timedRun({ tool: trivialTool, toolTurns: 200, consumeEvents: true })).map((ms) => ms * 1000)));
  }
  return { bySize, consumedMedian: median(consumed) };
}

async function parallelTurn() {
  await timedRun({ tool: waitTool, toolTurns: 20, callsPerTurn: PARALLEL_CALLS }); // warm-up
  const turns = await timedRun({ tool: waitTool, toolTurns: PARALLEL_TURNS, callsPerTurn: PARALLEL_CALLS });
  // The floor: the same 8 timers awaited with Promise.all, no agent.
  const floor = [];
  for (let index = 0; index < PARALLEL_TURNS; index++) {
    const started = performance.now();
    await Promise.all(Array.from({ length: PARALLEL_CALLS }, () => new Promise((resolve) => setTimeout(resolve, PARALLEL_WAIT_MS))));
    floor.push(performance.now() - started);
  }
  return { median: median(turns), p95: quantile(turns, 0.95), floor: median(floor) };
}

async function idleAgentHeap() {
  const model = toolTurnsModel({ toolName: trivialTool.name, toolTurns: IDLE_TURNS });
  const options = { model, tools: [trivialTool], maxTurns: IDLE_TURNS + 1 };
  const makeIdle = async (index) => {
    const agent = createAgent(options);
    const result = await agent.run(`Prompt ${index}.`).result;
    if (result.status !== 'completed') throw new Error(`idle-agent setup run ended ${result.status}`);
    return agent;
  };
  // Warm-up: compile everything the measured phase will use, so code is not counted as data.
  for (let index = 0; index < 20; index++) JSON.parse(JSON.stringify((await makeIdle(index)).messages));

  const base = await settledHeap();
  let agents = [];
  for (let index = 0; index < IDLE_AGENTS; index++) agents.push(await makeIdle(index));
  const withAgents = await settledHeap();
  const copies = agents.map((agent) => JSON.parse(JSON.stringify(agent.messages)));
  const messageCount = copies[0].length;
  agents = undefined;
  const copiesOnly = await settledHeap();
  const perAgent = (withAgents - base) / IDLE_AGENTS;
  const messagesPerAgent = (copiesOnly - base) / IDLE_AGENTS;
  if (copies.length !== IDLE_AGENTS) throw new Error('lost the copies');

  // Breakdown: agents that never ran (empty history), with and without the built-in tools.
  const fresh = async (extra) => {
    const before = await settledHeap();
    const held = Array.from({ length: IDLE_AGENTS }, () => createAgent({ ...options, ...extra }));
    const after = await settledHeap();
    if (held.length !== IDLE_AGENTS) throw new Error('lost the agents');
    return (after - before) / IDLE_AGENTS;
  };
  const freshDefault = await fresh({});
  const freshNoBuiltins = await fresh({ todoWrite: false, exitPlanMode: false });
  return { perAgent, messagesPerAgent, beyond: perAgent - messagesPerAgent, messageCount, freshDefault, freshNoBuiltins };
}

/** Median time of one `createAgent` call, in µs, over 9 rounds of 1,000. */
function createAgentTime(extra) {
  const model = fakeModel({ decide: () => [] });
  const rounds = [];
  for (let round = 0; round < 10; round++) {
    const started = performance.now();
    for (let index = 0; index < 1000; index++) createAgent({ model, ...extra });
    if (round > 0) rounds.push(performance.now() - started); // round 0 is warm-up; ms per 1,000 = µs each
  }
  return median(rounds);
}

const us = (value) => `${value.toFixed(1)} µs`;
const ms = (value) => `${value.toFixed(2)} ms`;
const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;
const verdict = (ok) => (ok ? 'PASS' : 'MISS');

async function main() {
  if (typeof global.gc !== 'function') throw new Error('run with node --expose-gc (npm run bench does)');
  const started = performance.now();
  const cores = os.availableParallelism?.() ?? os.cpus().length;
  console.log(`agent-harness loop benchmark — node ${process.version}, ${cores} cores, ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${RUNS} runs per size\n`);

  const { bySize, consumedMedian } = await perTurnOverhead();
  // Optional diagnostics, measured while the loop is warm and the heap small.
  const phases = process.env.BENCH_PHASES ? await phaseBreakdown({ createAgent, tool: trivialTool, toolTurns: 200, runs: RUNS }) : undefined;
  const parallel = await parallelTurn();
  const heap = await idleAgentHeap();
  const createDefault = createAgentTime({});
  const createBare = createAgentTime({ todoWrite: false, exitPlanMode: false });

  const rows = [];
  const medianOf = (size) => median(bySize.get(size).medians);
  for (const size of SIZES) {
    const stats = bySize.get(size);
    const value = medianOf(size);
    rows.push([`per-turn overhead, ${size} turns (median; mean ${median(stats.means).toFixed(1)}, p95 ${median(stats.p95s).toFixed(1)})`, us(value), `< ${GOAL_TURN_US} µs`, verdict(value < GOAL_TURN_US)]);
  }
  const big = bySize.get(1000);
  const across = medianOf(1000) / medianOf(50);
  const within = median(big.last) / median(big.first);
  rows.push([`flatness: median 1000 turns / median 50 turns`, `${across.toFixed(2)}×`, `≤ ${GOAL_FLAT_RATIO}×`, verdict(across <= GOAL_FLAT_RATIO)]);
  rows.push([`flatness: turns 901-1000 / turns 1-100 (${us(median(big.last))} / ${us(median(big.first))})`, `${within.toFixed(2)}×`, `≤ ${GOAL_FLAT_RATIO}×`, verdict(within <= GOAL_FLAT_RATIO)]);
  rows.push(['per-turn, 200 turns, events consumed with for await', us(consumedMedian), '—', 'info']);
  rows.push([`${PARALLEL_CALLS}-way turn, ${PARALLEL_WAIT_MS} ms tools (median of ${PARALLEL_TURNS}; p95 ${ms(parallel.p95)})`, ms(parallel.median), `< ${GOAL_PARALLEL_MS} ms`, verdict(parallel.median < GOAL_PARALLEL_MS)]);
  rows.push([`  floor: ${PARALLEL_CALLS} bare setTimeout(${PARALLEL_WAIT_MS}) with Promise.all`, ms(parallel.floor), '—', 'info']);
  rows.push([`heap per idle agent beyond its messages (${IDLE_AGENTS} agents, ${IDLE_TURNS}-turn histories)`, kb(heap.beyond), `< ${kb(GOAL_HEAP_BYTES)}`, verdict(heap.beyond < GOAL_HEAP_BYTES)]);
  rows.push([`  heap per idle agent, total`, kb(heap.perAgent), '—', 'info']);
  rows.push([`  heap of its ${heap.messageCount} messages alone (JSON copies)`, kb(heap.messagesPerAgent), '—', 'info']);
  rows.push([`  heap per fresh agent (no run)`, kb(heap.freshDefault), '—', 'info']);
  rows.push([`  heap per fresh agent, todoWrite and exitPlanMode off`, kb(heap.freshNoBuiltins), '—', 'info']);
  rows.push(['createAgent() time (default options)', us(createDefault), '—', 'info']);
  rows.push(['createAgent() time, todoWrite and exitPlanMode off', us(createBare), '—', 'info']);
  console.log(renderTable(['measure', 'value', 'goal', 'result'], rows));
  if (phases) {
    console.log(`\nPhases of a one-call turn (median µs over ${phases[0].count} turns, listeners on 4 event types):\n`);
    console.log(renderTable(['µs', 'from → to', 'what runs in between'], phases.map((phase) => [phase.medianUs.toFixed(2), `${phase.from} → ${phase.to}`, phase.what])));
  }
  console.log(`\n(${((performance.now() - started) / 1000).toFixed(1)} s; KB = 1000 bytes; a MISS is reported, not an exit code)`);
}

main().catch((error) => {
  console.error('benchmark crashed:', error);
  process.exitCode = 1;
});
