// Issue 16: the CPU cost of streaming through agent-harness against the bare @anthropic-ai/sdk,
// on the same bytes from the loopback Messages server running in ANOTHER process. Run with
// `npm run bench:streaming` (builds, then `nice node bench/streaming.bench.mjs`); `--full` for
// more rounds. Exits non-zero only when something crashes; a missed goal prints MISS.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import { createAgent, defineTool } from '../dist/index.js';
import { anthropicModel } from '../dist/index.js';
import { environmentHeader, fullRun, times, verdict } from './lib/environment.mjs';
import { INPUT_DELTAS, recordings, TEXT_DELTAS } from './lib/stream-recordings.mjs';
import { median } from './lib/stats.mjs';
import { renderTable } from './lib/table.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (fullRun ? 15 : 5));
const PER_ROUND = Number(process.env.BENCH_PER_ROUND ?? (fullRun ? 20 : 10));
const GOAL = 1.05;
const MODEL = 'claude-sonnet-4-6';

const { inputJson } = recordings();
const writeNotes = defineTool({
  name: 'write_notes',
  description: 'Writes notes to a file.',
  inputSchema: z.object({ path: z.string(), content: z.string() }),
  readOnly: true,
  execute: () => 'Saved.',
});

async function startServerProcess() {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./lib/messages-server-process.mjs', import.meta.url))], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const [line] = await once(lines, 'line');
  return { url: JSON.parse(line).url, stop: () => child.stdin.end() };
}

/** The scenarios: what each side does with one answer, on the same server responses. */
function scenarios(url) {
  const client = new Anthropic({ apiKey: 'bench', baseURL: url, maxRetries: 0 });
  const model = anthropicModel({ model: MODEL, apiKey: 'bench', baseURL: url, maxRetries: 0 });
  const tools = [{ name: 'write_notes', description: 'Writes notes to a file.', input_schema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] } }];
  const bareText = async () => {
    const message = await client.messages.stream({ model: MODEL, max_tokens: 8192, messages: [{ role: 'user', content: 'Tell me about tide pools.' }] }).finalMessage();
    if (message.content[0].text.length < TEXT_DELTAS) throw new Error('short text');
  };
  // The bare tool round: the tool-call answer, the tool run by hand, then the short answer.
  const bareTool = async () => {
    const messages = [{ role: 'user', content: 'Write the notes. [tool]' }];
    const first = await client.messages.stream({ model: MODEL, max_tokens: 8192, tools, messages }).finalMessage();
    const use = first.content.find((block) => block.type === 'tool_use');
    if (JSON.stringify(use.input) !== inputJson) throw new Error('tool input differs');
    messages.push({ role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'Saved.' }] });
    await client.messages.stream({ model: MODEL, max_tokens: 8192, tools, messages }).finalMessage();
  };
  const agentRun = (prompt, { consume, expectTurns, bufferEvents = true }) => async () => {
    const agent = createAgent({ model, tools: [writeNotes], todoWrite: false, exitPlanMode: false });
    const run = agent.run(prompt, { bufferEvents });
    let deltas = 0;
    if (consume) for await (const event of run) if (event.type === 'text-delta') deltas++;
    const result = await run.result;
    if (result.status !== 'completed' || result.turns !== expectTurns) throw new Error(`agent run ended ${result.status} after ${result.turns} turns: ${result.error?.message}`);
    if (consume && deltas < (expectTurns === 1 ? TEXT_DELTAS : 2)) throw new Error(`saw ${deltas} text deltas`);
  };
  return {
    text: {
      bare: bareText,
      consumed: agentRun('Tell me about tide pools.', { consume: true, expectTurns: 1 }),
      unlistened: agentRun('Tell me about tide pools.', { consume: false, expectTurns: 1 }),
      unbuffered: agentRun('Tell me about tide pools.', { consume: false, expectTurns: 1, bufferEvents: false }),
    },
    tool: {
      bare: bareTool,
      consumed: agentRun('Write the notes. [tool]', { consume: true, expectTurns: 2 }),
      unlistened: agentRun('Write the notes. [tool]', { consume: false, expectTurns: 2 }),
      unbuffered: agentRun('Write the notes. [tool]', { consume: false, expectTurns: 2, bufferEvents: false }),
    },
  };
}

