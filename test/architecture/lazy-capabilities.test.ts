import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';

// Issue 16: a browser host downloads up front only what a new agent needs; each capability below
// is reached only on an already-asynchronous path and loaded by a dynamic import() the first time
// it is used. A static import of one of these modules from the core's always-loaded code (a new
// helper imported "just for a constant") would put it back into every host's first download: this
// test bundles the sources as a browser app would (esbuild, split at dynamic imports) and names it.
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Modules loaded when first used, with what first uses them. */
const LAZY: Record<string, string> = {
  'src/loop/compact-history.ts': 'a compaction',
  'src/context/memory/memory-commands.ts': 'a call of the memory tool',
  'src/mcp/connect-mcp-client.ts': 'the first connection to an MCP server',
  'src/mcp/create-mcp-transport.ts': 'the first connection to an MCP server',
  'src/mcp/list-mcp-tools.ts': 'the first connection to an MCP server',
  'src/mcp/load-mcp-sdk.ts': 'the first connection to an MCP server',
  'src/mcp/mcp-call-error.ts': 'the first connection to an MCP server',
  'src/loop/recover-refused-media.ts': 'the first request refused for its media',
  'src/loop/drop-refused-media.ts': 'the first request refused for its media',
  'src/model/anthropic/to-anthropic-request.ts': 'the first call of an anthropicModel',
  'src/model/anthropic/stream-anthropic-turn.ts': 'the first call of an anthropicModel',
  'src/model/anthropic/anthropic-message-accumulator.ts': 'the first call of an anthropicModel',
  'src/model/anthropic/map-anthropic-error.ts': 'the first call of an anthropicModel',
  'src/interop/claude-code/claude-code-session-normalizer.ts': 'the first iteration of a readClaudeCodeSession reader',
};

const EXTERNAL = ['zod', 'zod/*', '@anthropic-ai/sdk', '@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*'];

/** The source files in the chunks a browser loads up front (the entry and its static imports), and those in lazy chunks. */
async function bundle(contents: string): Promise<{ upfront: Set<string>; lazy: Set<string> }> {
  const result = await build({
    stdin: { contents, resolveDir: root, loader: 'ts', sourcefile: 'app.ts' },
    absWorkingDir: root,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['browser', 'module', 'import'],
    splitting: true,
    write: false,
    outdir: 'lazy-capabilities-test',
    metafile: true,
    logLevel: 'silent',
    external: EXTERNAL,
  });
  const outputs: Metafile['outputs'] = result.metafile.outputs;
  // Every module loaded by a dynamic import is an entry point to esbuild too (even when the code
  // that imports it was shaken off): the app's own entry is the one no dynamic import names.
  const dynamic = new Set(Object.values(result.metafile.inputs).flatMap((input) => input.imports.filter((imported) => imported.kind === 'dynamic-import').map((imported) => imported.path)));
  const entry = Object.keys(outputs).find((path) => outputs[path]!.entryPoint !== undefined && !dynamic.has(outputs[path]!.entryPoint!))!;
  const upfrontChunks = new Set([entry]);
  for (const path of upfrontChunks) {
    for (const imported of outputs[path]!.imports) if (imported.kind === 'import-statement' && !imported.external) upfrontChunks.add(imported.path);
  }
  const upfront = new Set<string>();
  const lazy = new Set<string>();
  for (const [path, output] of Object.entries(outputs)) {
    for (const input of Object.keys(output.inputs)) (upfrontChunks.has(path) ? upfront : lazy).add(input);
  }
  return { upfront, lazy };
}

