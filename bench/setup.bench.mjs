// Issue 16: what setting an agent up costs, by the options that add to it. A server making an
// agent per session or per request pays this every time, before the first model call. Run with
// `npm run bench:setup` (builds first). `--full` for more rounds. With
// `BENCH_BASE=<other build's dist/ folder>` the other build is measured in the same process,
// alternated round by round (so the machine's drift hits both alike), and the change is printed.
// Info rows: the issue sets no goal on them; the whole-run goal (`bench:overhead`) covers
// `createAgent` with one tool.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { base, loadBuilds } from './lib/builds.mjs';
import { environmentHeader, fullRun } from './lib/environment.mjs';
import { fakeModel, toolUses } from './lib/fake-model.mjs';
import { median } from './lib/stats.mjs';
import { renderTable } from './lib/table.mjs';

const started = performance.now();
const ROUNDS = fullRun ? 15 : 7;
const BATCH = 200;
const builds = await loadBuilds();
const cwd = mkdtempSync(path.join(tmpdir(), 'bench-setup-'));

/** A model that answers `Done.` after its first answer (`first`), or at once. */
const answering = (first) => fakeModel({ decide: (request) => (first && request.messages.length === 1 ? first() : [{ type: 'text', text: 'Done.' }]) });
const agentCall = () => [{ type: 'tool_use', id: 'toolu_agent', name: 'Agent', input: { description: 'job', prompt: 'Do the job.', subagent_type: 'worker' } }];
const types = (model) => ({ worker: { description: 'A worker.', prompt: 'You work.', model }, checker: { description: 'A checker.', prompt: 'You check.', model } });

/** The measures, per build: each one a function that does the thing once (sync or async). */
function measuresOf({ lib, node }) {
  const noop = lib.defineTool({ name: 'noop', description: 'Does nothing.', inputSchema: z.object({}), readOnly: true, execute: () => 'ok' });
  const quiet = answering();
  const childModel = answering();
  const toolModel = answering(() => toolUses('noop', 1));
  const agentModel = answering(agentCall);
  return {
    'createAgent, one tool': () => lib.createAgent({ model: quiet, tools: [noop] }),
    'createAgent with two subagent types (`agents`)': () => lib.createAgent({ model: quiet, tools: [noop], agents: types(childModel) }),
    'createAgent with `context: { spill: true }`': () => lib.createAgent({ model: quiet, tools: [noop], context: { spill: true } }),
    '`workspaceTools({ cwd })`': () => node.workspaceTools({ cwd }),
    'createAgent with `workspaceTools({ cwd })`': () => lib.createAgent({ model: quiet, tools: node.workspaceTools({ cwd }), cwd }),
    'run: one no-op tool call, then the answer': () => lib.createAgent({ model: toolModel, tools: [noop] }).run('Go.').result,
    'an agent per request: createAgent, a run answering at once, close()': async () => {
      const agent = lib.createAgent({ model: quiet, tools: [noop] });
      await agent.run('Go.').result;
      await agent.close();
    },
    'run: one Agent call (a subagent answering at once), then the answer': () => lib.createAgent({ model: agentModel, tools: [noop], agents: types(childModel) }).run('Go.').result,
  };
}
const measures = Object.fromEntries(Object.entries(builds).map(([name, build]) => [name, measuresOf(build)]));
const labels = Object.keys(measures.this);

/** Mean µs per call over a batch. */
async function batch(fn) {
  const started = performance.now();
  for (let index = 0; index < BATCH; index++) await fn();
  return ((performance.now() - started) * 1000) / BATCH;
}

const samples = Object.fromEntries(Object.keys(builds).map((name) => [name, Object.fromEntries(labels.map((label) => [label, []]))]));
// Warm-up: V8 optimizes each path over its first thousands of calls.
for (const name of Object.keys(builds)) for (const label of labels) for (let index = 0; index < 5; index++) await batch(measures[name][label]);
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 ? Object.keys(builds).reverse() : Object.keys(builds);
  for (const label of labels) for (const name of order) samples[name][label].push(await batch(measures[name][label]));
}
rmSync(cwd, { recursive: true, force: true });

const us = (value) => `${value.toFixed(1)} µs`;
const rows = labels.map((label) => {
  const mine = median(samples.this[label]);
  if (!base) return [label, us(mine)];
  const theirs = median(samples.base[label]);
  return [label, us(theirs), us(mine), `${(((mine - theirs) / theirs) * 100).toFixed(0)}%`];
});
console.log(environmentHeader('agent-harness set-up benchmark (issue 16): what an agent costs before its first model call, by option', { quick: !fullRun }));
console.log(`${ROUNDS} rounds of batches of ${BATCH}; each value is the median of the batches' mean time per call${base ? `; base: ${base}` : ''}\n`);
console.log(renderTable(base ? ['measure', 'base', 'this build', 'change'] : ['measure', 'this build'], rows));
console.log(`\n(${((performance.now() - started) / 1000).toFixed(1)} s; info rows, no goal)`);
