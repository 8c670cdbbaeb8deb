import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Plugin } from 'esbuild';
import { defineConfig, type Options } from 'tsup';

/** Dependencies bundled into dist/ rather than imported at run time. */
const BUNDLED = ['nanoid', 'p-queue', 'p-timeout', 'eventemitter3', 'zod-to-json-schema', '@noble/hashes'];

/**
 * `zod-to-json-schema` imports one enum of type names from `zod/v3`, which would load the whole
 * zod 3 implementation inside the zod 4 package at every import of agent-harness: imports of
 * `zod/v3` (only that package has them; a use of our own would fail the build for want of the
 * names it needs) get src/tools/zod3-type-names.ts instead, which
 * test/tools/zod3-type-names.test.ts holds equal to zod's.
 */
const zod3TypeNames: Plugin = {
  name: 'zod3-type-names',
  setup(build) {
    build.onResolve({ filter: /^zod\/v3$/ }, () => ({ path: resolve('src/tools/zod3-type-names.ts') }));
  },
};

/** Writes the licences of the bundled dependencies next to the code that carries them. */
async function writeThirdPartyLicenses(): Promise<void> {
  const sections = BUNDLED.map((name) => {
    const folder = join('node_modules', name);
    const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { version: string; license: string };
    const file = readdirSync(folder).find((entry) => /^licen[cs]e(\.|$)/i.test(entry));
    if (!file) throw new Error(`${name} ships no LICENSE file to carry into dist/THIRD_PARTY_LICENSES.txt`);
    const licence = readFileSync(join(folder, file), 'utf8').trim();
    return `${name}@${manifest.version} (${manifest.license})\n\n${licence}`;
  });
  writeFileSync('dist/THIRD_PARTY_LICENSES.txt', `agent-harness bundles these packages into dist/:\n\n${sections.join('\n\n' + '-'.repeat(72) + '\n\n')}\n`);
}

const shared: Options = {
  entry: {
    index: 'src/index.ts',
    'node/index': 'src/node/index.ts',
    'testing/index': 'src/testing/index.ts',
    'postgres/index': 'src/postgres/index.ts',
    'redis/index': 'src/redis/index.ts',
    'bullmq/index': 'src/bullmq/index.ts',
    'zod3/index': 'src/zod3/index.ts',
    'testing/messages-server/index': 'src/testing/messages-server/index.ts',
  },
  dts: true,
  // No source maps in the package: they doubled its size and point at sources it does not ship.
  sourcemap: false,
  splitting: true,
  treeshake: true,
  target: 'node20',
  removeNodeProtocol: false,
  // `import.meta.url` in the CommonJS build (the YAML parser of skill files is required from it when first used).
  shims: true,
  // pg and ioredis are optional peers: the postgres and redis entries take the host's pool or
  // client and never import them, but stay external should that change. bullmq is an optional
  // peer imported only by the bullmq entry. The MCP SDK is an optional peer loaded with a
  // dynamic import.
  external: ['@anthropic-ai/sdk', /^@modelcontextprotocol\/sdk(\/|$)/, 'zod', 'zod/v4', 'zod/v4/core', 'pg', 'ioredis', 'bullmq'],
  // The small dependencies ship inside the package, in both builds: loading them as some sixty
  // separate modules (zod-to-json-schema alone is fifty files) took about a third of a cold
  // `import('agent-harness')`, their parsed code takes a few milliseconds (bench/footprint).
  // The CommonJS build needs them inside anyway: nanoid 5 and p-queue 9 are ES modules only,
  // which `require()` cannot load before Node 20.19. nanoid's web build (globalThis.crypto) keeps
  // the core free of Node built-ins. Their licences are collected into dist/THIRD_PARTY_LICENSES.txt.
  noExternal: [...BUNDLED, 'zod/v3'],
  esbuildOptions(options, { format }) {
    options.conditions = ['browser', 'module', 'import'];
    if (format === 'cjs') {
      // The ESM build stays readable; the compatibility build is compacted (names kept).
      options.minifyWhitespace = true;
      options.minifySyntax = true;
    }
  },
  esbuildPlugins: [zod3TypeNames],
  onSuccess: writeThirdPartyLicenses,
};

// One config for both formats, so the declarations (.d.ts and .d.cts) come from one pass.
export default defineConfig({ ...shared, format: ['esm', 'cjs'], clean: true });