describe('capabilities loaded when first used (issue 16)', () => {
  let whole: { upfront: Set<string>; lazy: Set<string> };
  let agentOnly: { upfront: Set<string>; lazy: Set<string> };
  beforeAll(async () => {
    [whole, agentOnly] = await Promise.all([bundle(`export * from './src/index.ts';`), bundle(`export { createAgent, defineTool } from './src/index.ts';`)]);
  }, 60_000);

  for (const [module, firstUse] of Object.entries(LAZY)) {
    it(`keeps ${module} out of the up-front chunks of the core, and of an app that imports only createAgent: it loads on ${firstUse}`, () => {
      expect(whole.upfront.has(module), `${module} is loaded up front by the core`).toBe(false);
      expect(whole.lazy.has(module), `${module} is in no lazy chunk of the core`).toBe(true);
      expect(agentOnly.upfront.has(module), `${module} is loaded up front by createAgent`).toBe(false);
    });
  }

  it('has a check that does see a module loaded up front (the agent itself)', () => {
    expect(whole.upfront.has('src/agent/create-agent.ts')).toBe(true);
    expect(agentOnly.upfront.has('src/loop/run-loop.ts')).toBe(true);
  });

  it('keeps the static graph of the built core entry to a few dozen files, as tsup splits it (each lazy module costs Node chunk files at import), and the Node entry free of the YAML parser', async () => {
    // Every dynamically imported module is an entry point to esbuild, and the modules it shares
    // with the other entries are split by the set of entries reaching them: a lazy module that
    // reaches most of the loop (a subagent's run, rewindFiles, the verifier) split dist/index.js
    // into 62 files, and import('agent-harness') after zod took half as long again. Built as
    // tsup.config.ts builds it (its entries, ESM, split); 40 files now, 21 before any lazy module.
    const result = await build({
      entryPoints: {
        index: 'src/index.ts',
        'node/index': 'src/node/index.ts',
        'testing/index': 'src/testing/index.ts',
        'postgres/index': 'src/postgres/index.ts',
        'redis/index': 'src/redis/index.ts',
        'bullmq/index': 'src/bullmq/index.ts',
        'zod3/index': 'src/zod3/index.ts',
        'testing/messages-server/index': 'src/testing/messages-server/index.ts',
      },
      absWorkingDir: root,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      conditions: ['browser', 'module', 'import'],
      splitting: true,
      write: false,
      outdir: 'lazy-capabilities-test',
      metafile: true,
      logLevel: 'silent',
      plugins: [{ name: 'zod3-type-names', setup: (builder) => builder.onResolve({ filter: /^zod\/v3$/ }, () => ({ path: resolve(root, 'src/tools/zod3-type-names.ts') })) }],
      external: [...EXTERNAL, 'zod/v4', 'zod/v4/core', 'pg', 'ioredis', 'bullmq', 'yaml', 'node:*'],
    });
    const outputs: Metafile['outputs'] = result.metafile.outputs;
    const index = Object.keys(outputs).find((path) => outputs[path]!.entryPoint === 'src/index.ts')!;
    const files = new Set([index]);
    for (const path of files) {
      for (const imported of outputs[path]!.imports) if (imported.kind === 'import-statement' && !imported.external) files.add(imported.path);
    }
    expect(files.size, 'files Node loads for import("agent-harness"); group lazy code, or load less of it lazily').toBeLessThanOrEqual(45);
    expect(files.size).toBeGreaterThan(1);
    // The Node entry loads no YAML parser up front (evaluating it took about 35 ms of the import):
    // skill files load it when the first is parsed. The check sees the packages it does load.
    const nodeEntry = Object.keys(outputs).find((path) => outputs[path]!.entryPoint === 'src/node/index.ts')!;
    const nodeFiles = new Set([nodeEntry]);
    const packages = new Set<string>();
    for (const path of nodeFiles) {
      for (const imported of outputs[path]!.imports) {
        if (imported.kind !== 'import-statement') continue;
        if (imported.external) packages.add(imported.path);
        else nodeFiles.add(imported.path);
      }
    }
    expect([...packages]).toContain('node:fs/promises');
    expect([...packages], 'packages import("agent-harness/node") loads up front').not.toContain('yaml');
  }, 60_000);
});
