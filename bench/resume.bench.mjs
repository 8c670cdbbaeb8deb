/**
 * Resume benchmark (issue 5): an agent writes a 1,000-turn session to the file store, then a
 * fresh process resumes it (`createAgent({ store, resume: sessionId })` + `await agent.ready`).
 * Reports time per appended turn, resume time and peak memory. Goal: resume under 100 ms.
 *
 *   npx tsup && node --expose-gc bench/resume.bench.mjs
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { createAgent, defineTool } from '../dist/index.js';
import { fileSessionStore } from '../dist/node/index.js';
import { fakeModel, toolUses } from './lib/fake-model.mjs';

const TURNS = 1000;
const SESSION = 'bench-resume';
const here = fileURLToPath(import.meta.url);

const tool = defineTool({
  name: 'note',
  description: 'Returns a short note.',
  inputSchema: z.object({}),
  readOnly: true,
  execute: () => 'A note of about a hundred characters, standing in for a typical small tool result in a session.',
});

async function write(dir) {
  let turns = 0;
  const model = fakeModel({ decide: () => (++turns <= TURNS ? [{ type: 'text', text: `Turn ${turns}: checking a note.` }, ...toolUses('note', 1)] : [{ type: 'text', text: 'Done.' }]) });
  const store = fileSessionStore({ dir });
  const agent = createAgent({ model, tools: [tool], store, sessionId: SESSION, maxTurns: TURNS + 1 });
  const started = performance.now();
  const result = await agent.run('Take a thousand small steps.').result;
  const elapsed = performance.now() - started;
  await agent.close();
  if (result.status !== 'completed') throw new Error(`the writing run ended ${result.status}`);
  return elapsed / TURNS;
}

async function resume(dir) {
  const before = process.memoryUsage().rss;
  const started = performance.now();
  const agent = createAgent({ model: fakeModel({ decide: () => [] }), tools: [tool], store: fileSessionStore({ dir }), resume: SESSION });
  await agent.ready;
  const elapsed = performance.now() - started;
  const messages = agent.messages.length;
  return { elapsed, messages, rssGrowthMb: (process.memoryUsage().rss - before) / 1e6, heapMb: process.memoryUsage().heapUsed / 1e6 };
}

if (process.argv[2] === '--resume') {
  console.log(JSON.stringify(await resume(process.argv[3])));
} else {
  const dir = mkdtempSync(join(tmpdir(), 'agent-harness-resume-bench-'));
  const runs = [];
  let perTurnMs;
  try {
    perTurnMs = await write(dir);
    for (let index = 0; index < 5; index++) {
      runs.push(JSON.parse(execFileSync(process.execPath, [here, '--resume', dir], { encoding: 'utf8' })));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const times = runs.map((run) => run.elapsed).sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  console.log(`agent-harness resume benchmark — ${TURNS} turns, Node ${process.version}`);
  console.log(`  append (whole loop, file store, no fsync): ${(perTurnMs * 1000).toFixed(0)} µs per turn`);
  console.log(`  resume in a fresh process: median ${median.toFixed(1)} ms (runs: ${times.map((time) => time.toFixed(1)).join(', ')}), ${runs[0].messages} messages`);
  console.log(`  memory while resuming: rss +${runs[0].rssGrowthMb.toFixed(1)} MB, heap ${runs[0].heapMb.toFixed(1)} MB`);
  console.log(`  goal: resume under 100 ms — ${median < 100 ? 'PASS' : 'MISS'}`);
}
