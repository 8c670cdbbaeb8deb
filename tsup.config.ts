import { defineConfig, type Options } from 'tsup';

const shared: Options = {
  entry: {
    index: 'src/index.ts',
    'node/index': 'src/node/index.ts',
    'testing/index': 'src/testing/index.ts',
    'postgres/index': 'src/postgres/index.ts',
    'redis/index': 'src/redis/index.ts',
    'bullmq/index': 'src/bullmq/index.ts',
    'testing/messages-server/index': 'src/testing/messages-server/index.ts',
  },
  dts: true,
  // No source maps in the package: they doubled its size and point at sources it does not ship.
  sourcemap: false,
  splitting: true,
  treeshake: true,
  target: 'node20',
  removeNodeProtocol: false,
  // pg and ioredis are optional peers: the postgres and redis entries take the host's pool or
  // client and never import them, but stay external should that change. bullmq is an optional
  // peer imported only by the bullmq entry. The MCP SDK is an optional peer loaded with a
  // dynamic import.
  external: ['@anthropic-ai/sdk', /^@modelcontextprotocol\/sdk(\/|$)/, 'zod', 'zod/v4', 'zod/v4/core', 'zod/v3', 'pg', 'ioredis', 'bullmq'],
};

export default defineConfig([
  { ...shared, format: ['esm'], clean: true },
  {
    ...shared,
    format: ['cjs'],
    // nanoid 5 and p-queue 9 ship only as ES modules, which `require()` cannot load before
    // Node 20.19: the CommonJS build carries its own copy. nanoid's web build (globalThis.crypto)
    // keeps the core free of Node built-ins.
    noExternal: ['nanoid', 'p-queue', 'p-timeout'],
    esbuildOptions(options) {
      options.conditions = ['browser', 'module', 'import'];
      // The ESM build stays readable; the compatibility build is compacted (names kept) to keep
      // the package under 1 MB.
      options.minifyWhitespace = true;
      options.minifySyntax = true;
    },
  },
]);
