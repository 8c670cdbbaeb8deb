// Benchmark: subagents (issue 13). Run after `npm run build` (it loads dist/):
//   node --expose-gc bench/subagents.bench.mjs
//
// 1. The overhead of starting a subagent, and of one subagent turn, against a main-agent turn.
// 2. 50 subagents started in one batch (in parallel) against 50 separate agents run with
//    Promise.all doing the same work: wall time and peak heap.
// The model is the fake one of bench/lib (answers at once, records nothing). Prints one table.
import { z } from 'zod';
import { createAgent, defineTool } from '../dist/index.js';
import { fakeModel, toolTurnsModel, toolUses } from './lib/fake-model.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
/** Runs of each kind before any is measured (`BENCH_WARMUP`). */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1500);
const PARALLEL = 50;
const gc = globalThis.gc ?? (() => undefined);
const noop = defineTool({ name: 'noop', description: 'Does nothing.', inputSchema: z.object({}), readOnly: true, execute: () => 'ok' });
const wait = defineTool({ name: 'wait', description: 'Waits 5 ms.', inputSchema: z.object({}), readOnly: true, execute: () => new Promise((resolve) => setTimeout(() => resolve('ok'), 5)) });

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const us = (ms) => `${(ms * 1000).toFixed(0)} µs`;

async function time(make, runs = RUNS) {
  const samples = [];
  for (let index = 0; index < runs; index++) {
    const agent = make();
    const started = performance.now();
    const result = await agent.run('Go.').result;
    samples.push(performance.now() - started);
    if (result.status !== 'completed') throw new Error(`run ended ${result.status}: ${result.error?.message}`);
  }
  return median(samples);
}

/** A parent whose first turn makes `calls` Agent calls, then ends. */
function parentModel(calls, type = 'worker') {
  let id = 0;
  return fakeModel({
    decide: (request) =>
      request.messages.length === 1
        ? Array.from({ length: calls }, () => ({ type: 'tool_use', id: `toolu_agent_${id++}`, name: 'Agent', input: { description: 'job', prompt: 'Do the job.', subagent_type: type } }))
        : [{ type: 'text', text: 'Done.' }],
  });
}

const worker = (toolTurns, tool = 'noop') => ({ description: 'A worker.', prompt: 'You work.', model: toolTurnsModel({ toolName: tool, toolTurns }) });

// Warm-up: enough runs for V8 to optimize both paths (with 50 each, a subagent's start read about
// twice its steady cost: 251 against 109 µs, bench/README thirty-seventh round).
await time(() => createAgent({ model: toolTurnsModel({ toolName: 'noop', toolTurns: 5 }), tools: [noop] }), WARMUP);
await time(() => createAgent({ model: parentModel(1), tools: [noop], agents: { worker: worker(5) } }), WARMUP);
await time(() => createAgent({ model: parentModel(1), tools: [noop], agents: { worker: worker(0) } }), WARMUP);

// 1. Turns.
const TURNS = 20;
const mainShort = await time(() => createAgent({ model: toolTurnsModel({ toolName: 'noop', toolTurns: 1 }), tools: [noop] }));
const mainLong = await time(() => createAgent({ model: toolTurnsModel({ toolName: 'noop', toolTurns: 1 + TURNS }), tools: [noop], maxTurns: 50 }));
const mainTurn = (mainLong - mainShort) / TURNS;
// The same parent turn calling Agent (a subagent that answers at once) instead of a tool.
const withTool = await time(() => createAgent({ model: fakeModel({ decide: (request) => (request.messages.length === 1 ? toolUses('noop', 1) : [{ type: 'text', text: 'Done.' }]) }), tools: [noop] }));
const withSubagent = await time(() => createAgent({ model: parentModel(1), tools: [noop], agents: { worker: worker(0) } }));
const start = withSubagent - withTool;
const subShort = await time(() => createAgent({ model: parentModel(1), tools: [noop], agents: { worker: worker(1) } }));
const subLong = await time(() => createAgent({ model: parentModel(1), tools: [noop], maxTurns: 50, agents: { worker: { ...worker(1 + TURNS), maxTurns: 50 } } }));
const subTurn = (subLong - subShort) / TURNS;

// 2. 50 in parallel: each does 5 turns of a 5 ms tool.
async function peak(work) {
  gc();
  gc();
  const base = process.memoryUsage().heapUsed;
  let top = base;
  const timer = setInterval(() => (top = Math.max(top, process.memoryUsage().heapUsed)), 2);
  const started = performance.now();
  await work();
  const wall = performance.now() - started;
  clearInterval(timer);
  top = Math.max(top, process.memoryUsage().heapUsed);
  return { wall, peak: top - base };
}
const rounds = 5;
const subagentRounds = [];
const separateRounds = [];
for (let round = 0; round < rounds; round++) {
  subagentRounds.push(
    await peak(async () => {
      const parent = createAgent({ model: parentModel(PARALLEL), tools: [wait], maxToolConcurrency: PARALLEL, maxSubagentConcurrency: PARALLEL, agents: { worker: worker(5, 'wait') } });
      const result = await parent.run('Go.').result;
      if (result.subagents?.length !== PARALLEL) throw new Error('not every subagent ran');
    }),
  );
  separateRounds.push(
    await peak(async () => {
      const model = toolTurnsModel({ toolName: 'wait', toolTurns: 5 });
      await Promise.all(Array.from({ length: PARALLEL }, () => createAgent({ model, tools: [wait] }).run('Do the job.').result));
    }),
  );
}
const pick = (list, key) => median(list.map((entry) => entry[key]));

const rows = [
  ['main-agent turn (one noop tool call)', us(mainTurn)],
  ['subagent turn (one noop tool call, inside an Agent call)', us(subTurn)],
  ['starting a subagent (Agent call answering at once, minus a noop call)', us(start)],
  [`${PARALLEL} subagents in one batch, 5 turns of a 5 ms tool each: wall`, `${pick(subagentRounds, 'wall').toFixed(1)} ms`],
  [`${PARALLEL} separate agents (Promise.all), same work: wall`, `${pick(separateRounds, 'wall').toFixed(1)} ms`],
  [`${PARALLEL} subagents: peak heap above base`, `${(pick(subagentRounds, 'peak') / 1e6).toFixed(1)} MB`],
  [`${PARALLEL} separate agents: peak heap above base`, `${(pick(separateRounds, 'peak') / 1e6).toFixed(1)} MB`],
];
const width = Math.max(...rows.map(([label]) => label.length));
console.log(`subagents benchmark (${RUNS} runs per median after ${WARMUP} of each kind, ${rounds} rounds of ${PARALLEL}; Node ${process.version})`);
for (const [label, value] of rows) console.log(`${label.padEnd(width)}  ${value}`);
