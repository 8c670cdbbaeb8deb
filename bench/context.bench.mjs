// Benchmark: context management (issue 12), side by side with the same session without it.
//
// Run from the repository root (no build needed; tsx loads the TypeScript sources):
//   node --import tsx bench/context.bench.mjs [--turns 2000] [--cache-turns 200] [--wide-turns 30]
//
// 1. Long session: `--turns` model calls, each reading a 20 KB file, through createAgent with a
//    fake in-process model that refuses a prompt over the window exactly as the API does
//    ("prompt is too long") and reports usage by the same token heuristic. With context
//    management (defaults: clearing at 50 %, compaction at 90 % of a 200,000-token window) it must
//    never exceed the window and never fail; without it (clearing and compaction off) it dies.
// 2. Cache-read share over `--cache-turns` turns: the real SDK (anthropicModel) against the
//    loopback Messages server, which models prompt caching as the API documents it (breakpoints,
//    longest cached prefix, minimum length, 5-minute lifetime on an injected clock: 10 s a turn).
//    Share = cache_read / (input + cache_read + cache_creation), summed over every call (summary
//    calls included). Run with compaction (40,000-token window), with clearing and compaction
//    (the defaults, same window) and without either (no window).
// 3. Tokens sent over the whole task with and without compaction, and the cost of one
//    compaction (its summary call's input and output tokens), from run 2.
// 4. Wide turns: `--wide-turns` turns of 12 parallel reads (24 blocks a turn, past the API's
//    20-block cache lookback) and of 2, through the same SDK and server: the cache-read share and
//    what the input cost at Sonnet 4.6 prices.
// 5. Screenshots: `--screenshot-turns` turns of one 2560-pixel screenshot each (past 20 images, the
//    API takes none over 2000 pixels, so the request leaves the oldest out), through the same SDK
//    and server: the cache-read share and the input cost at Sonnet 4.6 prices.
// 6. A plan asked for in the middle of a session (`requestPlan`, after 20 reads): the cache-read
//    share of the plan request and of the whole session, in text mode (the default) and native.
// Prints PASS/MISS per goal; exits non-zero only when something crashes.
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { anthropicModel, createAgent, DEFAULT_PRICES, defineTool, estimateCost, estimateMessageTokens, estimatePrefixTokens, ModelError, requestPlan, toolOutput } from '../src/index.ts';
import { startMessagesServer } from '../src/testing/messages-server/index.ts';
import { base64, pngHeader } from '../test/model/image-headers.ts';

function argument(name, fallback) {
  const index = process.argv.indexOf(name);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
}
const TURNS = argument('--turns', 2000);
const CACHE_TURNS = argument('--cache-turns', 200);
const SUMMARY_ASK = 'is about to be replaced by a summary';

const lastText = (messages) => {
  const last = messages[messages.length - 1];
  return typeof last.content === 'string' ? last.content : last.content.map((block) => block.text ?? '').join('\n');
};

const fileTool = (chars) =>
  defineTool({
    name: 'Read',
    description: 'Reads a file.',
    inputSchema: z.object({ path: z.string() }),
    readOnly: true,
    execute: ({ input }) => `contents of ${input.path}\n${'lorem ipsum dolor sit amet '.repeat(Math.ceil(chars / 27)).slice(0, chars)}`,
  });

/** A fake model that enforces the window with the estimate (cached per message) and answers N reads, then text. */
function windowModel(window, turns) {
  const cache = new WeakMap();
  const tokensOf = (message) => {
    let tokens = cache.get(message);
    if (tokens === undefined) cache.set(message, (tokens = estimateMessageTokens(message)));
    return tokens;
  };
  const stats = { calls: 0, maxTokens: 0, refused: 0, summaries: 0, reads: 0 };
  return {
    stats,
    model: {
      specificationVersion: 'v1',
      provider: 'bench',
      modelId: 'claude-sonnet-4-6',
      async *stream(request) {
        stats.calls++;
        let tokens = estimatePrefixTokens(request);
        for (const message of request.messages) tokens += tokensOf(message);
        stats.maxTokens = Math.max(stats.maxTokens, tokens);
        if (tokens > window) {
          stats.refused++;
          throw new ModelError(`prompt is too long: ${tokens} tokens > ${window} maximum`, { status: 400, errorType: 'invalid_request_error' });
        }
        let content;
        if (lastText(request.messages).includes(SUMMARY_ASK)) {
          stats.summaries++;
          content = [{ type: 'text', text: `<summary>\n## Goal\nRead every file.\n## Done\n${stats.reads} files read.\n## Next step\nRead file ${stats.reads + 1}.\n</summary>` }];
        } else if (stats.reads < turns) {
          stats.reads++;
          content = [{ type: 'tool_use', id: `toolu_${stats.reads}`, name: 'Read', input: { path: `file-${stats.reads}.txt` } }];
        } else content = [{ type: 'text', text: 'All files read.' }];
        const message = { role: 'assistant', content };
        yield { type: 'response', response: { message, stopReason: content[0].type === 'tool_use' ? 'tool_use' : 'end_turn', usage: { inputTokens: tokens, outputTokens: estimateMessageTokens(message), cacheReadInputTokens: 0, cacheCreationInputTokens: 0 } } };
      },
    },
  };
}

