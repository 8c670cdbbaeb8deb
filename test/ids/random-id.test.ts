import { describe, expect, it } from 'vitest';
import { randomId } from '../../src/ids/random-id.js';

describe('randomId', () => {
  it('makes ids of the size asked, from the URL-safe alphabet', () => {
    expect(randomId()).toMatch(/^[A-Za-z0-9_-]{21}$/);
    expect(randomId(12)).toMatch(/^[A-Za-z0-9_-]{12}$/);
    expect(randomId(0)).toBe('');
  });

  it('does not repeat across many pool refills, and uses every symbol about evenly', () => {
    // 20,000 ids of 16 characters draw 320,000 bytes: the 4 KiB pool is refilled about 80 times.
    const ids = new Set<string>();
    const counts = new Map<string, number>();
    for (let index = 0; index < 20_000; index++) {
      const id = randomId(16);
      ids.add(id);
      for (const char of id) counts.set(char, (counts.get(char) ?? 0) + 1);
    }
    expect(ids.size).toBe(20_000);
    expect(counts.size).toBe(64);
    // 5,000 expected per symbol; a pool served twice, or a stuck byte, would be far off.
    for (const count of counts.values()) expect(Math.abs(count - 5000)).toBeLessThan(600);
  });

  it('serves sizes larger than the pool', () => {
    expect(randomId(5000)).toHaveLength(5000);
  });
});
