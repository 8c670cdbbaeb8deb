import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The layers of DESIGN.md §8, checked on the source (type-only imports count: a type cycle
// between folders is still a cycle in the design).
const src = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The unit a file belongs to: its top folder under src/, with the Anthropic adapter on its own. */
function unitOf(file: string): string {
  const parts = relative(src, file).split(/[\\/]/);
  if (parts.length === 1) return 'index';
  if (parts[0] === 'model' && parts[1] === 'anthropic') return 'model/anthropic';
  return parts[0]!;
}

interface Import {
  from: string;
  specifier: string;
  target?: string;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*'([^']+)'|import\(\s*'([^']+)'\s*\)/g;

function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const found: Import[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const specifier = (match[1] ?? match[2])!;
    const target = specifier.startsWith('.') ? resolve(dirname(file), specifier).replace(/\.js$/, '.ts') : undefined;
    found.push({ from: file, specifier, ...(target ? { target } : {}) });
  }
  return found;
}

const files = sourceFiles(src);
const imports = files.flatMap(importsOf);
const graph = new Map<string, Set<string>>();
for (const entry of imports) {
  if (!entry.target) continue;
  const from = unitOf(entry.from);
  const to = unitOf(entry.target);
  if (from === to) continue;
  if (!graph.has(from)) graph.set(from, new Set());
  graph.get(from)!.add(to);
}

/** What each unit may import, besides itself. Lower units never import higher ones. */
const ALLOWED: Record<string, readonly string[]> = {
  errors: [],
  types: [],
  lazy: [],
  telemetry: [],
  options: ['errors', 'types'],
  model: ['lazy', 'ids', 'errors', 'types'],
  history: ['model', 'errors', 'types'],
  state: ['model', 'history', 'errors', 'types'],
  events: ['model', 'state', 'errors', 'types'],
  hooks: ['model', 'events', 'options', 'errors', 'types'],
  tools: ['model', 'state', 'events', 'history', 'options', 'errors', 'types'],
  context: ['model', 'tools', 'permissions', 'options', 'errors', 'types'],
  'tool-search': ['model', 'tools', 'errors', 'types'],
  skills: ['tools', 'errors', 'types'],
  mcp: ['model', 'history', 'tools', 'permissions', 'lazy', 'errors', 'types'],
  'tool-sources': ['model', 'tools', 'tool-search', 'skills', 'mcp', 'errors', 'types'],
  // The middle layers of docs/architecture.md ("permissions", then "plan, todos, session") and the
  // Claude Code interop beside them: below the runtime, the loop and the agent.
  ids: [],
  permissions: ['model', 'history', 'events', 'hooks', 'tools', 'options', 'errors', 'types'],
  plan: ['model', 'history', 'state', 'events', 'hooks', 'tools', 'options', 'errors', 'types'],
  todos: ['model', 'plan', 'tools', 'options', 'errors', 'types'],
  session: ['model', 'state', 'events', 'permissions', 'plan', 'ids', 'options', 'errors', 'types'],
  interop: ['model', 'state', 'plan', 'todos', 'options', 'errors', 'types'],
};

// The Node-only entries: `node`, `testing` (its messages server) and `bullmq` (BullMQ runs on Node).
const CORE_UNITS = (unit: string) => unit !== 'node' && unit !== 'testing' && unit !== 'bullmq';

describe('architecture: the layers of DESIGN §8', () => {
  it('has no import cycle between folders (type imports included)', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const path: string[] = [];
    const visit = (unit: string) => {
      state.set(unit, 'open');
      path.push(unit);
      for (const next of graph.get(unit) ?? []) {
        if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next].join(' → '));
        else if (!state.has(next)) visit(next);
      }
      path.pop();
      state.set(unit, 'done');
    };
    for (const unit of graph.keys()) if (!state.has(unit)) visit(unit);
    expect(cycles).toEqual([]);
  });

  it.each(Object.entries(ALLOWED))('%s imports only from the layers below it', (unit, allowed) => {
    const outside = [...(graph.get(unit) ?? [])].filter((to) => !allowed.includes(to));
    expect(outside, `${unit}/ imports ${outside.join(', ')}`).toEqual([]);
  });

  it('the core never imports the Node or testing entry points, nor node: modules', () => {
    const offending = imports
      .filter((entry) => CORE_UNITS(unitOf(entry.from)))
      .filter((entry) => entry.specifier.startsWith('node:') || (entry.target && !CORE_UNITS(unitOf(entry.target))))
      .map((entry) => `${relative(src, entry.from)} → ${entry.specifier}`);
    expect(offending).toEqual([]);
  });

  it('only the Anthropic adapter imports @anthropic-ai/sdk', () => {
    const offending = imports
      .filter((entry) => entry.specifier.startsWith('@anthropic-ai/sdk') && unitOf(entry.from) !== 'model/anthropic')
      .map((entry) => relative(src, entry.from));
    expect(offending).toEqual([]);
  });

  it('only the bullmq entry imports bullmq', () => {
    const offending = imports.filter((entry) => /^bullmq(\/|$)/.test(entry.specifier) && unitOf(entry.from) !== 'bullmq').map((entry) => relative(src, entry.from));
    expect(offending).toEqual([]);
    expect(imports.some((entry) => entry.specifier === 'bullmq' && unitOf(entry.from) === 'bullmq')).toBe(true);
  });

  it('only the zod3 entry imports the zod 3 converter, so the core never loads it', () => {
    const offending = imports.filter((entry) => entry.specifier === 'zod-to-json-schema' && unitOf(entry.from) !== 'zod3').map((entry) => relative(src, entry.from));
    expect(offending).toEqual([]);
    expect(imports.some((entry) => entry.specifier === 'zod-to-json-schema' && unitOf(entry.from) === 'zod3')).toBe(true);
  });

  it('finds the imports it checks (the check itself works)', () => {
    expect(graph.get('runtime')?.has('state')).toBe(true);
    expect(graph.get('loop')?.has('runtime')).toBe(true);
    expect(imports.some((entry) => entry.specifier === '@anthropic-ai/sdk')).toBe(true);
  });
});