async function longSession(withContext) {
  const window = 200_000;
  const { model, stats } = windowModel(window, TURNS);
  const agent = createAgent({ model, tools: [fileTool(20_000)], maxTurns: TURNS * 2, context: withContext ? {} : { clearing: false, compaction: false } });
  let compactions = 0;
  let clearings = 0;
  agent.on('compaction-end', (event) => (event.error ? undefined : compactions++));
  agent.on('tool-results-cleared', () => clearings++);
  const started = performance.now();
  const result = await agent.run('Read every file, one at a time.').result;
  return { result, stats, compactions, clearings, ms: performance.now() - started, window };
}

async function cachedSession(withCompaction, clearing = false) {
  let clock = 0;
  const server = await startMessagesServer({ promptCaching: { now: () => clock }, ...(withCompaction ? { contextWindow: 40_000 } : {}) });
  let reads = 0;
  const respond = ({ body }) => {
    clock += 10_000;
    if (lastText(body.messages).includes(SUMMARY_ASK)) return { content: [{ type: 'text', text: `<summary>\n## Goal\nRead every file.\n## Done\n${reads} files read.\n## Next step\nRead the next file.\n</summary>` }] };
    if (reads < CACHE_TURNS) return { content: [{ type: 'tool_use', id: `toolu_${++reads}`, name: 'Read', input: { path: `file-${reads}.txt` } }], stop_reason: 'tool_use' };
    return { content: [{ type: 'text', text: 'All files read.' }] };
  };
  for (let index = 0; index < CACHE_TURNS * 2; index++) server.enqueue(respond);
  const model = anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'bench', baseURL: server.url, maxRetries: 0 });
  const agent = createAgent({
    model,
    system: `You read files carefully.\n${'Be thorough and precise. '.repeat(200)}`,
    tools: [fileTool(2_000)],
    maxTurns: CACHE_TURNS * 2,
    context: withCompaction ? { window: 40_000, ...(clearing ? {} : { clearing: false }), compaction: { keepTokens: 4_000, outputReserve: 4_000 } } : { window: 10_000_000, clearing: false, compaction: false },
  });
  const compactions = [];
  agent.on('compaction-end', (event) => compactions.push(event.usage));
  const result = await agent.run('Read every file, one at a time.').result;
  await agent.close();
  await server.close();
  const u = result.usage;
  const input = u.inputTokens + u.cacheReadInputTokens + u.cacheCreationInputTokens;
  return { result, share: u.cacheReadInputTokens / input, input, output: u.outputTokens, compactions, errors: server.errors ?? [] };
}

/**
 * Wide turns: `turns` turns of `width` parallel reads each (a call and a result block per read),
 * no compaction or clearing, through the real SDK and the loopback server's prompt cache (which
 * looks 20 blocks back from a breakpoint, as the API does). Returns the cache-read share and what
 * the input cost at Sonnet 4.6 prices (`estimateCost`).
 */
async function wideSession(turns, width) {
  const server = await startMessagesServer({ promptCaching: { now: () => 0 } });
  let turn = 0;
  const respond = () => {
    turn += 1;
    if (turn > turns) return { content: [{ type: 'text', text: 'All files read.' }] };
    return { content: Array.from({ length: width }, (_, index) => ({ type: 'tool_use', id: `toolu_${turn}_${index}`, name: 'Read', input: { path: `file-${turn}-${index}.txt` } })) };
  };
  for (let index = 0; index <= turns; index++) server.enqueue(respond);
  const model = anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'bench', baseURL: server.url, maxRetries: 0 });
  const agent = createAgent({ model, system: `You read files carefully.\n${'Be thorough and precise. '.repeat(200)}`, tools: [fileTool(500)], maxTurns: turns + 1, context: { window: 10_000_000, clearing: false, compaction: false } });
  const result = await agent.run('Read every file.').result;
  await agent.close();
  await server.close();
  const u = result.usage;
  const input = u.inputTokens + u.cacheReadInputTokens + u.cacheCreationInputTokens;
  const cost = estimateCost({ ...u, outputTokens: 0 }, DEFAULT_PRICES['claude-sonnet-4']);
  return { status: result.status, share: u.cacheReadInputTokens / input, input, cost, errors: server.errors ?? [] };
}

