// Issue 16: idle sessions. Many agents resumed from the file store, each with a 40-message
// history, then held idle: heap per agent beyond its messages, and the time to resume each.
// Run with `npm run bench:idle` (builds, then `nice node --expose-gc bench/idle.bench.mjs`);
// quick by default (2,000 agents), `--full` for 10,000. A missed goal prints MISS.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { createAgent, defineTool } from '../dist/index.js';
import { fileSessionStore } from '../dist/node/index.js';
import { fakeModel, toolTurnsModel } from './lib/fake-model.mjs';
import { environmentHeader, fullRun, kb, msText, us, verdict } from './lib/environment.mjs';
import { median, settledHeap } from './lib/stats.mjs';
import { renderTable } from './lib/table.mjs';

const AGENTS = Number(process.env.BENCH_AGENTS ?? (fullRun ? 10_000 : 2_000));
const TOOL_TURNS = 19; // prompt + 19 × (call, result) + the answer = 40 messages
const GOAL_BYTES = 8_000;
const TEMPLATE = 'idle-template';

const tool = defineTool({
  name: 'note',
  description: 'Returns a short note.',
  inputSchema: z.object({}),
  readOnly: true,
  execute: () => 'A note of about a hundred characters, standing in for a typical small tool result in a session.',
});
const idleModel = fakeModel({ decide: () => [{ type: 'text', text: 'unused' }] });

/** Writes one 40-message session with the agent, then copies its transcript under `count` session ids. */
async function writeSessions(dir, count) {
  const store = fileSessionStore({ dir });
  const agent = createAgent({ model: toolTurnsModel({ toolName: 'note', toolTurns: TOOL_TURNS }), tools: [tool], store, sessionId: TEMPLATE, maxTurns: TOOL_TURNS + 1 });
  const result = await agent.run('Take nineteen small steps.').result;
  if (result.status !== 'completed') throw new Error(`the writing run ended ${result.status}`);
  const messageCount = agent.messages.length;
  await agent.close();
  const text = readFileSync(join(dir, `${TEMPLATE}.jsonl`), 'utf8');
  for (let index = 0; index < count; index++) writeFileSync(join(dir, `idle-${index}.jsonl`), text.replaceAll(`"${TEMPLATE}"`, `"idle-${index}"`));
  return messageCount;
}

async function resumeAll(store, count, offset = 0) {
  const agents = [];
  const times = [];
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    const agent = createAgent({ model: idleModel, tools: [tool], store, resume: `idle-${offset + index}` });
    await agent.ready;
    times.push(performance.now() - started);
    agents.push(agent);
  }
  return { agents, times };
}

async function main() {
  if (typeof global.gc !== 'function') throw new Error('run with node --expose-gc (npm run bench:idle does)');
  const started = performance.now();
  console.log(environmentHeader('agent-harness idle-sessions benchmark (issue 16): agents resumed from the file store and held', { quick: !fullRun, extra: [`${AGENTS.toLocaleString('en')} agents`] }));
  const dir = mkdtempSync(join(tmpdir(), 'agent-harness-idle-bench-'));
  try {
    const warmups = 200;
    const messageCount = await writeSessions(dir, AGENTS + warmups);
    // Warm-up on sessions of their own: compiled code is not counted as data.
    {
      const store = fileSessionStore({ dir });
      const { agents } = await resumeAll(store, warmups, AGENTS);
      for (const agent of agents) JSON.parse(JSON.stringify(agent.messages));
    }
    const base = await settledHeap();
    let store = fileSessionStore({ dir });
    let { agents, times } = await resumeAll(store, AGENTS);
    if (agents[0].messages.length !== messageCount) throw new Error(`resumed ${agents[0].messages.length} messages, expected ${messageCount}`);
    const withAgents = await settledHeap();
    const copies = agents.map((agent) => JSON.parse(JSON.stringify(agent.messages)));
    agents = undefined;
    store = undefined;
    const copiesOnly = await settledHeap();
    if (copies.length !== AGENTS) throw new Error('lost the copies');
    const perAgent = (withAgents - base) / AGENTS;
    const messages = (copiesOnly - base) / AGENTS;
    const beyond = perAgent - messages;
    const total = times.reduce((sum, time) => sum + time, 0);
    const rows = [
      [`heap per idle resumed agent beyond its ${messageCount} messages`, kb(beyond), `≤ ${kb(GOAL_BYTES)}`, verdict(beyond <= GOAL_BYTES)],
      ['  heap per agent, total (the store\'s per-session state included)', kb(perAgent), '—', 'info'],
      [`  its ${messageCount} messages alone, as JSON copies`, kb(messages), '—', 'info'],
      ['resume one session (createAgent + ready), median', msText(median(times)), '—', 'info'],
      [`  resume all ${AGENTS.toLocaleString('en')}, one after another`, `${(total / 1000).toFixed(2)} s (${us((total * 1000) / AGENTS)} each)`, '—', 'info'],
    ];
    console.log(renderTable(['measure', 'value', 'goal', 'result'], rows));
    console.log(`\n(${((performance.now() - started) / 1000).toFixed(1)} s; KB = 1000 bytes; a MISS is reported, not an exit code)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error('benchmark crashed:', error);
  process.exitCode = 1;
});
