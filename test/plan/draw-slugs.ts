import { afterEach, beforeEach } from 'vitest';

/**
 * Slug draws (one number each, three per slug) follow `slugs`, by index into the word lists, then
 * the real source; other draws (ids) are left alone.
 */
let restore: (() => void) | undefined;
export function drawSlugs(...slugs: Array<[number, number, number]>) {
  const crypto = globalThis.crypto;
  const original = crypto.getRandomValues.bind(crypto);
  const queue = slugs.flat();
  crypto.getRandomValues = (<T extends ArrayBufferView | null>(array: T) => {
    if (array instanceof Uint32Array && array.length === 1 && queue.length > 0) {
      // Index i of a list of n words: a number in [i/n, (i+1)/n); 0.5/100 fits every list.
      array[0] = Math.floor(((queue.shift()! + 0.5) / 100) * 0x1_0000_0000);
      return array;
    }
    return original(array as never) as T;
  }) as typeof crypto.getRandomValues;
  restore = () => {
    crypto.getRandomValues = original;
  };
}
beforeEach(() => {
  restore = undefined;
});
afterEach(() => restore?.());
