// Issue 16: what the loop costs on top of a bare hand-written loop, per turn and per run, and
// per turn in a long history. Run with `npm run bench:overhead` (builds, then
// `nice node --expose-gc bench/overhead.bench.mjs`); `--full` for the full sizes.
// Exits non-zero only when something crashes; a missed goal prints MISS. Method: bench/README.md.
import { getHeapSpaceStatistics } from 'node:v8';
import { z } from 'zod';
import { createAgent, defineTool } from '../dist/index.js';
import { bareLoop } from './lib/bare-loop.mjs';
import { fakeModel, toolTurnsModel } from './lib/fake-model.mjs';
import { environmentHeader, fullRun, times, us, verdict } from './lib/environment.mjs';
import { gaps, median } from './lib/stats.mjs';
import { renderTable } from './lib/table.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? (fullRun ? 7 : 3));
const SIZES = [10, 200, 1000];
const LONG = 5000;
const SHORT = 50;
const FIXED_RUNS = fullRun ? 2000 : 500; // whole runs per batch
const FIXED_BATCHES = fullRun ? 9 : 5;
/** Whole runs of each loop before any is measured: V8 optimizes the run's code over the first few thousand (with 500, the quick mode's median read about twice the steady state). */
const FIXED_WARMUP = 5000;

const GOAL_TURN_RATIO = 3;
const GOAL_FLAT = 1.25;
const GOAL_FIXED_US = 15;
const GOAL_LONG = 1.25;

const tool = defineTool({ name: 'trivial', description: 'Returns ok at once.', inputSchema: z.object({}), readOnly: true, execute: () => 'ok' });

async function agentLoop(model, prompt, maxTurns, tools = [tool]) {
  const result = await createAgent({ model, tools, maxTurns }).run(prompt).result;
  if (result.status !== 'completed') throw new Error(`bench run ended ${result.status}${result.error ? `: ${result.error.message}` : ''}`);
  return result;
}

/** Per-turn times (µs) of one run of `toolTurns` tool turns plus the final text turn (`rest`: the tool, for a loop that takes it). */
async function timedTurns(loop, toolTurns, toolName = 'trivial', ...rest) {
  const calls = [];
  const model = toolTurnsModel({ toolName, toolTurns, onCall: (now) => calls.push(now) });
  const result = await loop(model, 'Go.', toolTurns + 1, ...rest);
  if (result.turns !== toolTurns + 1) throw new Error(`expected ${toolTurns + 1} turns, got ${result.turns}`);
  return gaps(calls).map((ms) => ms * 1000);
}

async function perTurn() {
  for (let index = 0; index < 15; index++) {
    await timedTurns(agentLoop, 200);
    await timedTurns(bareLoop, 200);
  }
  const cells = new Map();
  const cell = (name) => cells.get(name) ?? cells.set(name, []).get(name);
  // Interleaved: sizes and loops alternate, so the machine's drift spreads over all of them.
  for (let run = 0; run < RUNS; run++) {
    for (const size of [...SIZES, SHORT, LONG]) {
      for (const [name, loop] of [['agent', agentLoop], ['bare', bareLoop]]) {
        if ((size === SHORT || size === LONG) && name === 'bare') continue;
        const turns = await timedTurns(loop, size);
        cell(`${name}:${size}`).push(median(turns));
        if (size === LONG) {
          cell('long:first').push(...turns.slice(0, 500));
          cell('long:last').push(...turns.slice(-500));
        }
      }
    }
  }
  return (name) => median(cells.get(name));
}

/** Turns per run of {@link largeResults}. */
const LARGE_TURNS = 200;

/**
 * A tool whose every call answers with a 50 KB text (a file read, a long log): per-turn medians of
 * the agent and of the bare loop running the same tool, interleaved, for two texts. Source code is
 * all ASCII; prose has a typographic apostrophe every 49 characters, so V8 keeps it as a two-byte
 * string. The agent estimates each result's tokens once (one pass over its text); the bare loop
 * does nothing with it.
 */
async function largeResults() {
  const texts = {
    code: 'export function add(a: number, b: number): number {\n  return a + b; // sum\n}\n'.repeat(640).slice(0, 50_000),
    prose: 'The writer’s draft said the tide pools were full. '.repeat(1000).slice(0, 50_000),
  };
  const out = {};
  for (const [kind, text] of Object.entries(texts)) {
    const large = defineTool({ name: 'large', description: 'Returns a long text.', inputSchema: z.object({}), readOnly: true, execute: () => text });
    const answer = () => text;
    const loops = [
      ['agent', () => timedTurns(agentLoop, LARGE_TURNS, 'large', [large])],
      ['bare', () => timedTurns(bareLoop, LARGE_TURNS, 'large', answer)],
    ];
    for (let index = 0; index < 3; index++) for (const [, measure] of loops) await measure();
    const cells = { agent: [], bare: [] };
    for (let run = 0; run < RUNS; run++) for (const [name, measure] of loops) cells[name].push(median(await measure()));
    out[kind] = { agent: median(cells.agent), bare: median(cells.bare) };
  }
  return out;
}

