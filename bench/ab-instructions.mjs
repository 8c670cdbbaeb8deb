// A/B of two builds in CPU instructions, not seconds: each build's workload runs under
// `valgrind --tool=callgrind` (which counts the instructions a process executes, whatever else the
// machine is doing) with V8 on one thread and its time-driven heuristics off (`--single-threaded
// --predictable`: no concurrent compiler or GC threads), so the figures do not move with what else
// the machine runs. They still move between runs (random ids, GC timing): a whole-run figure by
// ~±3% and a per-turn one by ~±5% here, so a change smaller than that needs several runs.
//   node bench/ab-instructions.mjs ../base/dist/index.js
// Prints per build the instructions of one whole new-session run (the difference between 1,300 and
// 300 whole runs, over 1,000) and of one tool turn (a 1,100-turn run against a 100-turn one, over
// 1,000), and the same for the bare hand-written loop (lib/bare-loop.mjs), so the ratios
// (per turn and per run against the bare loop) come out free of the machine's noise. Wall time is not measured: V8's compilations and GC count as they happen, and a per-turn
// figure includes the marking of a heap that grows with the run, which V8 normally does on other
// threads. Needs valgrind (on every machine of this project's kind); takes a few minutes.
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const other = process.argv[2];
if (!other) throw new Error("usage: node bench/ab-instructions.mjs <path to the other build's dist/index.js>");
try {
  execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
} catch {
  console.log('ab-instructions: valgrind is not installed (apt-get install valgrind); nothing measured.');
  process.exit(0);
}
const workload = fileURLToPath(new URL('./lib/instruction-workload.mjs', import.meta.url));
const builds = { base: other, this: fileURLToPath(new URL('../dist/index.js', import.meta.url)), bare: 'bare' };

/** The instructions callgrind counted for one run of the workload. */
function instructions(dist, mode, count) {
  const result = spawnSync(
    'valgrind',
    ['--tool=callgrind', '--callgrind-out-file=/dev/null', process.execPath, '--single-threaded', '--predictable', workload, dist, mode, String(count)],
    { encoding: 'utf8' },
  );
  const found = /Collected : (\d+)/.exec(result.stderr);
  if (result.status !== 0 || !found) throw new Error(`valgrind failed (${dist} ${mode} ${count}):\n${result.stderr.slice(-2000)}`);
  return Number(found[1]);
}

const rows = {};
for (const [name, dist] of Object.entries(builds)) {
  rows[name] = {
    run: (instructions(dist, 'whole', 1300) - instructions(dist, 'whole', 300)) / 1000,
    turn: (instructions(dist, 'turns', 1100) - instructions(dist, 'turns', 100)) / 1000,
  };
}
const format = (value) => Math.round(value).toLocaleString('en-US').padStart(12);
const change = (key) => `${(((rows.this[key] / rows.base[key]) - 1) * 100).toFixed(1).padStart(6)}%`;
console.log(`Instructions (callgrind, node ${process.version} --single-threaded --predictable); base = ${other}`);
console.log(`${''.padEnd(34)} ${'base'.padStart(12)} ${'this'.padStart(12)}  change`);
console.log(`${'whole run, new session'.padEnd(34)} ${format(rows.base.run)} ${format(rows.this.run)} ${change('run')}`);
console.log(`${'tool turn (turns 100 to 1,100)'.padEnd(34)} ${format(rows.base.turn)} ${format(rows.this.turn)} ${change('turn')}`);
const ratio = (key) => `${(rows.this[key] / rows.bare[key]).toFixed(1)}× (base ${(rows.base[key] / rows.bare[key]).toFixed(1)}×)`;
console.log(`bare loop: whole run ${format(rows.bare.run).trim()}, tool turn ${format(rows.bare.turn).trim()}; this ÷ bare: whole run ${ratio('run')}, tool turn ${ratio('turn')}`);
