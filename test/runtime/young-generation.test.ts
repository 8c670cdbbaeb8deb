import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');

// A server that makes an agent per request pays for every agent that outlives a young-generation
// GC: it is copied to the old generation and waits there for a full mark-compact. An object
// literal with getters (V8 gives it a map of its own, and maps are old) or a WeakMap entry whose
// value refers to its key pinned every agent and its run's garbage this way (about 10 KB each).
describe('a finished agent nobody holds', () => {
  it('is collected by young-generation GCs, not promoted to the old generation', () => {
    const output = execFileSync(process.execPath, ['--import', 'tsx', '--expose-gc', join(here, 'young-generation-child.ts')], { cwd: root, encoding: 'utf8' });
    const { perAgent, contexts } = JSON.parse(output.trim().split('\n').at(-1)!) as { perAgent: number; contexts: number };
    expect(contexts).toBe(1250); // every call saw its agent context
    // What is left is Node's own AbortSignal of each run (about 0.7 KB) and a little more.
    expect(perAgent).toBeLessThan(3000);
  });
});
