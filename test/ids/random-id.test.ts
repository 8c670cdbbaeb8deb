import { afterEach, describe, expect, it, vi } from 'vitest';
import { randomId, randomLowercaseId } from '../../src/ids/random-id.js';

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

describe('randomLowercaseId', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.resetModules();
  });

  it('makes ids of the size asked, of lower-case letters and digits only, each about as likely', () => {
    expect(randomLowercaseId(12)).toMatch(/^[a-z0-9]{12}$/);
    expect(randomLowercaseId(0)).toBe('');
    const counts = new Map<string, number>();
    const ids = new Set<string>();
    for (let index = 0; index < 15_000; index++) {
      const id = randomLowercaseId(12);
      ids.add(id);
      for (const char of id) counts.set(char, (counts.get(char) ?? 0) + 1);
    }
    expect(ids.size).toBe(15_000);
    expect([...counts.keys()].sort().join('')).toBe('0123456789abcdefghijklmnopqrstuvwxyz');
    // 5,000 expected per character: a byte mapped by `% 36` without drawing 252–255 again would
    // give 0–3 about 5,800 each.
    for (const count of counts.values()) expect(Math.abs(count - 5000)).toBeLessThan(500);
  });

  it('draws again for a byte of 252 and up, and takes the pool from Web Crypto only when it is used up', async () => {
    // A new instance of the module: its pool is empty until the first id.
    vi.resetModules();
    const { randomLowercaseId: fresh } = await import('../../src/ids/random-id.js');
    let fills = 0;
    vi.spyOn(globalThis.crypto, 'getRandomValues').mockImplementation(<T extends ArrayBufferView | null>(array: T): T => {
      fills++;
      const bytes = array as unknown as Uint8Array;
      // 252–255 (to be drawn again) between the bytes that count: 0 → "0", 35 → "z", 36 → "0", 251 → "z".
      const pattern = [252, 0, 253, 35, 254, 36, 255, 251];
      for (let index = 0; index < bytes.length; index++) bytes[index] = pattern[index % pattern.length]!;
      return array;
    });
    expect(fresh(4)).toBe('0z0z');
    expect(fresh(8)).toBe('0z0z0z0z');
    expect(fills).toBe(1);
  });
});
