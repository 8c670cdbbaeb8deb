// A/B of two builds in one process: this checkout's dist/ against another build of agent-harness
// (say a worktree of the commit before a change: `git worktree add ../base <rev> && (cd ../base &&
// npm ci && npx tsup)`), alternated round by round so the machine's drift hits both alike.
//   node --expose-gc bench/ab-overhead.mjs ../base/dist/index.js
// Prints, per build, the medians over 8 rounds (AB_ROUNDS) of: a whole new-session run (createAgent + one tool
// turn + the answer, median of 500), a turn of a 200-turn run (median), and the mean turn of a
// 1,000-turn run (GC included); the change of the medians, and the median of the per-round ratios
// (each round measures both builds back to back, so that ratio is the least moved by drift).
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { toolTurnsModel } from './lib/fake-model.mjs';
import { median } from './lib/stats.mjs';

const other = process.argv[2];
if (!other) throw new Error('usage: node --expose-gc bench/ab-overhead.mjs <path to the other build\'s dist/index.js>');
const ROUNDS = Number(process.env.AB_ROUNDS ?? 8);
const builds = {
  base: await import(pathToFileURL(resolve(other)).href),
  this: await import('../dist/index.js'),
};

const setups = Object.fromEntries(
  Object.entries(builds).map(([name, lib]) => {
    const tool = lib.defineTool({ name: 'trivial', description: 'Returns ok at once.', inputSchema: z.object({}), readOnly: true, execute: () => 'ok' });
    return [name, { lib, tool }];
  }),
);
const oneTurn = toolTurnsModel({ toolName: 'trivial', toolTurns: 1 });

async function wholeRuns(name, count) {
  const { lib, tool } = setups[name];
  const walls = [];
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    await lib.createAgent({ model: oneTurn, tools: [tool], maxTurns: 2 }).run('Go.').result;
    walls.push((performance.now() - started) * 1000);
  }
  return median(walls);
}

/** The median turn of a run of `count` tool turns, or the mean when `mean` (GC included). */
async function turns(name, count, mean) {
  const { lib, tool } = setups[name];
  const calls = [];
  const model = toolTurnsModel({ toolName: 'trivial', toolTurns: count, onCall: (now) => calls.push(now) });
  await lib.createAgent({ model, tools: [tool], maxTurns: count + 1 }).run('Go.').result;
  const gaps = calls.slice(1).map((time, index) => (time - calls[index]) * 1000);
  return mean ? gaps.reduce((sum, gap) => sum + gap, 0) / gaps.length : median(gaps);
}

for (const name of Object.keys(builds)) {
  await wholeRuns(name, 2000);
  for (let index = 0; index < 5; index++) await turns(name, 200, false);
}
const results = Object.fromEntries(Object.keys(builds).map((name) => [name, { run: [], turn: [], mean: [] }]));
for (let round = 0; round < ROUNDS; round++) {
  for (const name of round % 2 ? ['base', 'this'] : ['this', 'base']) {
    results[name].run.push(await wholeRuns(name, 500));
    results[name].turn.push(await turns(name, 200, false));
    results[name].mean.push(await turns(name, 1000, true));
  }
}
const row = (label, key, digits) => {
  const [base, now] = [median(results.base[key]), median(results.this[key])];
  const paired = median(results.this[key].map((value, round) => value / results.base[key][round]));
  const percent = (ratio) => `${((ratio - 1) * 100).toFixed(0).padStart(4)}%`;
  return `${label.padEnd(44)} ${base.toFixed(digits).padStart(8)} µs  ${now.toFixed(digits).padStart(8)} µs  ${percent(now / base)}  ${percent(paired).padStart(7)}`;
};
console.log(
  `A/B in one process, ${ROUNDS} rounds (AB_ROUNDS); base = ${other}\n` +
    `${''.padEnd(44)} ${'base'.padStart(11)}  ${'this'.padStart(11)}  change  per round (median of this ÷ base)`,
);
console.log(row('whole run, new session (median)', 'run', 1));
console.log(row('turn of a 200-turn run (median)', 'turn', 2));
console.log(row('mean turn of a 1,000-turn run (GC included)', 'mean', 2));
