// The store entry points stay light: agent-harness/postgres and agent-harness/redis take the
// host's pg pool or ioredis client and import neither (nor any Node built-in), and the
// conformance suite in agent-harness/testing runs in any runtime.
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const builtins = new Set(builtinModules);
const isBuiltin = (specifier: string) => specifier.startsWith('node:') || builtins.has(specifier.split('/')[0]!);
const pattern = /(?:import|export)\s*(?:[^'"]*?from\s*)?["']([^"']+)["']|require\(\s*["']([^"']+)["']\s*\)|import\(\s*["']([^"']+)["']\s*\)/g;

/** Bare specifiers reachable from `entry` through relative imports (`.js` resolves to `.ts` in sources). */
function reachableSpecifiers(entry: string): Set<string> {
  const seen = new Set<string>();
  const specifiers = new Set<string>();
  const pending = [entry];
  while (pending.length) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    // Type-only imports vanish at build time.
    const source = readFileSync(file, 'utf8').replace(/^import type .*$/gm, '');
    for (const match of source.matchAll(pattern)) {
      const specifier = match[1] ?? match[2] ?? match[3]!;
      if (!specifier.startsWith('.')) {
        specifiers.add(specifier);
        continue;
      }
      const target = resolve(dirname(file), specifier);
      pending.push(existsSync(target) ? target : target.replace(/\.js$/, '.ts'));
    }
  }
  return specifiers;
}

describe('store entry points', () => {
  it.each(['postgres/index.js', 'postgres/index.cjs', 'redis/index.js', 'redis/index.cjs'])('dist/%s imports no driver and no Node built-in', (entry) => {
    const file = join(root, 'dist', entry);
    expect(existsSync(file), 'run `npm run build` first (`npm test` does)').toBe(true);
    expect([...reachableSpecifiers(file)].filter((specifier) => isBuiltin(specifier) || specifier === 'pg' || specifier === 'ioredis')).toEqual([]);
  });

  it.each(['bullmq/index.js', 'bullmq/index.cjs'])('dist/%s leaves bullmq to the host (an optional peer) and imports no driver', (entry) => {
    const file = join(root, 'dist', entry);
    expect(existsSync(file), 'run `npm run build` first (`npm test` does)').toBe(true);
    const specifiers = [...reachableSpecifiers(file)];
    expect(specifiers).toContain('bullmq');
    expect(specifiers.filter((specifier) => specifier === 'pg' || specifier === 'ioredis')).toEqual([]);
  });

  it('has a scan that does find Node built-ins and drivers where they are', () => {
    expect([...reachableSpecifiers(join(root, 'src/node/file-session-store.ts'))].some(isBuiltin)).toBe(true);
    expect(reachableSpecifiers(join(root, 'test/postgres/postgres-test-database.ts')).has('pg')).toBe(true);
  });

  it('keeps the conformance suite free of Node built-ins', () => {
    const specifiers = [...reachableSpecifiers(join(root, 'src/testing/store-conformance/index.ts'))];
    expect(specifiers.filter(isBuiltin)).toEqual([]);
  });

  it('lists every entry point in package.json exports and the build', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown>; peerDependenciesMeta: Record<string, { optional: boolean }> };
    for (const name of ['postgres', 'redis', 'bullmq', 'zod3']) {
      expect(manifest.exports[`./${name}`]).toEqual({
        import: { types: `./dist/${name}/index.d.ts`, default: `./dist/${name}/index.js` },
        require: { types: `./dist/${name}/index.d.cts`, default: `./dist/${name}/index.cjs` },
      });
    }
    expect(manifest.peerDependenciesMeta.pg).toEqual({ optional: true });
    expect(manifest.peerDependenciesMeta.ioredis).toEqual({ optional: true });
    expect(manifest.peerDependenciesMeta.bullmq).toEqual({ optional: true });
  });
});
