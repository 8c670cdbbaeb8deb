import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'node/index': 'src/node/index.ts',
    'testing/index': 'src/testing/index.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  // No source maps in the package: they doubled its size and point at sources it does not ship.
  sourcemap: false,
  clean: true,
  splitting: true,
  treeshake: true,
  target: 'node20',
  removeNodeProtocol: false,
  external: ['@anthropic-ai/sdk', 'zod', 'zod/v4', 'zod/v4/core', 'zod/v3'],
});
