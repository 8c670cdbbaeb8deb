// Benchmark: reading a ~100 MB Claude Code session with readClaudeCodeSessionFile (issue 4).
//
// Run from the repository root (no build needed; tsx loads the TypeScript sources):
//   node --import tsx bench/claude-code-session.bench.mjs [--size-mb 100] [--keep]
//
// It builds a synthetic session in a temp folder by repeating the lines of the real Claude Code
// fixtures (../shared/fixtures/claude-code-transcripts, or $AGENT_HARNESS_FIXTURES), with message ids, tool ids and uuids
// made unique per copy, so every merge, sidechain and skip of the real file happens at scale.
// The file is then read in a child process (so its peak RSS is the reader's alone, not the
// generator's), which prints time, throughput, entries, and peak RSS and heap. The temp folder
// is removed afterwards unless --keep is given. Exits non-zero only when something crashes.
import { spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const FIXTURES = join(process.env.AGENT_HARNESS_FIXTURES ?? join(here, '../../shared/fixtures'), 'claude-code-transcripts');
const SOURCES = [
  'spotter/ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl',
  'spotter/tool_heavy.jsonl',
  'claude-code-viewer/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl',
];

function argument(name, fallback) {
  const index = process.argv.indexOf(name);
  return index === -1 ? fallback : process.argv[index + 1];
}

const MB = 1024 * 1024;

/** Child mode: read the file, sample memory, print one JSON line. */
async function readMode(path) {
  const { readClaudeCodeSessionFile } = await import('../src/node/claude-code/read-claude-code-session-file.ts');
  let peakHeap = 0;
  const sample = () => {
    const { heapUsed } = process.memoryUsage();
    if (heapUsed > peakHeap) peakHeap = heapUsed;
  };
  const timer = setInterval(sample, 20);
  const startRss = process.memoryUsage().rss;
  const started = performance.now();
  const reader = readClaudeCodeSessionFile(path);
  let entries = 0;
  let messages = 0;
  let blocks = 0;
  for await (const entry of reader) {
    entries++;
    if (entry.kind === 'message') {
      messages++;
      if (Array.isArray(entry.message.content)) blocks += entry.message.content.length;
    }
    if ((entries & 1023) === 0) sample();
  }
  const elapsed = performance.now() - started;
  clearInterval(timer);
  sample();
  console.log(
    JSON.stringify({
      elapsedMs: elapsed,
      entries,
      messages,
      blocks,
      stats: reader.stats,
      startRss,
      peakRss: process.resourceUsage().maxRSS * 1024,
      peakHeap,
    }),
  );
}

/** Writes copies of the fixture lines until the file reaches `bytes`. */
async function generate(path, bytes) {
  const lines = [];
  for (const source of SOURCES) lines.push(...(await readFile(join(FIXTURES, source), 'utf8')).split('\n').filter(Boolean));
  const out = createWriteStream(path);
  let written = 0;
  let copy = 0;
  while (written < bytes) {
    copy++;
    for (const line of lines) {
      // Unique ids per copy: merging stays within a copy, sidechain chains stay separate.
      const text = `${line
        .replaceAll('"msg_', `"msg_c${copy}_`)
        .replaceAll('"toolu_', `"toolu_c${copy}_`)
        .replace(/"(uuid|parentUuid)":"([0-9a-f-]{36})"/g, (_match, key, id) => `"${key}":"c${copy}-${id}"`)}\n`;
      written += Buffer.byteLength(text);
      if (!out.write(text)) await new Promise((resolve) => out.once('drain', resolve));
    }
  }
  await new Promise((resolve, reject) => out.end((error) => (error ? reject(error) : resolve())));
  return copy;
}

async function main() {
  const readPath = argument('--read', undefined);
  if (readPath) return readMode(readPath);

  const sizeMb = Number(argument('--size-mb', '100'));
  const dir = await mkdtemp(join(tmpdir(), 'agent-harness-bench-'));
  const path = join(dir, 'synthetic-session.jsonl');
  try {
    const generateStarted = performance.now();
    const copies = await generate(path, sizeMb * MB);
    const size = (await stat(path)).size;
    console.log(`generated ${(size / MB).toFixed(1)} MB (${copies} copies of ${SOURCES.length} real sessions) in ${((performance.now() - generateStarted) / 1000).toFixed(1)} s: ${path}`);

    const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--read', path], {
      encoding: 'utf8',
      maxBuffer: 16 * MB,
    });
    if (child.status !== 0) {
      process.stderr.write(child.stderr);
      throw new Error(`the reading process failed with status ${child.status}`);
    }
    const result = JSON.parse(child.stdout.trim().split('\n').at(-1));
    const seconds = result.elapsedMs / 1000;
    const rows = [
      ['file size', `${(size / MB).toFixed(1)} MB`],
      ['lines', result.stats.lines.toLocaleString('en')],
      ['entries yielded', `${result.entries.toLocaleString('en')} (${result.messages.toLocaleString('en')} messages, ${result.blocks.toLocaleString('en')} blocks)`],
      ['lines merged into messages', result.stats.mergedLines.toLocaleString('en')],
      ['lines skipped / malformed', `${result.stats.skippedLines.toLocaleString('en')} / ${result.stats.malformedLines}`],
      ['read time', `${seconds.toFixed(2)} s (${(size / MB / seconds).toFixed(1)} MB/s, ${Math.round(result.stats.lines / seconds).toLocaleString('en')} lines/s)`],
      ['RSS before reading', `${(result.startRss / MB).toFixed(1)} MB`],
      ['peak RSS (whole reading process)', `${(result.peakRss / MB).toFixed(1)} MB`],
      ['peak heap used (sampled)', `${(result.peakHeap / MB).toFixed(1)} MB`],
    ];
    const width = Math.max(...rows.map(([label]) => label.length));
    console.log(`\nreadClaudeCodeSessionFile, Node ${process.version}`);
    for (const [label, value] of rows) console.log(`  ${label.padEnd(width)}  ${value}`);
  } finally {
    if (process.argv.includes('--keep')) console.log(`kept ${dir}`);
    else await rm(dir, { recursive: true, force: true });
  }
}

await main();
