// Issue 16: what loading agent-harness costs. Cold import against zod alone (fresh processes,
// interleaved), and the browser bundle of the core (`agent-harness`, esbuild, minified, split at
// its dynamic imports, zod and the optional peers external): what a browser loads up front (the
// entry chunk and the chunks it imports statically) and, apart, what it loads only when a
// capability is first used (the lazy chunks). Run with `npm run bench:footprint` (builds first);
// `--full` for more import samples; `--bundle-only` skips the import times, and
// `BENCH_CORE=<path of another build's index.js>` measures that build's bundle instead (to compare
// builds the same way). A missed goal prints MISS.
import { spawnSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { importTimes } from './compare/import-time.mjs';
import { environmentHeader, fullRun, times, verdict } from './lib/environment.mjs';
import { median } from './lib/stats.mjs';
import { renderTable } from './lib/table.mjs';

const SAMPLES = Number(process.env.BENCH_IMPORT_SAMPLES ?? (fullRun ? 25 : 9));
const GOAL_IMPORT = 1.2;
const GOAL_BUNDLE = 80_000;
const root = fileURLToPath(new URL('..', import.meta.url));
const core = process.env.BENCH_CORE ?? fileURLToPath(new URL('../dist/index.js', import.meta.url));
const bundleOnly = process.argv.includes('--bundle-only');

const EXTERNAL = ['zod', 'zod/*', '@anthropic-ai/sdk', '@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*'];

/**
 * The core as a browser app would bundle it: minified, split at its dynamic imports (as a bundler
 * with code splitting does, and as tsup builds dist/), with zod and the optional peers left to the
 * host. With `contents`, the app is that module (importing `agent-harness` by the path of
 * dist/index.js) and tree-shaking keeps only what it reaches. `upfront` is what the browser loads
 * before the app's module runs: the entry chunk and every chunk it imports statically; `lazy` is
 * the rest, loaded by `import()` when a capability is first used.
 */
async function browserBundle(contents) {
  const result = await build({
    ...(contents === undefined ? { entryPoints: { 'agent-harness.browser': core } } : { stdin: { contents, resolveDir: root, loader: 'js', sourcefile: 'agent-harness.browser.js' } }),
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    splitting: true,
    absWorkingDir: root,
    write: false,
    outdir: 'browser-bundle',
    metafile: true,
    logLevel: 'silent',
    external: EXTERNAL,
  });
  const outputs = result.metafile.outputs;
  const chunks = Object.keys(outputs).filter((path) => path.endsWith('.js'));
  // Every module loaded by a dynamic import is an entry point to esbuild too (even when the code
  // that imports it was shaken off): the app's own entry is the one no dynamic import names.
  const dynamic = new Set(Object.values(result.metafile.inputs).flatMap((input) => input.imports.filter((imported) => imported.kind === 'dynamic-import').map((imported) => imported.path)));
  const entry = chunks.find((path) => outputs[path].entryPoint !== undefined && !dynamic.has(outputs[path].entryPoint));
  if (entry === undefined) throw new Error('esbuild wrote no entry chunk');
  const upfront = closure([entry], (kind) => kind === 'import-statement');
  // Lazy: what the entry can load later (chunks of modules no kept code imports are left out).
  const reachable = closure([entry], (kind) => kind === 'import-statement' || kind === 'dynamic-import');
  function closure(start, follows) {
    const found = new Set(start);
    for (const path of found) {
      for (const imported of outputs[path].imports) if (!imported.external && follows(imported.kind)) found.add(imported.path);
    }
    return found;
  }
  const files = new Map(result.outputFiles.map((file) => [file.path.slice(file.path.lastIndexOf('browser-bundle/')), file.contents]));
  const measure = (paths) => ({
    bytes: paths.reduce((sum, path) => sum + files.get(path).length, 0),
    gzip: paths.reduce((sum, path) => sum + gzipSync(files.get(path)).length, 0),
    chunks: paths.length,
  });
  // Bytes loaded up front by package, to see what a browser host pays for.
  const byPackage = new Map();
  for (const path of upfront) {
    for (const [input, { bytesInOutput }] of Object.entries(outputs[path].inputs)) {
      const match = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
      const name = match ? match[1] : 'agent-harness';
      byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
    }
  }
  return { upfront: measure([...upfront]), lazy: measure([...reachable].filter((path) => !upfront.has(path))), byPackage };
}

/**
 * What a process's first agent costs, after the import (a fresh process per sample, the host's
 * tool defined at load as a host's module would): medians of `createAgent` + a run of one tool
 * turn and the answer, and of the same again in that process, its code compiled by then. The
 * first is what a short-lived worker or a serverless function pays on every cold start.
 */
function firstAgentTimes(samples) {
  const script = fileURLToPath(new URL('./lib/first-run-process.mjs', import.meta.url));
  const first = [];
  const again = [];
  for (let index = 0; index < samples; index++) {
    const child = spawnSync(process.execPath, [script, core], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`the first-agent process failed: ${child.stderr}`);
    const { firstMs, againMs } = JSON.parse(child.stdout);
    first.push(firstMs);
    again.push(againMs);
  }
  return { firstMs: median(first), againMs: median(again) };
}

async function main() {
  const started = performance.now();
  console.log(environmentHeader('agent-harness footprint benchmark (issue 16): cold import and the browser bundle', { quick: !fullRun, extra: [bundleOnly ? 'bundle only (--bundle-only)' : `${SAMPLES} fresh processes per import`, ...(process.env.BENCH_CORE ? [`bundle of BENCH_CORE=${process.env.BENCH_CORE}`] : [])] }));
  const imports = bundleOnly
    ? undefined
    : importTimes({
        cwd: root,
        samples: SAMPLES,
        targets: [{ key: 'node' }, { key: 'zod', specifier: 'zod' }, { key: 'harness', specifier: 'agent-harness' }],
      });
  const firstRuns = bundleOnly ? undefined : firstAgentTimes(SAMPLES);
  const bundle = await browserBundle();
  // What an app that only makes an agent and runs it pays after tree-shaking.
  const minimal = await browserBundle(`import { createAgent } from ${JSON.stringify(core)}; export const agent = (model) => createAgent({ model });`);
  const ms = (value) => `${value.toFixed(0)} ms`;
  const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;
  const rows = [];
  if (imports) {
    const ratio = imports.harness.wallMs / imports.zod.wallMs;
    rows.push(
      [`cold import, whole process: agent-harness ${ms(imports.harness.wallMs)} / zod alone ${ms(imports.zod.wallMs)} (Node alone ${ms(imports.node.wallMs)})`, times(ratio), `≤ ${GOAL_IMPORT}×`, verdict(ratio <= GOAL_IMPORT)],
      [`  the import() alone: agent-harness ${imports.harness.importMs.toFixed(1)} ms / zod ${imports.zod.importMs.toFixed(1)} ms`, times(imports.harness.importMs / imports.zod.importMs), '—', 'info'],
    );
  }
  if (firstRuns) {
    rows.push([`the first agent of a fresh process (createAgent + a tool turn + the answer, after the import); the same again in that process ${firstRuns.againMs.toFixed(1)} ms`, `${firstRuns.firstMs.toFixed(1)} ms`, '—', 'info']);
  }
  rows.push(
    [`browser bundle of the core, minified, zod external: loaded up front (${bundle.upfront.chunks} chunks)`, kb(bundle.upfront.bytes), `≤ ${GOAL_BUNDLE / 1000} KB`, verdict(bundle.upfront.bytes <= GOAL_BUNDLE)],
    ['  gzipped', kb(bundle.upfront.gzip), '—', 'info'],
  );
  for (const [name, bytes] of [...bundle.byPackage].sort((a, b) => b[1] - a[1])) rows.push([`  of which ${name}`, kb(bytes), '—', 'info']);
  rows.push(
    [`  loaded when first used (${bundle.lazy.chunks} lazy chunks; gzipped ${kb(bundle.lazy.gzip)})`, kb(bundle.lazy.bytes), '—', 'info'],
    [`an app that imports only createAgent (tree-shaken), minified: up front (lazy chunks ${kb(minimal.lazy.bytes)})`, kb(minimal.upfront.bytes), '—', 'info'],
  );
  console.log(renderTable(['measure', 'value', 'goal', 'result'], rows));
  console.log(`\n(${((performance.now() - started) / 1000).toFixed(1)} s; KB = 1000 bytes; medians of interleaved fresh processes; a MISS is reported, not an exit code)`);
}

main().catch((error) => {
  console.error('benchmark crashed:', error);
  process.exitCode = 1;
});
