// Session stores side by side (issue 15): appends per second while writing a 1,000-turn session
// (one compare-and-append per turn; an agent's journal makes two per tool turn, which
// bench/store-turns.bench.mjs measures through the agent), then the time to read it back
// (store.load) and to resume it (createAgent({ store, resume }) + agent.ready).
//
// Run: `npm run bench:stores` (builds first). PostgreSQL and Redis are the loopback servers, or
// AGENT_HARNESS_PG_URL / AGENT_HARNESS_REDIS_URL; a store whose server is unreachable is left out
// with one line saying so. Each run uses its own directory, schema and key prefix, removed after.
// Settings: BENCH_TURNS (default 1000), BENCH_RUNS warm reads per store (default 7).
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { createAgent, memorySessionStore } from '../dist/index.js';
import { fileSessionStore } from '../dist/node/index.js';
import { postgresSessionStore } from '../dist/postgres/index.js';
import { redisSessionStore } from '../dist/redis/index.js';
import { fakeModel } from './lib/fake-model.mjs';
import { median, quantile } from './lib/stats.mjs';
import { renderTable } from './lib/table.mjs';

const TURNS = Number(process.env.BENCH_TURNS ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const PG_URL = process.env.AGENT_HARNESS_PG_URL || 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.AGENT_HARNESS_REDIS_URL || 'redis://127.0.0.1:6379';
const SESSION = 'session_bench_stores_01';
const tag = `ah_bench_${process.pid}_${Date.now().toString(36)}`;

/** The session's entries, turn by turn: assistant tool call, tool result, user message (~1.5 KB). */
function sessionTurns() {
  let seq = 0;
  let parentId = null;
  const stamp = (fields) => {
    seq += 1;
    const id = `e${String(seq).padStart(8, '0')}`;
    const entry = { $schemaVersion: 2, id, parentId, seq, timestamp: new Date(Date.UTC(2027, 0, 1) + seq * 1000).toISOString(), sessionId: SESSION, ...fields };
    parentId = id;
    return entry;
  };
  const first = [stamp({ kind: 'message', message: { role: 'user', content: [{ type: 'text', text: 'Check every chapter of the notes.' }] } })];
  const turns = Array.from({ length: TURNS }, (_, index) => {
    const toolUseId = `toolu_${String(index).padStart(20, '0')}`;
    const input = { path: `notes/chapter-${index}.md`, query: `section ${index} `.repeat(12) };
    const block = { type: 'tool_result', tool_use_id: toolUseId, content: `Line ${index}: lorem ipsum dolor sit amet, consectetur adipiscing elit. `.repeat(6) };
    return [
      stamp({
        kind: 'message',
        messageId: `msg_${index}`,
        message: { role: 'assistant', content: [{ type: 'text', text: `Reading chapter ${index}.` }, { type: 'tool_use', id: toolUseId, name: 'Read', input }] },
        usage: { input_tokens: 1200 + index, output_tokens: 80, cache_read_input_tokens: 1000, cache_creation_input_tokens: 0 },
      }),
      stamp({ kind: 'tool-result', toolUseId, toolName: 'Read', result: block }),
      stamp({ kind: 'message', message: { role: 'user', content: [block] } }),
    ];
  });
  return [first, ...turns];
}

/** Each store: how to open it on this run's data, and how to clean up after. */
async function stores() {
  const list = [{ name: 'memory (reference)', open: (() => { const store = memorySessionStore(); return () => store; })(), cleanup: async () => undefined }];
  const dir = mkdtempSync(join(os.tmpdir(), 'stores-bench-'));
  list.push({ name: 'file', open: () => fileSessionStore({ dir: join(dir, 'plain') }), cleanup: async () => undefined, size: () => statSync(join(dir, 'plain', `${SESSION}.jsonl`)).size });
  list.push({ name: 'file, fsync', open: () => fileSessionStore({ dir: join(dir, 'synced'), fsync: true }), cleanup: async () => rmSync(dir, { recursive: true, force: true }) });

  const pool = new pg.Pool({ connectionString: PG_URL, max: 4, connectionTimeoutMillis: 2000 });
  try {
    await pool.query('SELECT 1');
    list.push({
      name: 'PostgreSQL',
      open: () => postgresSessionStore({ pool, schema: tag }),
      cleanup: async () => {
        await pool.query(`DROP SCHEMA IF EXISTS "${tag}" CASCADE`);
        await pool.end();
      },
    });
  } catch (error) {
    console.log(`Leaving out PostgreSQL: no server at ${PG_URL} (${error.message}); set AGENT_HARNESS_PG_URL.`);
    await pool.end().catch(() => undefined);
  }

  const client = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 1, retryStrategy: () => null });
  try {
    await client.connect();
    const keyPrefix = `${tag}:`;
    list.push({
      name: 'Redis',
      open: () => redisSessionStore({ client, keyPrefix }),
      cleanup: async () => {
        const keys = await client.keys(`${keyPrefix}*`);
        if (keys.length > 0) await client.del(...keys);
        await client.quit();
      },
    });
  } catch (error) {
    console.log(`Leaving out Redis: no server at ${REDIS_URL} (${error.message}); set AGENT_HARNESS_REDIS_URL.`);
    client.disconnect();
  }
  return list;
}

