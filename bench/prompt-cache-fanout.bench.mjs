// Benchmark: what parallel subagents of one type pay the prompt cache for their shared start (issue
// 16, money). Run after `npm run build` (it loads dist/):
//   node bench/prompt-cache-fanout.bench.mjs
//
// A parent starts N `explore` subagents in one turn, each answering at once, through the real SDK
// and the loopback Messages server with its prompt cache. Each answer begins BENCH_TTFT_MS
// (default 300) after its request arrives, the time to first token: the server, like the API,
// makes a request's cache entries readable only once its answer has begun. Rows: N subagents with
// anthropicModel's default (the others wait for the first answer to begin) and with
// `promptCaching: { sharedPrefixWaitMs: 0 }` (all sent at once): the subagents' tokens written to
// and read from the cache, their input cost in token-equivalents (input 1×, write 1.25×, read
// 0.1×), and the wall time of the fan-out (from the parent's tool call to its last result). A
// second table: N sessions of one agent started at the same moment, a model and an agent made per
// request, each answering its first prompt (their input cost and the wall time until all answered).
import { BUILTIN_AGENTS, anthropicModel, createAgent } from '../dist/index.js';
import { startMessagesServer } from '../dist/testing/messages-server/index.js';
import { environmentHeader } from './lib/environment.mjs';
import { renderTable } from './lib/table.mjs';

const TTFT = Number(process.env.BENCH_TTFT_MS ?? 300);
const COUNTS = (process.env.BENCH_SUBAGENTS ?? '2,3,5,8').split(',').map(Number);
/** Repeats of the explore prompt's tail: about 5,000 tokens of tools and system prompt in all. */
const PROMPT = `${BUILTIN_AGENTS.explore.prompt}\n${'Cite every file you read, with the line numbers of what you quote. '.repeat(260)}`;

/** An answer that begins TTFT ms after its request arrived. */
const answerAfterTtft = (text) => async () => {
  await new Promise((resolve) => setTimeout(resolve, TTFT));
  return { content: [{ type: 'text', text }] };
};

/** The model under test: the default wait, or `sharedPrefixWaitMs` when given. */
const modelFor = (server, apiKey, sharedPrefixWaitMs) =>
  anthropicModel({ model: 'claude-sonnet-4-6', apiKey, baseURL: server.url, maxRetries: 0, ...(sharedPrefixWaitMs === undefined ? {} : { promptCaching: { sharedPrefixWaitMs } }) });

const addUsage = (sum, usage) => {
  sum.input += usage.inputTokens;
  sum.written += usage.cacheCreationInputTokens;
  sum.read += usage.cacheReadInputTokens;
};

/** The figures of a row: tokens, input cost in token-equivalents (input 1×, write 1.25×, read 0.1×), wall time. */
const figures = (usage, wallMs) => ({ ...usage, cost: usage.input + 1.25 * usage.written + 0.1 * usage.read, wallMs });

function assertCompleted(result) {
  if (result.status !== 'completed') throw new Error(`run ended ${result.status}: ${result.error?.message}`);
}

async function fanOut(count, sharedPrefixWaitMs) {
  const server = await startMessagesServer({ promptCaching: true });
  server.enqueue({ content: Array.from({ length: count }, (_, index) => ({ type: 'tool_use', id: `toolu_agent${index}`, name: 'Agent', input: { description: `survey ${index}`, prompt: `Read notes-${index}.md and sum it up.`, subagent_type: 'explore' } })) });
  for (let index = 0; index < count; index++) server.enqueue(answerAfterTtft('Surveyed.'));
  server.enqueue({ content: [{ type: 'text', text: 'All surveyed.' }] });
  const agent = createAgent({ model: modelFor(server, 'bench', sharedPrefixWaitMs), system: 'You write articles.', agents: { explore: { ...BUILTIN_AGENTS.explore, prompt: PROMPT } } });
  const usage = { input: 0, written: 0, read: 0 };
  let started = 0;
  let ended = 0;
  agent.on('tool-call', (event) => { if (event.agentId === undefined) started ||= performance.now(); });
  agent.on('tool-result', (event) => { if (event.agentId === undefined) ended = performance.now(); });
  agent.on('turn-end', (event) => { if (event.agentId !== undefined) addUsage(usage, event.usage); });
  const result = await agent.run('Survey the notes.').result;
  await agent.close();
  await server.close();
  assertCompleted(result);
  return figures(usage, ended - started);
}

/**
 * `count` sessions of one agent (a new agent each, one `anthropicModel` per request as a host making
 * an agent per request would) started at the same moment, each answering its first prompt.
 */
async function sessionsAtOnce(count, sharedPrefixWaitMs) {
  const server = await startMessagesServer({ promptCaching: true });
  for (let index = 0; index < count; index++) server.enqueue(answerAfterTtft('Hello.'));
  const usage = { input: 0, written: 0, read: 0 };
  const started = performance.now();
  await Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const agent = createAgent({ model: modelFor(server, `bench-sessions-${sharedPrefixWaitMs}`, sharedPrefixWaitMs), system: PROMPT, tools: [] });
      const result = await agent.run(`Question ${index}: where do I start?`).result;
      await agent.close();
      assertCompleted(result);
      addUsage(usage, result.usage);
    }),
  );
  const wallMs = performance.now() - started;
  await server.close();
  return figures(usage, wallMs);
}

/** Rows for each count: `measure` with the default wait and with none, and what waiting saved. */
async function compare(unit, measure) {
  await measure(2, undefined); // warm-up: the SDK and the turn code load
  const rows = [];
  for (const count of COUNTS) {
    const waiting = await measure(count, undefined);
    const atOnce = await measure(count, 0);
    const row = (label, { written, read, cost, wallMs }) => [`${count} ${unit}, ${label}`, String(written), String(read), cost.toFixed(0), `${wallMs.toFixed(0)} ms`];
    rows.push(row('first answer waited for (default)', waiting), row('all sent at once (sharedPrefixWaitMs 0)', atOnce));
    rows.push([`  saved by waiting`, '', '', `${(100 * (1 - waiting.cost / atOnce.cost)).toFixed(0)}%`, `+${(waiting.wallMs - atOnce.wallMs).toFixed(0)} ms`]);
  }
  return rows;
}

const COLUMNS = ['cache written (tokens)', 'cache read', 'input cost (token-eq.)', 'wall time'];
console.log(environmentHeader('agent-harness prompt-cache benchmark (issue 16): parallel subagents of one type', { quick: false, extra: [`time to first token ${TTFT} ms (BENCH_TTFT_MS)`] }));
console.log(renderTable(['Fan-out', ...COLUMNS], await compare('subagents', fanOut)));
console.log(`\nSessions of one agent started at once (a model and an agent per request; the same system prompt, each its own first prompt):\n`);
console.log(renderTable(['Sessions', ...COLUMNS], await compare('sessions', sessionsAtOnce)));
