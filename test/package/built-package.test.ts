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

const builtins = new Set(builtinModules);
const isBuiltin = (specifier: string) => specifier.startsWith('node:') || builtins.has(specifier.split('/')[0]!);

function runNode(args: string[]): unknown {
  const output = execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
  return JSON.parse(output.trim().split('\n').at(-1)!);
}

/** Every file reachable from an entry through relative imports, with the bare specifiers it imports. */
function reachableSpecifiers(entry: string): Set<string> {
  const seen = new Set<string>();
  const specifiers = new Set<string>();
  const pending = [entry];
  const pattern = /(?:import|export)\s*(?:[^'"]*?from\s*)?["']([^"']+)["']|require\(\s*["']([^"']+)["']\s*\)|import\(\s*["']([^"']+)["']\s*\)/g;
  while (pending.length) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(pattern)) {
      const specifier = match[1] ?? match[2] ?? match[3]!;
      if (specifier.startsWith('.')) pending.push(resolve(dirname(file), specifier));
      else specifiers.add(specifier);
    }
  }
  return specifiers;
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
      const source = readFileSync(join(dist, entry), 'utf8');
      expect(source).toMatch(/import\(['"]@modelcontextprotocol\/sdk\/client\/index\.js['"]\)/);
      expect(source).not.toMatch(/(?:from\s*|require\(\s*)['"]@modelcontextprotocol/);
    }
  });

  it('has a scan that does catch Node imports (the node and messages-server entries have them)', () => {
    for (const entry of ['testing/messages-server/index.js', 'testing/messages-server/index.cjs']) {
      const specifiers = [...reachableSpecifiers(join(dist, entry))];
      expect(specifiers.filter(isBuiltin), entry).toContain('node:http');
    }
    expect([...reachableSpecifiers(join(dist, 'node/index.js'))].some(isBuiltin)).toBe(true);
  });
});
