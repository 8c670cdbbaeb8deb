// Issue 16: what a Grep call over a tree of many small files costs, in wall time (what the model
// waits for) and CPU (what the server pays, every thread counted), against a bare Node walk that
// reads each file and tests the pattern once (no checks, no worker, no deadline). Run with
// `npm run build && node bench/grep-files.bench.mjs`; `BENCH_FILES` (default 500) sets the tree's
// size, `BENCH_BASE=<other build's dist/ folder>` measures that build too, alternated call by call.
// Info rows: the issue sets no goal on them.
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { base, loadBuilds } from './lib/builds.mjs';
import { environmentHeader, fullRun } from './lib/environment.mjs';
import { fakeModel } from './lib/fake-model.mjs';
import { median } from './lib/stats.mjs';
import { renderTable } from './lib/table.mjs';

const started = performance.now();
const FILES = Number(process.env.BENCH_FILES ?? 500);
const CALLS = fullRun ? 31 : 15;
const builds = await loadBuilds();
const dir = fs.realpathSync(fs.mkdtempSync(path.join(tmpdir(), 'bench-grep-files-')));
for (let folder = 0; folder < 10; folder++) {
  fs.mkdirSync(path.join(dir, `d${folder}`));
  for (let file = 0; file < FILES / 10; file++) {
    fs.writeFileSync(path.join(dir, `d${folder}`, `f${file}.md`), `# Title ${file}\n\n${'Some text here, alpha beta.\n'.repeat(40)}${file % 7 === 0 ? 'needle here\n' : ''}`);
  }
}

/** One run: a Grep call (files_with_matches) in plan mode, then the answer. */
function grepCall({ lib, node }) {
  const tools = node.workspaceTools({ cwd: dir });
  return async () => {
    let calls = 0;
    const model = fakeModel({ decide: () => (calls++ === 0 ? [{ type: 'tool_use', id: `toolu_grep_${calls}`, name: 'Grep', input: { pattern: 'needle' } }] : [{ type: 'text', text: 'Done.' }]) });
    const result = await lib.createAgent({ model, tools, cwd: dir, permissionMode: 'plan' }).run('Go.').result;
    if (result.status !== 'completed') throw new Error(`the run ended ${result.status}: ${result.error?.message}`);
    const found = result.messages.find((message) => message.role === 'user' && Array.isArray(message.content) && message.content[0]?.type === 'tool_result');
    if (!JSON.stringify(found).includes(`Found ${Math.ceil(FILES / 10 / 7) * 10} files`)) throw new Error(`unexpected Grep result: ${JSON.stringify(found).slice(0, 300)}`);
  };
}

async function bare() {
  const matches = [];
  const walk = async (folder) => {
    for (const entry of await fs.promises.readdir(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (/needle/.test(await fs.promises.readFile(full, 'utf8'))) matches.push(full);
    }
  };
  await walk(dir);
  return matches;
}

const sides = { ...Object.fromEntries(Object.entries(builds).map(([name, build]) => [name, grepCall(build)])), bare };
const samples = Object.fromEntries(Object.keys(sides).map((name) => [name, { wall: [], cpu: [] }]));
for (const side of Object.values(sides)) for (let index = 0; index < 3; index++) await side();
for (let call = 0; call < CALLS; call++) {
  const order = call % 2 ? Object.keys(sides).reverse() : Object.keys(sides);
  for (const name of order) {
    const cpu = process.cpuUsage();
    const wall = performance.now();
    await sides[name]();
    samples[name].wall.push(performance.now() - wall);
    const used = process.cpuUsage(cpu);
    samples[name].cpu.push((used.user + used.system) / 1000);
  }
}
fs.rmSync(dir, { recursive: true, force: true });

const ms = (value) => `${value.toFixed(1)} ms`;
const label = { this: 'this build', base: `base (${base})`, bare: 'bare Node walk' };
const rows = Object.keys(sides).map((name) => [label[name], ms(median(samples[name].wall)), ms(median(samples[name].cpu))]);
console.log(environmentHeader(`agent-harness Grep over ${FILES} files (issue 16): wall time and CPU per call`, { quick: !fullRun }));
console.log(`${CALLS} calls per side, alternated; medians; CPU of every thread (the regex worker and the thread pool included)\n`);
console.log(renderTable(['Grep "needle", files_with_matches', 'wall', 'CPU'], rows));
console.log(`\n(${((performance.now() - started) / 1000).toFixed(1)} s; info rows, no goal)`);