/**
 * One whole run (new session: createAgent + one tool turn + the final answer) for the agent and
 * the bare loop, their batches interleaved: the median wall time of single runs (robust to the
 * process being descheduled on a shared machine), and the CPU time per run over all of them (GC
 * included). It runs first, before the long runs have grown the heap (run after them, the same
 * build read 20–30% higher).
 */
async function fixedCosts(loops) {
  const model = toolTurnsModel({ toolName: 'trivial', toolTurns: 1 });
  for (const loop of Object.values(loops)) for (let index = 0; index < FIXED_WARMUP; index++) await loop(model, 'Go.', 2); // warm-up
  const walls = Object.fromEntries(Object.keys(loops).map((name) => [name, []]));
  const cpus = Object.fromEntries(Object.keys(loops).map((name) => [name, 0]));
  for (let batch = 0; batch < FIXED_BATCHES; batch++) {
    const names = Object.keys(loops);
    if (batch % 2 === 1) names.reverse();
    for (const name of names) {
      const loop = loops[name];
      const before = process.cpuUsage();
      for (let index = 0; index < FIXED_RUNS; index++) {
        const started = performance.now();
        await loop(model, 'Go.', 2);
        walls[name].push((performance.now() - started) * 1000);
      }
      const cpu = process.cpuUsage(before);
      cpus[name] += cpu.user + cpu.system;
    }
  }
  return Object.fromEntries(Object.keys(loops).map((name) => [name, { median: median(walls[name]), cpu: cpus[name] / walls[name].length }]));
}

/**
 * What a whole run leaves in the old generation: bytes of old space added per finished,
 * unreferenced run after two young-generation GCs (least of 3 rounds of 500 runs). Anything
 * here survived a scavenge it should not have and waits for a full mark-compact.
 */
async function promotedPerRun(loop) {
  const model = toolTurnsModel({ toolName: 'trivial', toolTurns: 1 });
  const oldSpace = () => getHeapSpaceStatistics().find((space) => space.space_name === 'old_space').space_used_size;
  const nextTask = () => new Promise((resolve) => setImmediate(resolve));
  const rounds = [];
  for (let round = 0; round < 3; round++) {
    await nextTask();
    global.gc({ type: 'major', execution: 'sync' });
    await nextTask();
    global.gc({ type: 'major', execution: 'sync' });
    const before = oldSpace();
    for (let index = 0; index < 500; index++) {
      await loop(model, 'Go.', 2);
      if (index % 50 === 0) await nextTask();
    }
    await nextTask();
    global.gc({ type: 'minor', execution: 'sync' });
    global.gc({ type: 'minor', execution: 'sync' });
    rounds.push((oldSpace() - before) / 500);
  }
  return Math.max(0, Math.min(...rounds));
}

/** Runs one after another on one agent without tools (a chat): {@link CHAT_RUNS} of them, two messages each. */
const CHAT_RUNS = fullRun ? 5000 : 2500;

/**
 * A chat agent (no tools at all: `todoWrite` and `exitPlanMode` off) answering run after run, its
 * history growing by two messages a run: the median run of the last 500 ÷ that of runs 501–1000.
 * A request without tools carries its history's tool blocks as text, and until the twenty-third
 * round the history was searched for them from its start at every request.
 */
async function chatGrowth({ afterToolCalls = false } = {}) {
  const model = fakeModel({ decide: () => [{ type: 'text', text: 'Sure.' }] });
  const agent = createAgent({ model, todoWrite: false, exitPlanMode: false, ...(afterToolCalls ? { resume: await sessionWithToolCalls() } : {}) });
  const times = [];
  for (let run = 0; run < CHAT_RUNS; run++) {
    const started = performance.now();
    const result = await agent.run('Hello again.').result;
    times.push((performance.now() - started) * 1000);
    if (result.status !== 'completed') throw new Error(`chat run ended ${result.status}`);
  }
  const messages = agent.messages.length;
  await agent.close();
  return { early: median(times.slice(500, 1000)), late: median(times.slice(-500)), messages };
}

