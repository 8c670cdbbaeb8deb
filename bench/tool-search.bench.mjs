// Benchmark: 200 MCP tools with and without deferral (issue 14).
//
// Run from the repository root (no build needed; tsx loads the TypeScript sources):
//   node --import tsx bench/tool-search.bench.mjs
//
// 1. Input tokens per turn. Ten in-process MCP servers (the SDK's low-level `Server`) offer 200
//    tools with realistic names, descriptions and JSON Schemas (bench/lib/mcp-catalog.mjs). An
//    agent (anthropicModel through the real @anthropic-ai/sdk client, against the loopback
//    Messages server) works through five tasks, each needing one tool: once with every tool
//    loaded, once with the servers deferred (`deferLoading: true`, the BM25 tool search server
//    tool, which the loopback server runs). The tokens the model reads per request are estimated
//    as characters / 4 of what the API renders: system, loaded tool definitions, the definitions
//    of deferred tools that a search has returned so far, and the messages.
// 2. Finding the tool. Scripted queries as a model writes them (40 natural-language queries, a
//    third of them in other words than the tool's name; 8 regex patterns) over the same catalog,
//    through the same search the client-side ToolSearch and the loopback server use. Reports
//    hit@1, hit@3, hit@5 and the mean reciprocal rank.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { anthropicModel, createAgent } from '../src/index.ts';
import { startMessagesServer } from '../src/testing/messages-server/index.ts';
import { DeferredToolCatalog } from '../src/tool-search/index.ts';
import { mcpCatalog, REGEX_TASKS, SEARCH_TASKS } from './lib/mcp-catalog.mjs';

const catalog = mcpCatalog();
const fullName = (tool) => `mcp__${tool.server}__${tool.name}`;
const definitions = catalog.map((tool) => ({ name: fullName(tool), description: tool.description, input_schema: tool.inputSchema }));
const byName = new Map(definitions.map((definition) => [definition.name, definition]));

function serverFor(service) {
  const tools = catalog.filter((tool) => tool.server === service);
  const server = new Server({ name: service, version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema, annotations: { readOnlyHint: tool.readOnly } })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => ({ content: [{ type: 'text', text: `${request.params.name} done: ${JSON.stringify(request.params.arguments)}` }] }));
  return server;
}

const services = [...new Set(catalog.map((tool) => tool.server))];
const TASKS = [SEARCH_TASKS[0], SEARCH_TASKS[5], SEARCH_TASKS[17], SEARCH_TASKS[29], SEARCH_TASKS[36]];
const estimate = (value) => Math.ceil(JSON.stringify(value).length / 4);

/** What the API renders of one request body: deferred definitions only once a search found them. */
function renderedTokens(body) {
  const found = new Set();
  for (const message of body.messages) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content) {
      for (const reference of block.content?.tool_references ?? []) found.add(reference.tool_name);
    }
  }
  const tools = (body.tools ?? []).filter((tool) => tool.defer_loading !== true || found.has(tool.name));
  return { tokens: estimate(body.system ?? []) + estimate(tools) + estimate(body.messages), tools: tools.length };
}

async function session(deferred) {
  let task = -1;
  const respond = ({ body }) => {
    const last = body.messages.at(-1);
    const answered = Array.isArray(last.content) && last.content.some((block) => block.type === 'tool_result');
    if (answered) return { content: [{ type: 'text', text: 'Done.' }] };
    task++;
    const [query, expected] = TASKS[task];
    if (!deferred) return { content: [{ type: 'tool_use', id: `toolu_${task}`, name: expected, input: {} }] };
    // The model searches, then calls the best match in the same response (as the API allows).
    const best = new DeferredToolCatalog(definitions).searchKeywords(query, 5)[0].name;
    return {
      content: [
        { type: 'server_tool_use', id: `srvtoolu_${task}`, name: 'tool_search_tool_bm25', input: { query } },
        { type: 'tool_use', id: `toolu_${task}`, name: best, input: {} },
      ],
    };
  };
  const messages = await startMessagesServer({ responses: Array.from({ length: TASKS.length * 2 }, () => respond) });
  const agent = createAgent({
    model: anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'bench', baseURL: messages.url, maxRetries: 0 }),
    system: 'You are an operations assistant with access to the company tools.',
    mcpServers: Object.fromEntries(services.map((service) => [service, { type: 'sdk', server: () => serverFor(service), deferLoading: deferred }])),
    permissionMode: 'bypassPermissions',
    allowDangerouslySkipPermissions: true,
  });
  const called = [];
  agent.on('tool-call', (event) => called.push(event.toolName));
  for (const [query] of TASKS) {
    const result = await agent.run(`Please ${query}.`).result;
    if (result.status !== 'completed') throw new Error(`run ended ${result.status}: ${result.error?.message}`);
  }
  await agent.close();
  await messages.close();
  if (messages.errors.length) throw messages.errors[0];
  return { requests: messages.requests.map(renderedTokens), bodyBytes: messages.requests.map((body) => JSON.stringify(body).length), called };
}