/** CPU µs (user + system, this process only) per call of `fn`, over `count` calls. */
async function cpuPerCall(fn, count) {
  const before = process.cpuUsage();
  for (let index = 0; index < count; index++) await fn();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / count;
}

async function measure(cases) {
  for (const fn of Object.values(cases)) await cpuPerCall(fn, PER_ROUND); // warm-up
  const names = Object.keys(cases);
  const agents = names.filter((name) => name !== 'bare');
  const ratios = Object.fromEntries(agents.map((name) => [name, []]));
  const cpu = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    // Alternating order within the round, so drift does not favour one side.
    const order = round % 2 === 0 ? names : [...names].reverse();
    const values = {};
    for (const name of order) values[name] = await cpuPerCall(cases[name], PER_ROUND);
    for (const name of names) cpu[name].push(values[name]);
    for (const name of agents) ratios[name].push(values[name] / values.bare);
  }
  const result = {};
  for (const name of names) result[name] = median(cpu[name]);
  for (const name of agents) result[`${name}Ratio`] = median(ratios[name]);
  return result;
}

async function main() {
  const started = performance.now();
  console.log(environmentHeader('agent-harness streaming benchmark (issue 16): anthropicModel + loop vs the bare SDK, server out of process', { quick: !fullRun, extra: [`${ROUNDS} rounds of ${PER_ROUND} answers per side`] }));
  const server = await startServerProcess();
  try {
    const all = scenarios(server.url);
    const text = await measure(all.text);
    const tool = await measure(all.tool);
    const ms = (value) => `${(value / 1000).toFixed(2)} ms`;
    const rows = [
      [`${TEXT_DELTAS.toLocaleString('en')}-delta text answer, host consumes events (agent ${ms(text.consumed)} / SDK finalMessage ${ms(text.bare)} CPU)`, times(text.consumedRatio), `≤ ${GOAL}×`, verdict(text.consumedRatio <= GOAL)],
      [`  same, nobody listens (agent ${ms(text.unlistened)})`, times(text.unlistenedRatio), `≤ ${GOAL}×`, verdict(text.unlistenedRatio <= GOAL)],
      [`  same, nobody listens, run(…, { bufferEvents: false }) (agent ${ms(text.unbuffered)})`, times(text.unbufferedRatio), '—', 'info'],
      [`tool call, input in ${INPUT_DELTAS} deltas + answer, host consumes (agent ${ms(tool.consumed)} / SDK ${ms(tool.bare)} CPU)`, times(tool.consumedRatio), `≤ ${GOAL}×`, verdict(tool.consumedRatio <= GOAL)],
      [`  same, nobody listens (agent ${ms(tool.unlistened)})`, times(tool.unlistenedRatio), `≤ ${GOAL}×`, verdict(tool.unlistenedRatio <= GOAL)],
      [`  same, nobody listens, run(…, { bufferEvents: false }) (agent ${ms(tool.unbuffered)})`, times(tool.unbufferedRatio), '—', 'info'],
    ];
    console.log(renderTable(['measure (CPU time of this process; median of per-round ratios)', 'agent ÷ SDK', 'goal', 'result'], rows));
    console.log(`\nThe agent side is createAgent + run (anthropicModel, messages.create stream); the SDK side is messages.stream().finalMessage(), the tool run by hand.`);
    console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s; a MISS is reported, not an exit code)`);
  } finally {
    server.stop();
  }
}

main().catch((error) => {
  console.error('benchmark crashed:', error);
  process.exitCode = 1;
});
