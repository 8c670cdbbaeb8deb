import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dist = join(root, 'dist');
const built = existsSync(join(dist, 'index.js'));

const tinyAgent = (importLine: string) => `
${importLine}
const model = scriptedModel([turn('Checking.', toolCall('TodoWrite', { todos: [{ content: 'a', status: 'completed', activeForm: 'doing a' }] })), 'All done.']);
const agent = createAgent({ model, system: 'test' });
agent.run('hi').result.then((result) => {
  console.log(JSON.stringify({ status: result.status, text: result.text, todos: agent.todos.length }));
});
`;

/** Three calls in one turn over a bound of one: they go through p-queue, which the core loads on first need. */
const queuedAgent = (importLine: string) => `
${importLine}
const tool = defineTool({ name: 'slow', description: 'Waits a tick.', inputSchema: z.object({}), readOnly: true, execute: () => new Promise((done) => setImmediate(() => done('ok'))) });
const model = scriptedModel([turn(toolCall('slow', {}, 'a'), toolCall('slow', {}, 'b'), toolCall('slow', {}, 'c')), 'All done.']);
const agent = createAgent({ model, tools: [tool], maxToolConcurrency: 1 });
agent.run('hi').result.then((result) => {
  const answered = agent.messages.flatMap((message) => (Array.isArray(message.content) ? message.content : [])).filter((block) => block.type === 'tool_result').map((block) => block.content);
  console.log(JSON.stringify({ status: result.status, text: result.text, answered }));
});
`;

/**
 * One use of each capability the core loads on first use (issue 16: its own chunk, loaded by a
 * dynamic import): a compaction and a failed one (its error class must be the entry's), the memory
 * tool's commands (a failing one too), an MCP server in process, a Claude Code session (and a subagent,
 * which loads with the core),
 * anthropicModel through the real SDK against the loopback server (a refusal too: the entry's ModelError).
 */
const lazyCapabilities = (importLines: string) => `
${importLines}
const main = async () => {
  const out = {};
  {
    const agent = createAgent({ model: scriptedModel(['Noted.', '<summary>\\n## Goal\\nFriday.\\n</summary>']) });
    await agent.run('The deadline is Friday.').result;
    out.compacted = (await agent.compact()).compacted;
  }
  {
    const agent = createAgent({ model: scriptedModel(['Noted.', turn('<summary>\\n## Goal\\nFri', { stopReason: 'max_tokens' })]) });
    await agent.run('The deadline is Friday.').result;
    const error = await agent.compact().catch((thrown) => thrown);
    out.compactionError = [error instanceof CompactionError, error.code];
  }
  {
    const model = scriptedModel([turn(toolCall('memory', { command: 'create', path: '/memories/a.md', file_text: 'hi' }, 'm1'), toolCall('memory', { command: 'view', path: '/memories/gone.md' }, 'm2')), 'Done.']);
    const agent = createAgent({ model, tools: [memoryTool({ store: memoryMemoryStore() })], permissionMode: 'bypassPermissions', allowDangerouslySkipPermissions: true });
    await agent.run('remember').result;
    out.memory = agent.messages[2].content.map((block) => [block.is_error === true, String(typeof block.content === 'string' ? block.content : block.content[0].text).slice(0, 6)]);
  }
  {
    const child = scriptedModel(['Child found it.']);
    const agent = createAgent({ model: scriptedModel([turn(toolCall('Agent', { description: 'look', prompt: 'Look.', subagent_type: 'explore' }, 'a1')), 'Done.']), agents: { explore: { ...BUILTIN_AGENTS.explore, model: child } } });
    await agent.run('delegate').result;
    out.subagent = agent.messages[2].content[0].content;
  }
  {
    const server = new McpServer({ name: 'echo', version: '1.0.0' });
    server.registerTool('echo', { description: 'Echoes.', inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } }, async ({ text }) => ({ content: [{ type: 'text', text: 'echo ' + text }] }));
    const agent = createAgent({ model: scriptedModel([turn(toolCall('mcp__echo__echo', { text: 'hi' }, 'e1')), 'Done.']), mcpServers: { echo: { type: 'sdk', server: () => server } } });
    await agent.run('echo').result;
    out.mcp = agent.messages[2].content[0].content;
    await agent.close();
  }
  {
    const reader = readClaudeCodeSession(JSON.stringify({ type: 'user', uuid: 'u1', sessionId: 's', timestamp: '2026-02-10T10:00:00.000Z', message: { role: 'user', content: 'Hello.' } }));
    let entries = 0;
    for await (const _entry of reader) entries++;
    out.claudeCode = [entries > 0, reader.stats.lines, reader.stats.messages];
  }
  {
    const server = await startMessagesServer({ responses: [{ content: [{ type: 'text', text: 'Hi from the API.' }] }, { fault: 'api-error', status: 400, errorType: 'invalid_request_error', message: 'Bad request.' }] });
    const agent = createAgent({ model: anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test-key', baseURL: server.url, maxRetries: 0 }) });
    const answered = await agent.run('hi').result;
    const refused = await agent.run('again').result;
    out.anthropic = [answered.text, refused.status, refused.error instanceof ModelError, refused.error?.status];
    await server.close();
  }
  console.log(JSON.stringify(out));
};
main();
`;