async function timeAppends(store, batches) {
  const times = [];
  const started = performance.now();
  for (const batch of batches) {
    const before = performance.now();
    await store.append(SESSION, batch, { expectedRevision: batch[0].seq - 1 });
    times.push(performance.now() - before);
  }
  return { times, total: performance.now() - started };
}

async function timeLoad(store) {
  const started = performance.now();
  let count = 0;
  for await (const _entry of store.load(SESSION)) count += 1;
  return { time: performance.now() - started, count };
}

async function timeResume(store) {
  const started = performance.now();
  const agent = createAgent({ model: fakeModel({ decide: () => [] }), store, resume: SESSION });
  await agent.ready;
  const time = performance.now() - started;
  const messages = agent.messages.length;
  await agent.close();
  return { time, messages };
}

const ms = (value) => (value < 1 ? `${(value * 1000).toFixed(0)} µs` : `${value.toFixed(2)} ms`);
const rate = (count, totalMs) => Math.round((count * 1000) / totalMs).toLocaleString('en-US');

const batches = sessionTurns();
const entries = batches.reduce((sum, batch) => sum + batch.length, 0);
const rows = [];
for (const { name, open, cleanup } of await stores()) {
  try {
    const writer = open();
    const appends = await timeAppends(writer, batches);
    await writer.close?.(SESSION);
    // A fresh store instance per read, as a resuming process has.
    const first = await timeResume(open());
    const loads = [];
    const resumes = [];
    for (let run = 0; run < RUNS; run++) {
      const load = await timeLoad(open());
      if (load.count !== entries) throw new Error(`${name} loaded ${load.count} of ${entries} entries`);
      loads.push(load.time);
      resumes.push((await timeResume(open())).time);
    }
    rows.push([
      name,
      ms(median(appends.times)),
      ms(quantile(appends.times, 0.95)),
      rate(batches.length, appends.total),
      rate(entries, appends.total),
      ms(median(loads)),
      ms(first.time),
      ms(median(resumes)),
    ]);
  } finally {
    await cleanup();
  }
}

console.log(`\nSession stores: a ${TURNS}-turn session (${entries} entries, ~1.5 KB per turn), one append per turn; ${RUNS} warm reads each.`);
console.log(`Node ${process.version}, ${os.cpus().length} cores, ${os.platform()}, load average ${os.loadavg().map((value) => value.toFixed(2)).join(' ')}\n`);
console.log(
  renderTable(
    ['store', 'append p50', 'append p95', 'turns/s', 'entries/s', `load ${entries} entries (p50)`, 'resume, first', 'resume (p50)'],
    rows,
  ),
);