/** A PNG of `side` × `side` pixels as far as its header tells, padded to about `tokens` of the loopback server's count. */
function screenshot(side, tokens, turn) {
  const data = base64(pngHeader(side, side));
  return { type: 'image', source: { type: 'base64', media_type: 'image/png', data: data + `${turn}`.padEnd(tokens * 4 - data.length, 'A') } };
}

/**
 * Screenshots: `turns` turns of one 2560-pixel screenshot each (about 1,600 tokens, as the API
 * counts such an image), through the real SDK and the loopback server's prompt cache. Past 20
 * images the request leaves the oldest large ones out, a step at a time.
 */
async function screenshotSession(turns) {
  const server = await startMessagesServer({ promptCaching: { now: () => 0 } });
  for (let turn = 0; turn < turns; turn++) server.enqueue({ content: [{ type: 'tool_use', id: `toolu_${turn}`, name: 'Screenshot', input: {} }] });
  server.enqueue({ content: [{ type: 'text', text: 'Watched.' }] });
  let shots = 0;
  const tool = defineTool({ name: 'Screenshot', description: 'Takes a screenshot.', inputSchema: z.object({}), readOnly: true, execute: () => toolOutput([screenshot(2560, 1600, shots++)]) });
  const model = anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'bench', baseURL: server.url, maxRetries: 0 });
  const agent = createAgent({ model, system: `You watch a screen.\n${'Describe what changes. '.repeat(250)}`, tools: [tool], maxTurns: turns + 1, context: { window: 10_000_000, clearing: false, compaction: false } });
  const result = await agent.run('Watch the screen.').result;
  await agent.close();
  await server.close();
  const u = result.usage;
  const input = u.inputTokens + u.cacheReadInputTokens + u.cacheCreationInputTokens;
  return { status: result.status, share: u.cacheReadInputTokens / input, input, cost: estimateCost({ ...u, outputTokens: 0 }, DEFAULT_PRICES['claude-sonnet-4']), errors: server.errors ?? [] };
}

/**
 * A plan asked for in the middle of a session: 20 reads of 2 KB, `requestPlan`, then the run that
 * writes, through the real SDK and the loopback server's prompt cache. Returns the cache-read
 * share of the plan request and of the whole session, and the session's input cost.
 */
async function planSession(outputMode) {
  const server = await startMessagesServer({ promptCaching: { now: () => 0 } });
  for (let turn = 0; turn < 20; turn++) server.enqueue({ content: [{ type: 'tool_use', id: `toolu_${turn}`, name: 'Read', input: { path: `notes-${turn}.md` } }] });
  server.enqueue({ content: [{ type: 'text', text: 'I have read the notes.' }] });
  server.enqueue({ content: [{ type: 'text', text: JSON.stringify({ goal: 'An article', outline: ['One', 'Two'], steps: [{ title: 'Write it' }], risks: [] }) }] });
  server.enqueue({ content: [{ type: 'text', text: 'Written.' }] });
  const model = anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'bench', baseURL: server.url, maxRetries: 0 });
  const agent = createAgent({ model, system: `You write articles.\n${'Research, then plan, then write. '.repeat(150)}`, tools: [fileTool(2000)], context: { window: 10_000_000, clearing: false, compaction: false } });
  const usages = [];
  agent.on('turn-end', (event) => usages.push(event.usage));
  await agent.run('Research the notes.').result;
  const before = usages.length;
  await requestPlan(agent, { outputMode });
  const planUsage = usages[before];
  await agent.run('The plan is approved. Write it.').result;
  await agent.close();
  await server.close();
  const sum = (key) => usages.reduce((total, usage) => total + usage[key], 0);
  const input = sum('inputTokens') + sum('cacheReadInputTokens') + sum('cacheCreationInputTokens');
  const planInput = planUsage.inputTokens + planUsage.cacheReadInputTokens + planUsage.cacheCreationInputTokens;
  const cost = estimateCost({ inputTokens: sum('inputTokens'), cacheReadInputTokens: sum('cacheReadInputTokens'), cacheCreationInputTokens: sum('cacheCreationInputTokens'), outputTokens: 0 }, DEFAULT_PRICES['claude-sonnet-4']);
  return { share: sum('cacheReadInputTokens') / input, planShare: planUsage.cacheReadInputTokens / planInput, cost, errors: server.errors ?? [] };
}

