import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/errors/configuration-error.js';
import { memoryPlanStore } from '../../src/plan/memory-plan-store.js';

describe('memoryPlanStore', () => {
  it('reads, writes, checks and lists plans', async () => {
    const store = memoryPlanStore({ initial: { 'b.md': 'B' } });
    expect(await store.read('a.md')).toBeUndefined();
    expect(await store.exists('a.md')).toBe(false);
    await store.write('a.md', 'A');
    await store.write('a.md', 'A2');
    expect(await store.read('a.md')).toBe('A2');
    expect(await store.exists('a.md')).toBe(true);
    expect(await store.list()).toEqual(['a.md', 'b.md']);
  });

  it('rejects names a file store could not keep inside its directory', async () => {
    const store = memoryPlanStore();
    await expect(store.write('../x.md', 'x')).rejects.toThrow(ConfigurationError);
    await expect(store.read('a/b.md')).rejects.toThrow(/path separator/);
    expect(() => memoryPlanStore({ initial: { '..': 'x' } })).toThrow(ConfigurationError);
  });
});
