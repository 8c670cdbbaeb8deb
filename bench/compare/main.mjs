// Side-by-side benchmark: agent-harness, @openai/agents and the Vercel AI SDK (`ai`) on the same
// scenarios with instant fake models. Each library × scenario runs in its own child process, one
// at a time. Run from bench/: `npm ci && npm run compare` (needs the root build in dist/).
// See the "Side by side" section of bench/README.md for the method and caveats.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { importTimes } from './import-time.mjs';
import { harnessSizes, installedSize } from './installed-size.mjs';
import { renderReport } from './report.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const benchDir = join(here, '..');
const repoRoot = join(benchDir, '..');
const distEntry = join(repoRoot, 'dist', 'index.js');
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));
const installedVersion = (name) => readJson(join(benchDir, 'node_modules', name, 'package.json')).version;

const LIBRARIES = [
  { file: 'agent-harness', name: 'agent-harness', version: `${readJson(join(repoRoot, 'package.json')).version} (repo dist/)`, specifier: pathToFileURL(distEntry).href },
  { file: 'openai-agents', name: '@openai/agents', version: installedVersion('@openai/agents'), specifier: '@openai/agents' },
  { file: 'vercel-ai', name: 'ai', version: installedVersion('ai'), specifier: 'ai' },
];
const SCENARIOS = [
  ['perTurn', 'per-turn'],
  ['parallel', 'parallel'],
  ['heap', 'heap'],
];
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const IMPORT_SAMPLES = Number(process.env.BENCH_IMPORT_SAMPLES ?? 15);
const SKIP_SIZES = process.env.BENCH_SKIP_SIZES === '1';

function warnIfDistStale() {
  const built = statSync(distEntry, { throwIfNoEntry: false })?.mtimeMs;
  if (built === undefined) throw new Error(`no build at ${distEntry}: run \`npx tsup\` (or npm run build) at the repo root first`);
  const newest = readdirSync(join(repoRoot, 'src'), { recursive: true })
    .map((file) => statSync(join(repoRoot, 'src', file)).mtimeMs)
    .reduce((a, b) => Math.max(a, b), 0);
  if (newest > built) console.error('warning: src/ changed after dist/ was built; run `npx tsup` at the repo root for current numbers');
}

function runWorker(library, scenario) {
  const started = performance.now();
  const child = spawnSync(process.execPath, ['--expose-gc', join(here, 'worker.mjs'), library.file, scenario], {
    cwd: benchDir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 24,
    env: { ...process.env, BENCH_RUNS: String(RUNS) },
  });
  if (child.status !== 0) throw new Error(`${library.name} ${scenario} failed (exit ${child.status ?? child.signal})`);
  console.error(`  ${library.name} ${scenario}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1));
}

async function main() {
  warnIfDistStale();
  const started = performance.now();
  const results = Object.fromEntries(LIBRARIES.map((library) => [library.name, {}]));
  for (const [key, scenario] of SCENARIOS) {
    for (const library of LIBRARIES) results[library.name][key] = runWorker(library, scenario);
  }
  console.error(`  cold imports: ${IMPORT_SAMPLES} samples each`);
  const references = [{ key: 'bare Node', specifier: undefined }, { key: 'zod alone', specifier: 'zod' }];
  const imports = importTimes({ targets: [...LIBRARIES.map(({ name, specifier }) => ({ key: name, specifier })), ...references], samples: IMPORT_SAMPLES, cwd: benchDir });
  for (const library of LIBRARIES) results[library.name].import = imports[library.name];
  if (!SKIP_SIZES) {
    console.error('  installed sizes (npm install into temp folders)');
    for (const library of LIBRARIES) {
      results[library.name].size = library.file === 'agent-harness' ? harnessSizes(repoRoot) : installedSize(`${library.name}@${library.version}`);
    }
  }

  const cores = os.availableParallelism?.() ?? os.cpus().length;
  console.log(`Side by side — node ${process.version}, ${cores} cores, ${os.cpus()[0]?.model ?? 'unknown CPU'}, load ${os.loadavg().map((load) => load.toFixed(1)).join(' ')}`);
  console.log(LIBRARIES.map((library) => `${library.name} ${library.version}`).join(', '));
  console.log(`per-turn runs per size: ${RUNS}; import samples: ${IMPORT_SAMPLES}; peers' cells: value (peer ÷ agent-harness)\n`);
  console.log(renderReport({ libraries: LIBRARIES, results, sizes: !SKIP_SIZES }));
  console.log(`\nreferences: bare Node start-up ${imports['bare Node'].wallMs.toFixed(0)} ms; zod alone ${imports['zod alone'].wallMs.toFixed(0)} ms (import ${imports['zod alone'].importMs.toFixed(0)} ms)`);
  console.log(`(${((performance.now() - started) / 1000).toFixed(0)} s; KB = 1,000 bytes, MB = 1,000,000 bytes; a MISS is reported, not an exit code)`);
  if (process.env.BENCH_JSON) writeFileSync(process.env.BENCH_JSON, `${JSON.stringify({ node: process.version, cores, libraries: LIBRARIES, results, imports }, null, 2)}\n`);
}

main().catch((error) => {
  console.error('comparison crashed:', error);
  process.exitCode = 1;
});
