// Issue 16: what loading agent-harness costs. Cold import against zod alone (fresh processes,
// interleaved), and the browser bundle of the core (`agent-harness`, esbuild, minified, zod and
// the optional peers external). Run with `npm run bench:footprint` (builds first); `--full` for
// more import samples. A missed goal prints MISS.
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { importTimes } from './compare/import-time.mjs';
import { environmentHeader, fullRun, times, verdict } from './lib/environment.mjs';
import { renderTable } from './lib/table.mjs';

const SAMPLES = Number(process.env.BENCH_IMPORT_SAMPLES ?? (fullRun ? 25 : 9));
const GOAL_IMPORT = 1.2;
const GOAL_BUNDLE = 80_000;
const root = fileURLToPath(new URL('..', import.meta.url));
const core = fileURLToPath(new URL('../dist/index.js', import.meta.url));

const EXTERNAL = ['zod', 'zod/*', '@anthropic-ai/sdk', '@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*'];

/**
 * The core as a browser app would bundle it: minified, with zod and the optional peers left to
 * the host. With `contents`, the app is that module (importing `agent-harness` by the path of
 * dist/index.js) and tree-shaking keeps only what it reaches.
 */
async function browserBundle(contents) {
  const result = await build({
    ...(contents === undefined ? { entryPoints: [core] } : { stdin: { contents, resolveDir: root, loader: 'js' } }),
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    outfile: 'agent-harness.browser.js',
    metafile: true,
    logLevel: 'silent',
    external: EXTERNAL,
  });
  const code = result.outputFiles.filter((file) => file.path.endsWith('.js'));
  if (code.length === 0) throw new Error('esbuild wrote no JavaScript');
  const bytes = code.reduce((sum, file) => sum + file.contents.length, 0);
  const gzip = code.reduce((sum, file) => sum + gzipSync(file.contents).length, 0);
  // Bytes in the output by package, to see what a browser host pays for.
  const byPackage = new Map();
  for (const output of Object.values(result.metafile.outputs)) {
    for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
      const match = path.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
      const name = match ? match[1] : 'agent-harness';
      byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
    }
  }
  return { bytes, gzip, byPackage };
}

async function main() {
  const started = performance.now();
  console.log(environmentHeader('agent-harness footprint benchmark (issue 16): cold import and the browser bundle', { quick: !fullRun, extra: [`${SAMPLES} fresh processes per import`] }));
  const imports = importTimes({
    cwd: root,
    samples: SAMPLES,
    targets: [{ key: 'node' }, { key: 'zod', specifier: 'zod' }, { key: 'harness', specifier: 'agent-harness' }],
  });
  const bundle = await browserBundle();
  // What an app that only makes an agent and runs it pays after tree-shaking.
  const minimal = await browserBundle(`import { createAgent } from ${JSON.stringify(core)}; export const agent = (model) => createAgent({ model });`);
  const ratio = imports.harness.wallMs / imports.zod.wallMs;
  const ms = (value) => `${value.toFixed(0)} ms`;
  const rows = [
    [`cold import, whole process: agent-harness ${ms(imports.harness.wallMs)} / zod alone ${ms(imports.zod.wallMs)} (Node alone ${ms(imports.node.wallMs)})`, times(ratio), `≤ ${GOAL_IMPORT}×`, verdict(ratio <= GOAL_IMPORT)],
    [`  the import() alone: agent-harness ${imports.harness.importMs.toFixed(1)} ms / zod ${imports.zod.importMs.toFixed(1)} ms`, times(imports.harness.importMs / imports.zod.importMs), '—', 'info'],
    ['browser bundle of the core, minified, zod external', `${(bundle.bytes / 1000).toFixed(1)} KB`, `≤ ${GOAL_BUNDLE / 1000} KB`, verdict(bundle.bytes <= GOAL_BUNDLE)],
    ['  gzipped', `${(bundle.gzip / 1000).toFixed(1)} KB`, '—', 'info'],
  ];
  for (const [name, bytes] of [...bundle.byPackage].sort((a, b) => b[1] - a[1])) rows.push([`  of which ${name}`, `${(bytes / 1000).toFixed(1)} KB`, '—', 'info']);
  rows.push(['an app that imports only createAgent (tree-shaken), minified', `${(minimal.bytes / 1000).toFixed(1)} KB`, '—', 'info']);
  console.log(renderTable(['measure', 'value', 'goal', 'result'], rows));
  console.log(`\n(${((performance.now() - started) / 1000).toFixed(1)} s; KB = 1000 bytes; medians of interleaved fresh processes; a MISS is reported, not an exit code)`);
}

main().catch((error) => {
  console.error('benchmark crashed:', error);
  process.exitCode = 1;
});