/**
 * A snapshot of a session with 20 tool turns, for a chat agent to continue: its requests then
 * carry those calls and results as text. Until the twenty-fourth round they were written out
 * again, the whole history with them, at every request.
 */
async function sessionWithToolCalls() {
  const first = createAgent({ model: toolTurnsModel({ toolName: 'trivial', toolTurns: 20 }), tools: [tool], maxTurns: 21 });
  const result = await first.run('Go.').result;
  if (result.status !== 'completed') throw new Error(`seed run ended ${result.status}`);
  const snapshot = first.snapshot();
  await first.close();
  return snapshot;
}

async function main() {
  if (typeof global.gc !== 'function') throw new Error('run with node --expose-gc (npm run bench:overhead does)');
  const started = performance.now();
  console.log(environmentHeader('agent-harness overhead benchmark (issue 16): per turn, per run, long histories', { quick: !fullRun, extra: [`${RUNS} runs per size`] }));
  const { agent: agentFixed, bare: bareFixed } = await fixedCosts({ agent: agentLoop, bare: bareLoop });
  const cell = await perTurn();
  const agentPromoted = await promotedPerRun(agentLoop);
  const barePromoted = await promotedPerRun(bareLoop);
  const chat = await chatGrowth();
  const chatAfterTools = await chatGrowth({ afterToolCalls: true });
  const large = await largeResults();

  const rows = [];
  for (const size of SIZES) {
    const ratio = cell(`agent:${size}`) / cell(`bare:${size}`);
    rows.push([`per turn, ${size}-turn run: agent ${us(cell(`agent:${size}`))} / bare loop ${us(cell(`bare:${size}`))}`, times(ratio), `≤ ${GOAL_TURN_RATIO}×`, verdict(ratio <= GOAL_TURN_RATIO)]);
  }
  const flat = cell('agent:1000') / cell('agent:10');
  for (const [kind, label] of [['code', 'source code, ASCII'], ['prose', 'prose with ’, two-byte']]) {
    const { agent, bare } = large[kind];
    rows.push([`  per turn of a 200-turn run whose tool answers 50 KB (${label}): agent; bare loop ${us(bare)}, agent answered 'ok' ${us(cell('agent:200'))}`, us(agent), '—', 'info']);
  }
  rows.push([`  flat: agent 1,000-turn / 10-turn median`, times(flat), `≤ ${GOAL_FLAT}×`, verdict(flat <= GOAL_FLAT)]);
  rows.push([`per run, new session (createAgent + 1 tool turn + answer), median; bare loop ${us(bareFixed.median)}`, us(agentFixed.median), `≤ ${GOAL_FIXED_US} µs`, verdict(agentFixed.median <= GOAL_FIXED_US)]);
  rows.push([`  per run ÷ bare loop`, times(agentFixed.median / bareFixed.median), '—', 'info']);
  rows.push([`  CPU time per run, GC included (bare loop ${us(bareFixed.cpu)})`, us(agentFixed.cpu), '—', 'info']);
  rows.push([`  left in the old generation per finished run (bare loop ${Math.round(barePromoted)} B)`, `${Math.round(agentPromoted)} B`, '—', 'info']);
  const long = cell(`agent:${LONG}`) / cell(`agent:${SHORT}`);
  rows.push([`long history, context management on: ${LONG.toLocaleString('en')}-turn ${us(cell(`agent:${LONG}`))} / ${SHORT}-turn ${us(cell(`agent:${SHORT}`))}`, times(long), `≤ ${GOAL_LONG}×`, verdict(long <= GOAL_LONG)]);
  rows.push([`  a chat without tools, run after run on one agent: runs at ${chat.messages.toLocaleString('en')} messages ${us(chat.late)} / at 1,000–2,000 ${us(chat.early)}`, times(chat.late / chat.early), '—', 'info']);
  rows.push([`  the same, continuing a session with tool calls (written out as text): at ${chatAfterTools.messages.toLocaleString('en')} messages ${us(chatAfterTools.late)} / at 1,000–2,000 ${us(chatAfterTools.early)}`, times(chatAfterTools.late / chatAfterTools.early), '—', 'info']);
  console.log(renderTable(['measure', 'value', 'goal', 'result'], rows));
  console.log(
    `\nThe long-history row runs with the default context management (accounting every turn, clearing and automatic compaction enabled);` +
      ` the fake model reports 10 input tokens a turn, so neither threshold is reached: it measures their per-turn bookkeeping, not a compaction (bench/context.bench.mjs measures those).`,
  );
  console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s; medians of per-run median turns; a MISS is reported, not an exit code)`);
}

main().catch((error) => {
  console.error('benchmark crashed:', error);
  process.exitCode = 1;
});
