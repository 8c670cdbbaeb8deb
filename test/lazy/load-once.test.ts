import { describe, expect, it } from 'vitest';
import { loadOnce } from '../../src/lazy/load-once.js';

describe('loadOnce', () => {
  it('loads once and shares the load between uses, also uses that start before it settles', async () => {
    let loads = 0;
    const load = loadOnce(() => Promise.resolve({ value: ++loads }));
    const [first, second] = await Promise.all([load(), load()]);
    expect(await load()).toBe(first);
    expect(second).toBe(first);
    expect(loads).toBe(1);
  });

  it('forgets a load that failed, with its error, so the next use tries again', async () => {
    let loads = 0;
    const unreachable = new TypeError('Failed to fetch dynamically imported module');
    const load = loadOnce(() => (++loads === 1 ? Promise.reject(unreachable) : Promise.resolve('module')));
    await expect(load()).rejects.toBe(unreachable);
    expect(await load()).toBe('module');
    expect(await load()).toBe('module');
    expect(loads).toBe(2);
  });

  it('offers the loaded value without a wait once the load settled well, and nothing before or after a failure', async () => {
    let loads = 0;
    const load = loadOnce(() => (++loads === 1 ? Promise.reject(new Error('unreachable')) : Promise.resolve({ value: loads })));
    expect(load.loaded).toBeUndefined();
    await expect(load()).rejects.toThrow('unreachable');
    expect(load.loaded).toBeUndefined();
    const pending = load();
    expect(load.loaded).toBeUndefined();
    const module = await pending;
    expect(load.loaded).toBe(module);
    expect(await load()).toBe(module);
    expect(loads).toBe(2);
  });
});
