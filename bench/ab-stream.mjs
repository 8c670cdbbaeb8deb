// A/B of two builds' own CPU per streamed answer, with the network left out: anthropicModel is
// given a client whose `messages.create` replays SSE events from memory, so what is measured is
// the adapter (and, for the agent rows, the loop and its events), not undici or the SDK's parser.
//   node bench/ab-stream.mjs ../base/dist/index.js
// Rows: the model's stream alone (a 2,000-delta text answer; a tool call whose input comes in 500
// deltas), then a whole agent run on the text answer with the host consuming every event and with
// nobody listening. Each row: the medians over AB_ROUNDS rounds (default 20, the builds' order
// alternating) of the mean CPU time (`process.cpuUsage`) of 20 answers, and the median of the
// per-round ratios.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { median } from './lib/stats.mjs';

const other = process.argv[2];
if (!other) throw new Error("usage: node bench/ab-stream.mjs <path to the other build's dist/index.js>");
const ROUNDS = Number(process.env.AB_ROUNDS ?? 20);
const PER_ROUND = 20;
const builds = { base: await import(pathToFileURL(resolve(other)).href), this: await import('../dist/index.js') };

const start = { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'bench', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } };
const end = (reason, tokens) => [{ type: 'message_delta', delta: { stop_reason: reason, stop_sequence: null }, usage: { output_tokens: tokens } }, { type: 'message_stop' }];

function textAnswer(deltas) {
  const events = [start, { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }];
  for (let index = 0; index < deltas; index++) events.push({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'word ' } });
  return [...events, { type: 'content_block_stop', index: 0 }, ...end('end_turn', deltas)];
}

function toolCall(deltas) {
  const events = [start, { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'save', input: {} } }];
  const text = JSON.stringify({ text: 'x'.repeat(deltas * 8) });
  const size = Math.ceil(text.length / deltas);
  for (let at = 0; at < text.length; at += size) events.push({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: text.slice(at, at + size) } });
  return [...events, { type: 'content_block_stop', index: 0 }, ...end('tool_use', deltas)];
}

/** A stand-in for the SDK client: every request streams `events` from memory. */
function replayingClient(events) {
  async function* replay() {
    for (const event of events) yield event;
  }
  return { messages: { create: () => ({ withResponse: async () => ({ data: replay(), request_id: 'req_bench' }) }) } };
}

const text = textAnswer(2000);
const tool = toolCall(500);
const request = { system: [], tools: [], messages: [{ role: 'user', content: 'Go.' }] };

const cases = {
  'model stream, 2,000-delta text answer': (lib) => {
    const model = lib.anthropicModel({ model: 'claude-sonnet-4-6', client: replayingClient(text) });
    return async () => {
      for await (const _event of model.stream(request));
    };
  },
  'model stream, tool input in 500 deltas': (lib) => {
    const model = lib.anthropicModel({ model: 'claude-sonnet-4-6', client: replayingClient(tool) });
    return async () => {
      for await (const _event of model.stream(request));
    };
  },
  'agent run on the text answer, host consumes': (lib) => {
    const model = lib.anthropicModel({ model: 'claude-sonnet-4-6', client: replayingClient(text) });
    return async () => {
      const run = lib.createAgent({ model }).run('Go.');
      for await (const _event of run);
      await run.result;
    };
  },
  'agent run on the text answer, nobody listens': (lib) => {
    const model = lib.anthropicModel({ model: 'claude-sonnet-4-6', client: replayingClient(text) });
    return async () => {
      await lib.createAgent({ model }).run('Go.').result;
    };
  },
};

const us = (value) => `${value.toFixed(0)} µs`;
console.log(`A/B of the streamed answer's CPU, ${ROUNDS} rounds (AB_ROUNDS) of ${PER_ROUND} answers; base = ${other}`);
for (const [name, make] of Object.entries(cases)) {
  const runs = { base: make(builds.base), this: make(builds.this) };
  for (const once of Object.values(runs)) for (let index = 0; index < 50; index++) await once();
  const cpu = { base: [], this: [] };
  const ratios = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ['base', 'this'] : ['this', 'base'];
    const got = {};
    for (const build of order) {
      const before = process.cpuUsage();
      for (let index = 0; index < PER_ROUND; index++) await runs[build]();
      const used = process.cpuUsage(before);
      got[build] = (used.user + used.system) / PER_ROUND;
      cpu[build].push(got[build]);
    }
    ratios.push(got.this / got.base);
  }
  const base = median(cpu.base);
  const mine = median(cpu.this);
  console.log(`${name.padEnd(48)} base ${us(base).padStart(8)}  this ${us(mine).padStart(8)}  ${(((mine - base) / base) * 100).toFixed(0).padStart(4)}%  per round ${((median(ratios) - 1) * 100).toFixed(0)}%`);
}
