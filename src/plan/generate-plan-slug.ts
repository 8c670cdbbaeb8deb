import { SLUG_QUALITIES, SLUG_THINGS, SLUG_TONES } from './plan-slug-words.js';
import { argumentError } from '../errors/argument-error.js';

/** A source of random numbers in `[0, 1)`, like `Math.random`. */
export type RandomSource = () => number;

/** `crypto.getRandomValues` where the runtime has it (Node 20, browsers, workers), else `Math.random`. */
export const defaultRandom: RandomSource = () => {
  const webCrypto = (globalThis as { crypto?: { getRandomValues?: (array: Uint32Array) => Uint32Array } }).crypto;
  if (webCrypto?.getRandomValues) {
    const values = webCrypto.getRandomValues(new Uint32Array(1));
    return (values[0] ?? 0) / 0x1_0000_0000;
  }
  return Math.random();
};

function pick(words: readonly string[], random: RandomSource): string {
  const value = random();
  // Clamp so a misbehaving source (1, negative, NaN) still picks a word.
  const index = Number.isFinite(value) ? Math.min(words.length - 1, Math.max(0, Math.floor(value * words.length))) : 0;
  return words[index] as string;
}

/**
 * Draws a readable three-word plan slug: a quality, a colour or material, and a thing, e.g.
 * `quiet-copper-lantern` (about 650,000 combinations).
 * @param random - numbers in `[0, 1)`; pass a seeded source for reproducible names.
 * @default random `crypto.getRandomValues` when available, else `Math.random`
 */
export function generatePlanSlug(random: RandomSource = defaultRandom): string {
  if (typeof random !== 'function') throw argumentError('generatePlanSlug', 'random', 'a function returning a number in [0, 1), as Math.random, or nothing', random);
  return `${pick(SLUG_QUALITIES, random)}-${pick(SLUG_TONES, random)}-${pick(SLUG_THINGS, random)}`;
}