const builtins = new Set(builtinModules);
const isBuiltin = (specifier: string) => specifier.startsWith('node:') || builtins.has(specifier.split('/')[0]!);

function runNode(args: string[]): unknown {
  const output = execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
  return JSON.parse(output.trim().split('\n').at(-1)!);
}

/** Every file reachable from an entry through relative imports, with the bare specifiers it imports. */
function reachableSpecifiers(entry: string): Set<string> {
  return reachable(entry).specifiers;
}

/** The files an entry reaches through relative imports, and the bare specifiers they import. */
function reachable(entry: string): { files: Set<string>; specifiers: Set<string> } {
  const seen = new Set<string>();
  const specifiers = new Set<string>();
  const pending = [entry];
  const pattern = /(?:import|export)\s*(?:[^'"]*?from\s*)?["']([^"']+)["']|require\(\s*["']([^"']+)["']\s*\)|import\(\s*["']([^"']+)["']\s*\)/g;
  while (pending.length) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    // Block comments out: the bundled packages' doc comments show imports of themselves.
    const source = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    for (const match of source.matchAll(pattern)) {
      const specifier = match[1] ?? match[2] ?? match[3]!;
      if (specifier.startsWith('.')) pending.push(resolve(dirname(file), specifier));
      else specifiers.add(specifier);
    }
  }
  return { files: seen, specifiers };
}

describe('the built package', () => {
  it('is built (run `npm run build` first; `npm test` does)', () => {
    expect(built).toBe(true);
  });

  it('runs a tiny agent through `import`', () => {
    const script = tinyAgent("import { createAgent } from 'agent-harness'; import { scriptedModel, turn, toolCall } from 'agent-harness/testing';");
    expect(runNode(['--input-type=module', '-e', script])).toEqual({ status: 'completed', text: 'All done.', todos: 1 });
  });

  it('runs a tiny agent through `require`', () => {
    const script = tinyAgent("const { createAgent } = require('agent-harness'); const { scriptedModel, turn, toolCall } = require('agent-harness/testing');");
    expect(runNode(['--input-type=commonjs', '-e', script])).toEqual({ status: 'completed', text: 'All done.', todos: 1 });
  });

  it("gives every exported class its own name, in both formats (a logger's `err.constructor.name`, not the bundler's `_ConfigurationError`)", () => {
    const entries = ['agent-harness', 'agent-harness/node', 'agent-harness/testing', 'agent-harness/postgres', 'agent-harness/redis', 'agent-harness/bullmq', 'agent-harness/zod3', 'agent-harness/testing/messages-server'];
    const check = (load: string) => `
const wrong = [];
for (const entry of ${JSON.stringify(entries)}) {
  const lib = ${load};
  for (const [name, value] of Object.entries(lib)) {
    if (typeof value === 'function' && /^[A-Z]/.test(name) && /^class\b/.test(Function.prototype.toString.call(value)) && value.name !== name) wrong.push(entry + ': ' + name + ' is named ' + value.name);
  }
}
console.log(JSON.stringify(wrong));
`;
    expect(runNode(['--input-type=commonjs', '-e', check('require(entry)')])).toEqual([]);
    expect(runNode(['--input-type=module', '-e', `(async () => { ${check('await import(entry)')} })()`])).toEqual([]);
  });

  it('runs tool calls beyond maxToolConcurrency (p-queue, loaded on first need), in both formats', () => {
    const expected = { status: 'completed', text: 'All done.', answered: ['ok', 'ok', 'ok'] };
    const esm = queuedAgent("import { createAgent, defineTool } from 'agent-harness'; import { scriptedModel, turn, toolCall } from 'agent-harness/testing'; import { z } from 'zod';");
    expect(runNode(['--input-type=module', '-e', esm])).toEqual(expected);
    const cjs = queuedAgent("const { createAgent, defineTool } = require('agent-harness'); const { scriptedModel, turn, toolCall } = require('agent-harness/testing'); const { z } = require('zod');");
    expect(runNode(['--input-type=commonjs', '-e', cjs])).toEqual(expected);
  });

  it('loads each capability the core loads on first use (its own chunk) and runs it, in both formats, with the entry\'s error classes', () => {
    const expected = {
      compacted: true,
      compactionError: [true, 'compaction-failed'],
      memory: [[false, 'File c'], [true, 'Error:']],
      subagent: 'Child found it.',
      mcp: 'echo hi',
      claudeCode: [true, 1, 1],
      anthropic: ['Hi from the API.', 'error', true, 400],
    };
    const names = 'createAgent, memoryTool, memoryMemoryStore, readClaudeCodeSession, BUILTIN_AGENTS, CompactionError, anthropicModel, ModelError';
    const esm = lazyCapabilities(
      `import { ${names} } from 'agent-harness'; import { scriptedModel, turn, toolCall } from 'agent-harness/testing'; import { startMessagesServer } from 'agent-harness/testing/messages-server'; import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'; import { z } from 'zod';`,
    );
    expect(runNode(['--input-type=module', '-e', esm])).toEqual(expected);
    const cjs = lazyCapabilities(
      `const { ${names} } = require('agent-harness'); const { scriptedModel, turn, toolCall } = require('agent-harness/testing'); const { startMessagesServer } = require('agent-harness/testing/messages-server'); const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js'); const { z } = require('zod');`,
    );
    expect(runNode(['--input-type=commonjs', '-e', cjs])).toEqual(expected);
  });

  it('keeps Node built-ins out of the core entry point, in both formats', () => {
    for (const entry of ['index.js', 'index.cjs']) {
      const offending = [...reachableSpecifiers(join(dist, entry))].filter(isBuiltin);
      expect(offending, `${entry} reaches Node built-ins`).toEqual([]);
    }
  });

  it('keeps Node built-ins out of the testing entry point, in both formats, so scriptedModel bundles for a browser', () => {
    for (const entry of ['testing/index.js', 'testing/index.cjs']) {
      const offending = [...reachableSpecifiers(join(dist, entry))].filter(isBuiltin);
      expect(offending, `${entry} reaches Node built-ins`).toEqual([]);
    }
  });

  it('loads the MCP SDK (an optional peer) only by dynamic import, and no YAML parser, from the core entry', () => {
    for (const entry of ['index.js', 'index.cjs']) {
      const specifiers = [...reachableSpecifiers(join(dist, entry))];
      expect(specifiers.filter((specifier) => specifier === 'yaml')).toEqual([]);
      // The MCP client code is itself a chunk the core loads on a server's first connection.
      const sources = [...reachable(join(dist, entry)).files].map((file) => readFileSync(file, 'utf8'));
      expect(sources.some((source) => /import\(['"]@modelcontextprotocol\/sdk\/client\/index\.js['"]\)/.test(source)), entry).toBe(true);
      for (const source of sources) expect(source).not.toMatch(/(?:from\s*|require\(\s*)['"]@modelcontextprotocol/);
    }
  });

  it('loads the YAML parser of skill files when the first is parsed, not with agent-harness/node, in both formats', () => {
    const skill = JSON.stringify('---\nname: writer\ndescription: Writes articles.\n---\nPlan first.');
    const check = (load: string) =>
      `${load}; const before = Object.keys(require.cache).some((file) => file.includes('/node_modules/yaml/')); const parsed = parseSkillFile(${skill}, '/skills/writer/SKILL.md', 'writer'); console.log(JSON.stringify({ before, after: Object.keys(require.cache).some((file) => file.includes('/node_modules/yaml/')), name: parsed.name }));`;
    const expected = { before: false, after: true, name: 'writer' };
    expect(runNode(['--input-type=commonjs', '-e', check("const { parseSkillFile } = require('agent-harness/node')")])).toEqual(expected);
    expect(runNode(['--input-type=module', '-e', check("import { createRequire } from 'node:module'; const require = createRequire(process.cwd() + '/'); const { parseSkillFile } = await import('agent-harness/node')")])).toEqual(expected);
  });

  it('imports nothing at run time but zod 4 and the optional peers: the small dependencies are bundled, and zod 3 is not loaded', () => {
    const allowed = /^(?:zod|zod\/v4|zod\/v4\/core|@anthropic-ai\/sdk|@modelcontextprotocol\/sdk\/.+)$/;
    for (const entry of ['index.js', 'index.cjs']) {
      const specifiers = [...reachableSpecifiers(join(dist, entry))].filter((specifier) => !specifier.startsWith('agent-harness'));
      expect(specifiers.filter((specifier) => !allowed.test(specifier)), entry).toEqual([]);
    }
  });

  it('keeps the zod 3 converter out of the core entry, in both formats: only agent-harness/zod3 carries it', () => {
    // A string of zod-to-json-schema's own (its draft 2019-09 target), not of ours.
    const carriesConverter = (entry: string) => [...reachable(join(dist, entry)).files].some((file) => readFileSync(file, 'utf8').includes('jsonSchema2019-09'));
    for (const entry of ['index.js', 'index.cjs']) expect(carriesConverter(entry), entry).toBe(false);
    for (const entry of ['zod3/index.js', 'zod3/index.cjs']) expect(carriesConverter(entry), entry).toBe(true);
  });

  it('converts a zod 3 schema with the converter bundled into agent-harness/zod3, as the sources do', () => {
    const script = `
      import { defineTool } from 'agent-harness';
      import { zod3Schema } from 'agent-harness/zod3';
      import { z } from 'zod/v3';
      const tool = defineTool({
        name: 'search', description: 'Searches.', execute: () => 'ok',
        inputSchema: zod3Schema(z.object({ query: z.string().min(1), kind: z.enum(['a', 'b']).optional(), tags: z.array(z.string()), limit: z.number().int().default(5), meta: z.record(z.boolean()) })),
      });
      console.log(JSON.stringify(tool.jsonSchema));
    `;
    expect(runNode(['--input-type=module', '-e', script])).toEqual({
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1 },
        kind: { type: 'string', enum: ['a', 'b'] },
        tags: { type: 'array', items: { type: 'string' } },
        limit: { type: 'integer', default: 5 },
        meta: { type: 'object', additionalProperties: { type: 'boolean' } },
      },
      required: ['query', 'tags', 'meta'],
      additionalProperties: false,
    });
  });

  it('has a scan that does catch Node imports (the node and messages-server entries have them)', () => {
    for (const entry of ['testing/messages-server/index.js', 'testing/messages-server/index.cjs']) {
      const specifiers = [...reachableSpecifiers(join(dist, entry))];
      expect(specifiers.filter(isBuiltin), entry).toContain('node:http');
    }
    expect([...reachableSpecifiers(join(dist, 'node/index.js'))].some(isBuiltin)).toBe(true);
  });
});
