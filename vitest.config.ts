import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** Test files that mock a module: they run with modules of their own. */
const ISOLATED = ['test/model/anthropic/missing-sdk.test.ts', 'test/loop/tool-queue-load-failure.test.ts', 'test/node/workspace-tools/replace-file-fallback.test.ts', 'test/node/remembered-session-files.test.ts', 'test/node/session-file/folded-transcripts.test.ts', 'test/node/session-file/session-file-opens.test.ts'];

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests and examples import the package by name, as users do; it resolves to the sources.
    alias: [
      { find: /^agent-harness\/node$/, replacement: source('./src/node/index.ts') },
      { find: /^agent-harness\/testing\/messages-server$/, replacement: source('./src/testing/messages-server/index.ts') },
      { find: /^agent-harness\/postgres$/, replacement: source('./src/postgres/index.ts') },
      { find: /^agent-harness\/redis$/, replacement: source('./src/redis/index.ts') },
      { find: /^agent-harness\/bullmq$/, replacement: source('./src/bullmq/index.ts') },
      { find: /^agent-harness\/zod3$/, replacement: source('./src/zod3/index.ts') },
      { find: /^agent-harness\/testing$/, replacement: source('./src/testing/index.ts') },
      { find: /^agent-harness$/, replacement: source('./src/index.ts') },
    ],
  },
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    projects: [
      {
        // Test files share a worker's modules: loading the sources again for each of ~200 files
        // took a quarter of the suite's time. Every test makes its own agents, stores and
        // directories, so nothing they keep at module level is seen by another file.
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: ISOLATED,
          isolate: false,
          // One line when the recordings beside the repository are missing (their tests skip), a
          // failure under CI. Here only: a root or inherited setup would run once per project.
          globalSetup: ['test/fixtures-notice.ts'],
        },
      },
      {
        // Files that replace a module (vi.mock) get modules of their own.
        extends: true,
        test: { name: 'isolated', include: ISOLATED, isolate: true },
      },
    ],
  },
});
