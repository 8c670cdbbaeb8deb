// Benchmark of the file session store (issue 5): appending a 1,000-turn session, one append call
// per turn, with and without fsync; then loading it all back, as a resume does.
//
// Run: `npx tsup && node --expose-gc bench/session-store.bench.mjs`
// (without --expose-gc it still runs; heap figures are then noisier).
// Settings: BENCH_TURNS (default 1000), BENCH_RUNS warm loads (default 9), BENCH_COLD_RUNS loads
// in fresh processes (default 5), BENCH_FSYNC_TURNS
// (default = BENCH_TURNS; lower it on slow disks). Works in a temporary directory, removed after.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileSessionStore } from '../dist/node/index.js';
import { mean, median, quantile } from './lib/stats.mjs';
import { renderTable } from './lib/table.mjs';

const TURNS = Number(process.env.BENCH_TURNS ?? 1000);
const FSYNC_TURNS = Number(process.env.BENCH_FSYNC_TURNS ?? TURNS);
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 5);
const GOAL_LOAD_MS = 100;

const sessionId = 'session_bench0000000001';
let entryCount = 0;
let parentId = null;

function stamp(fields) {
  entryCount += 1;
  const id = `e${String(entryCount).padStart(8, '0')}`;
  const entry = { $schemaVersion: 1, id, parentId, timestamp: new Date(Date.UTC(2026, 0, 1) + entryCount * 1000).toISOString(), sessionId, ...fields };
  parentId = id;
  return entry;
}

/** One turn: the assistant calls a tool, the tool answers, the answer goes back as a user message (~1.5 KB). */
function turn(index) {
  const toolUseId = `toolu_${String(index).padStart(20, '0')}`;
  const input = { path: `notes/chapter-${index}.md`, query: `section ${index} `.repeat(12) };
  const output = `Line ${index}: lorem ipsum dolor sit amet, consectetur adipiscing elit. `.repeat(6);
  const block = { type: 'tool_result', tool_use_id: toolUseId, content: output };
  return [
    stamp({
      kind: 'message',
      messageId: `msg_${index}`,
      message: { role: 'assistant', content: [{ type: 'text', text: `Reading chapter ${index} to check the outline.` }, { type: 'tool_use', id: toolUseId, name: 'Read', input }] },
      usage: { input_tokens: 1200 + index, output_tokens: 80, cache_read_input_tokens: 1000, cache_creation_input_tokens: 0 },
    }),
    stamp({ kind: 'tool-result', toolUseId, toolName: 'Read', result: block }),
    stamp({ kind: 'message', message: { role: 'user', content: [block] } }),
  ];
}

const gc = globalThis.gc ?? (() => undefined);
const heap = () => process.memoryUsage().heapUsed;

async function appendSession(dir, turns, fsync) {
  const store = fileSessionStore({ dir, fsync });
  entryCount = 0;
  parentId = null;
  const batches = Array.from({ length: turns }, (_, index) => turn(index));
  const times = [];
  let revision = 0;
  const started = performance.now();
  for (const batch of batches) {
    const before = performance.now();
    await store.append(sessionId, batch, { expectedRevision: revision });
    times.push(performance.now() - before);
    revision += batch.length;
  }
  const total = performance.now() - started;
  await store.close(sessionId);
  return { times, total, bytes: statSync(join(dir, `${sessionId}.jsonl`)).size };
}

/** Times one full load in this (warm) process, keeping every entry as a resume does. */
async function timeLoad(dir) {
  const store = fileSessionStore({ dir });
  const kept = [];
  const started = performance.now();
  for await (const entry of store.load(sessionId)) kept.push(entry);
  return { time: performance.now() - started, count: kept.length };
}

/** The first load in a fresh Node process (cold JIT, small heap): what a resume after a restart pays. */
function timeColdLoad(dir) {
  const script = `
    import { fileSessionStore } from ${JSON.stringify(new URL('../dist/node/index.js', import.meta.url).href)};
    const store = fileSessionStore({ dir: ${JSON.stringify(dir)} });
    const kept = [];
    const started = performance.now();
    for await (const entry of store.load(${JSON.stringify(sessionId)})) kept.push(entry);
    console.log(performance.now() - started);`;
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).trim());
}

/** Heap growth during a load (sampled) and after it (collected); `keep` holds every entry. */
async function heapOfLoad(dir, keep) {
  const store = fileSessionStore({ dir });
  gc();
  const baseline = heap();
  let peak = baseline;
  const kept = [];
  let count = 0;
  for await (const entry of store.load(sessionId)) {
    count += 1;
    if (keep) kept.push(entry);
    if (count % 64 === 0) peak = Math.max(peak, heap());
  }
  peak = Math.max(peak, heap());
  gc();
  const retained = heap() - baseline;
  return { count: kept.length, peakGrowth: peak - baseline, retained };
}

const ms = (value) => `${value.toFixed(2)} ms`;
const us = (value) => `${(value * 1000).toFixed(0)} µs`;
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;

const root = mkdtempSync(join(os.tmpdir(), 'session-store-bench-'));
try {
  const plain = await appendSession(join(root, 'plain'), TURNS, false);
  const synced = await appendSession(join(root, 'synced'), FSYNC_TURNS, true);

  const appendRows = [
    ['append, fsync: false', TURNS, us(median(plain.times)), us(quantile(plain.times, 0.95)), us(mean(plain.times)), ms(plain.total)],
    ['append, fsync: true', FSYNC_TURNS, us(median(synced.times)), us(quantile(synced.times, 0.95)), us(mean(synced.times)), ms(synced.total)],
  ];

  const dir = join(root, 'plain');
  const cold = Array.from({ length: COLD_RUNS }, () => timeColdLoad(dir));
  // Warm up once (JIT, page cache), then time RUNS loads of the whole session.
  const { count } = await timeLoad(dir);
  const warm = [];
  for (let run = 0; run < RUNS; run++) warm.push((await timeLoad(dir)).time);
  const kept = await heapOfLoad(dir, true);
  const streamed = await heapOfLoad(dir, false);
  const goal = (times) => `${median(times) < GOAL_LOAD_MS ? 'PASS' : 'MISS'} < ${GOAL_LOAD_MS} ms`;

  console.log(`Session store benchmark: ${TURNS} turns (${count} entries, ${mb(plain.bytes)} of JSONL, ${(plain.bytes / TURNS / 1024).toFixed(2)} KB per turn)`);
  console.log(`Node ${process.version}, ${os.cpus().length} cores, ${os.platform()}, load average ${os.loadavg()[0].toFixed(2)}, gc ${globalThis.gc ? 'exposed' : 'NOT exposed (heap figures unreliable)'}\n`);
  console.log(renderTable(['append', 'turns', 'median per turn', 'p95 per turn', 'mean per turn', 'total'], appendRows));
  console.log('');
  console.log(
    renderTable(
      ['load all entries', 'runs', 'median', 'min', 'max', 'goal'],
      [
        ['cold: first load in a fresh process', COLD_RUNS, ms(median(cold)), ms(Math.min(...cold)), ms(Math.max(...cold)), goal(cold)],
        ['warm: repeated loads in one process', RUNS, ms(median(warm)), ms(Math.min(...warm)), ms(Math.max(...warm)), goal(warm)],
      ],
    ),
  );
  console.log('');
  console.log(
    renderTable(
      ['heap during a load', 'peak growth (sampled)', 'retained after gc'],
      [
        ['every entry kept (as a resume does)', mb(kept.peakGrowth), mb(kept.retained)],
        ['streamed, nothing kept', mb(streamed.peakGrowth), mb(streamed.retained)],
      ],
    ),
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
