// Issue 16: the CPU a workspace tool call costs. A model turn costs the loop a few microseconds;
// a Read, Glob, Grep or Edit call costs hundreds (a Bash call milliseconds), most of it in file
// system calls, process spawns and the trips through libuv's thread pool they take. Measured as process CPU time (`process.cpuUsage`: every
// thread, so the thread pool and Grep's regex worker count) per call, over runs of 20 calls of one
// tool on a 1 KB file in a one-file workspace, the turns included. Beside each, a bare Node
// version of the same work (what a host writing the tool by hand, with no checks, would do).
// Run with `npm run bench:workspace-calls` (builds first); `--full` for more runs.
// `BENCH_BASE=<other build's dist/ folder>` measures that build too, alternated run by run;
// `BENCH_TOOLS=Read,Glob` measures only those tools.
// Info rows: the issue sets no goal on them.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { base, loadBuilds } from './lib/builds.mjs';
import { environmentHeader, fullRun } from './lib/environment.mjs';
import { fakeModel } from './lib/fake-model.mjs';
import { median } from './lib/stats.mjs';
import { renderTable } from './lib/table.mjs';

const started = performance.now();
const CALLS = 20;
const ROUNDS = fullRun ? 15 : 7;
const RUNS = 10;
const builds = await loadBuilds();
const dir = fs.realpathSync(fs.mkdtempSync(path.join(tmpdir(), 'bench-calls-')));
const file = path.join(dir, 'article.md');
fs.writeFileSync(file, `# Title\n\n${'Some paragraph text here, alpha.\n'.repeat(32)}`);

/** The tool calls of a run, by tool: the input of call `index`. */
const calls = {
  Read: () => ({ file_path: file }),
  Glob: () => ({ pattern: '*.md' }),
  Grep: () => ({ pattern: 'paragraph', output_mode: 'content' }),
  // A Read first (Edit needs the file read), then edits that swap a word back and forth.
  Bash: () => ({ command: 'ls' }),
  Edit: (index) => (index === 0 ? { file_path: file } : { file_path: file, old_string: index % 2 ? 'Title' : 'Heading', new_string: index % 2 ? 'Heading' : 'Title' }),
};

function runOf({ lib, node }, tool) {
  const tools = node.workspaceTools({ cwd: dir });
  return async () => {
    let index = 0;
    const model = fakeModel({
      decide: () => {
        if (index === CALLS) return [{ type: 'text', text: 'Done.' }];
        const name = tool === 'Edit' && index === 0 ? 'Read' : tool;
        return [{ type: 'tool_use', id: `toolu_${index}`, name, input: calls[tool](index++) }];
      },
    });
    const result = await lib.createAgent({ model, tools, cwd: dir, permissionMode: tool === 'Edit' ? 'acceptEdits' : 'plan', maxTurns: CALLS + 2 }).run('Go.').result;
    if (result.status !== 'completed') throw new Error(`${tool}: the run ended ${result.status}: ${result.error?.message}`);
  };
}

/** What a host would write by hand for the same work: no permissions, no checks. */
const bare = {
  Read: async () => {
    const text = await fs.promises.readFile(file, 'utf8');
    createHash('sha256').update(text).digest('hex');
    return text.split('\n').map((line, index) => `${index + 1}\t${line}`).join('\n');
  },
  Glob: async () => (await fs.promises.readdir(dir)).filter((name) => name.endsWith('.md')),
  Grep: async () => (await fs.promises.readFile(file, 'utf8')).split('\n').filter((line) => line.includes('paragraph')),
  Bash: () => new Promise((resolve, reject) => execFile('/bin/bash', ['-c', 'ls'], { cwd: dir }, (error, stdout) => (error ? reject(error) : resolve(stdout)))),
  Edit: async () => {
    const text = await fs.promises.readFile(file, 'utf8');
    await fs.promises.writeFile(file, text.includes('Title') ? text.replace('Title', 'Heading') : text.replace('Heading', 'Title'));
  },
};

async function cpuPerCall(fn, calls) {
  const before = process.cpuUsage();
  for (let run = 0; run < RUNS; run++) await fn();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / (RUNS * calls);
}

const tools = process.env.BENCH_TOOLS ? process.env.BENCH_TOOLS.split(',') : Object.keys(calls);
const measures = Object.fromEntries(Object.entries(builds).map(([name, build]) => [name, Object.fromEntries(tools.map((tool) => [tool, runOf(build, tool)]))]));
const samples = Object.fromEntries([...Object.keys(builds), 'bare'].map((name) => [name, Object.fromEntries(tools.map((tool) => [tool, []]))]));
for (const name of Object.keys(builds)) for (const tool of tools) for (let index = 0; index < 3; index++) await cpuPerCall(measures[name][tool], CALLS);
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 ? Object.keys(builds).reverse() : Object.keys(builds);
  for (const tool of tools) {
    for (const name of order) samples[name][tool].push(await cpuPerCall(measures[name][tool], CALLS));
    samples.bare[tool].push(await cpuPerCall(async () => {
      for (let index = 0; index < CALLS; index++) await bare[tool]();
    }, CALLS));
  }
}
fs.rmSync(dir, { recursive: true, force: true });

const us = (value) => `${value.toFixed(0)} µs`;
const rows = tools.map((tool) => {
  const mine = median(samples.this[tool]);
  const row = [`${tool}, CPU per call (turn included)`];
  if (base) {
    const theirs = median(samples.base[tool]);
    row.push(us(theirs), us(mine), `${(((mine - theirs) / theirs) * 100).toFixed(0)}%`);
  } else row.push(us(mine));
  row.push(us(median(samples.bare[tool])));
  return row;
});
console.log(environmentHeader('agent-harness workspace tool calls (issue 16): CPU per call of workspaceTools() against bare Node', { quick: !fullRun }));
console.log(`${ROUNDS} rounds of ${RUNS} runs of ${CALLS} calls; each value is the median of the rounds' CPU per call (all threads)${base ? `; base: ${base}` : ''}\n`);
console.log(renderTable(base ? ['measure', 'base', 'this build', 'change', 'bare Node'] : ['measure', 'this build', 'bare Node'], rows));
console.log(`\n(${((performance.now() - started) / 1000).toFixed(1)} s; info rows, no goal)`);