const line = (goal, ok, detail) => console.log(`${ok ? 'PASS' : 'MISS'}  ${goal}: ${detail}`);

console.log(`context benchmark — Node ${process.version}\n`);
const withCm = await longSession(true);
const without = await longSession(false);
line(
  `${TURNS}-turn session with 20 KB results never exceeds the window and never fails`,
  withCm.result.status === 'completed' && withCm.stats.refused === 0 && withCm.stats.maxTokens <= withCm.window,
  `status ${withCm.result.status}, ${withCm.stats.reads} reads, largest request ${withCm.stats.maxTokens} of ${withCm.window} tokens, ${withCm.stats.refused} refused, ${withCm.compactions} compactions, ${withCm.clearings} clearings, ${(withCm.ms / 1000).toFixed(1)} s`,
);
console.log(`      without context management: status ${without.result.status} after ${without.stats.reads} reads (${without.result.error?.message?.slice(0, 70) ?? 'no error'})`);

const cached = await cachedSession(true);
const uncompacted = await cachedSession(false);
const cleared = await cachedSession(true, true);
line(
  `cache-read share of input tokens over ${CACHE_TURNS} turns ≥ 90 %`,
  cached.share >= 0.9 && uncompacted.share >= 0.9 && cleared.share >= 0.9,
  `with compaction ${(cached.share * 100).toFixed(1)} % (${cached.compactions.length} compactions), without ${(uncompacted.share * 100).toFixed(1)} %, with clearing and compaction (the defaults) ${(cleared.share * 100).toFixed(1)} %; server errors ${cached.errors.length + uncompacted.errors.length + cleared.errors.length}`,
);
const perCompaction = cached.compactions.length
  ? cached.compactions.reduce((sum, usage) => sum + usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens, 0) / cached.compactions.length
  : 0;
const perCompactionOut = cached.compactions.length ? cached.compactions.reduce((sum, usage) => sum + usage.outputTokens, 0) / cached.compactions.length : 0;
line(
  'tokens sent over the whole task: compaction sends fewer',
  cached.input < uncompacted.input,
  `with compaction ${cached.input.toLocaleString('en-US')} input tokens, without ${uncompacted.input.toLocaleString('en-US')} (${((cached.input / uncompacted.input) * 100).toFixed(0)} %); one compaction costs ${Math.round(perCompaction).toLocaleString('en-US')} input + ${Math.round(perCompactionOut)} output tokens`,
);
const WIDE_TURNS = argument('--wide-turns', 30);
const wide = await wideSession(WIDE_TURNS, 12);
const narrow = await wideSession(WIDE_TURNS, 2);
line(
  `cache-read share of input tokens over ${WIDE_TURNS} turns of 12 parallel calls (24 blocks a turn, past the API's 20-block lookback) ≥ 90 %`,
  wide.status === 'completed' && wide.share >= 0.9 && wide.errors.length === 0,
  `${(wide.share * 100).toFixed(1)} %, input ${wide.input.toLocaleString('en-US')} tokens costing $${wide.cost.toFixed(2)} at Sonnet 4.6 prices; 2 parallel calls a turn: ${(narrow.share * 100).toFixed(1)} %`,
);
const SCREENSHOT_TURNS = argument('--screenshot-turns', 60);
const shots = await screenshotSession(SCREENSHOT_TURNS);
if (shots.status !== 'completed' || shots.errors.length > 0) throw new Error(`the screenshot session ended ${shots.status} with ${shots.errors.length} server errors`);
// Information, not a goal: every tenth request past 20 screenshots writes the history again.
console.log(`INFO  cache-read share of input tokens over ${SCREENSHOT_TURNS} turns of one 2560-pixel screenshot each (past 20, the oldest large ones go as notes, ten at a time): ${(shots.share * 100).toFixed(1)} %, input ${shots.input.toLocaleString('en-US')} tokens costing $${shots.cost.toFixed(2)} at Sonnet 4.6 prices`);
const planText = await planSession('text');
const planNative = await planSession('native');
line(
  'a plan asked for after 20 reads (requestPlan) reads the session from the cache: plan request ≥ 90 %',
  planText.planShare >= 0.9 && planText.errors.length === 0,
  `plan request ${(planText.planShare * 100).toFixed(1)} %, whole session ${(planText.share * 100).toFixed(1)} %, input $${planText.cost.toFixed(3)}; with outputMode 'native' (a format changes the system prompt): plan request ${(planNative.planShare * 100).toFixed(1)} %, whole session ${(planNative.share * 100).toFixed(1)} %, $${planNative.cost.toFixed(3)}`,
);