const loaded = await session(false);
const deferred = await session(true);
const sum = (list) => list.reduce((total, value) => total + value, 0);

console.log('1. Input tokens per request (estimated, characters / 4 of what the API renders), 200 MCP tools, 5 tasks');
console.log('request  all loaded (tools)   deferred (tools)');
loaded.requests.forEach((request, index) => {
  const other = deferred.requests[index];
  console.log(`${String(index + 1).padStart(7)}  ${String(request.tokens).padStart(10)} (${String(request.tools).padStart(3)})   ${String(other.tokens).padStart(8)} (${String(other.tools).padStart(3)})`);
});
const before = sum(loaded.requests.map((request) => request.tokens));
const after = sum(deferred.requests.map((request) => request.tokens));
console.log(`  total  ${String(before).padStart(10)}         ${String(after).padStart(8)}       ${(100 * (1 - after / before)).toFixed(1)}% fewer input tokens with deferral`);
console.log(`  first request: ${loaded.requests[0].tokens} → ${deferred.requests[0].tokens} tokens; request body on the wire: ${loaded.bodyBytes[0]} → ${deferred.bodyBytes[0]} bytes (deferred definitions are still sent, not rendered)`);
const right = deferred.called.filter((name, index) => name === TASKS[index][1]).length;
console.log(`  tools called after a search: ${right}/${TASKS.length} were the ones the tasks needed (${deferred.called.join(', ')})`);

function quality(label, tasks, search) {
  let hit1 = 0;
  let hit3 = 0;
  let hit5 = 0;
  let reciprocal = 0;
  const misses = [];
  for (const [query, expected] of tasks) {
    const names = search(query);
    const rank = names.indexOf(expected) + 1;
    if (rank === 1) hit1++;
    if (rank >= 1 && rank <= 3) hit3++;
    if (rank >= 1 && rank <= 5) hit5++;
    if (rank > 0) reciprocal += 1 / rank;
    if (rank !== 1) misses.push(`"${query}" → ${rank ? `rank ${rank}` : 'not in the top 5'} (first: ${names[0] ?? 'none'})`);
  }
  const percent = (count) => `${((100 * count) / tasks.length).toFixed(0)}%`;
  console.log(`${label.padEnd(22)} ${String(tasks.length).padStart(7)}  ${percent(hit1).padStart(5)}  ${percent(hit3).padStart(5)}  ${percent(hit5).padStart(5)}  ${(reciprocal / tasks.length).toFixed(2)}`);
  for (const miss of misses) console.log(`    ${miss}`);
}

const searchable = new DeferredToolCatalog(definitions);
console.log();
console.log('2. Finding the needed tool among 200 (scripted queries)');
console.log('search                 queries  hit@1  hit@3  hit@5   MRR');
quality('BM25 (keywords)', SEARCH_TASKS, (query) => searchable.searchKeywords(query, 5).map((definition) => definition.name));
quality('regex (Python dialect)', REGEX_TASKS, (pattern) => {
  const found = searchable.searchRegex(pattern, 5);
  return found.ok ? found.names : [];
});
console.log(`(catalog: ${byName.size} tools on ${services.length} servers)`);
