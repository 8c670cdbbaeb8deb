// The benchmarks are scripts nobody runs in CI (they time things), so an import they make of the
// library, of a test helper or of an example can break unseen: bench:fleet imported a test
// helper's export for months after it was renamed. esbuild bundles every benchmark file here, with
// the built package's entry points (`../dist/…`) read from their sources, and fails on any name
// one of them imports that is not exported. Packages stay external: they are the bench's to install.
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const benchDir = join(root, 'bench');

function benchFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules') return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return benchFiles(path);
    return entry.name.endsWith('.mjs') ? [path] : [];
  });
}

/** `../dist/<entry>.js` → `src/<entry>.ts`: what the built entry point exports is what its source does. */
const builtFromSources: Plugin = {
  name: 'built-from-sources',
  setup(plugin) {
    plugin.onResolve({ filter: /(^|\/)dist\// }, (args) => {
      const built = join(args.resolveDir, args.path);
      const inDist = relative(join(root, 'dist'), built);
      if (inDist.startsWith('..')) return undefined;
      return { path: join(root, 'src', inDist.replace(/\.js$/, '.ts')) };
    });
    // A bench that reaches into node_modules by path (to load the very copy the package uses).
    plugin.onResolve({ filter: /node_modules\// }, (args) => ({ path: args.path, external: true }));
  },
};

describe('benchmarks', () => {
  const files = benchFiles(benchDir);

  it('are found', () => {
    expect(files.map((file) => relative(root, file))).toEqual(expect.arrayContaining(['bench/fleet.bench.mjs', 'bench/store-turns.bench.mjs', 'bench/lib/fake-model.mjs']));
  });

  it('import only names their modules export', async () => {
    const result = await build({
      entryPoints: files,
      bundle: true,
      write: false,
      outdir: join(root, '.bench-imports-check'),
      platform: 'node',
      format: 'esm',
      packages: 'external',
      logLevel: 'silent',
      plugins: [builtFromSources],
    }).catch((error: { errors?: Array<{ text: string; location?: { file: string } | null }> }) => error);
    const errors = (result.errors ?? []).map((error) => `${error.location?.file ?? '?'}: ${error.text}`);
    expect(errors).toEqual([]);
  }, 60_000);
});
