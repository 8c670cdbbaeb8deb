import { describe, expect, it } from 'vitest';
import { oncePerKey, type OncePerKey } from '../../src/lazy/once-per-key.js';

describe('oncePerKey', () => {
  it('shares one load per owner and key; a failed one is forgotten (the next caller runs its own); a deleted key loads afresh', async () => {
    const table: OncePerKey<string> = new WeakMap();
    const owner = {};
    const other = {};
    let runs = 0;
    const load = (value: string) => () => Promise.resolve(`${value} ${++runs}`);
    const [first, second] = await Promise.all([oncePerKey(table, owner, 'a', load('x')), oncePerKey(table, owner, 'a', load('y'))]);
    expect([first, second]).toEqual(['x 1', 'x 1']);
    expect(await oncePerKey(table, owner, 'b', load('z'))).toBe('z 2');
    expect(await oncePerKey(table, other, 'a', load('w'))).toBe('w 3');
    await expect(oncePerKey(table, owner, 'c', () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(await oncePerKey(table, owner, 'c', load('v'))).toBe('v 4');
    table.get(owner)!.delete('a');
    expect(await oncePerKey(table, owner, 'a', load('u'))).toBe('u 5');
  });
});
