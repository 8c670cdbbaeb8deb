import { describe, expect, it } from 'vitest';
import { generatePlanSlug } from '../../src/plan/generate-plan-slug.js';
import { SLUG_QUALITIES, SLUG_THINGS, SLUG_TONES } from '../../src/plan/plan-slug-words.js';

/** A deterministic source cycling through the given values. */
function sequence(...values: number[]): () => number {
  let index = 0;
  return () => values[index++ % values.length] as number;
}

describe('generatePlanSlug', () => {
  it('draws three readable words: a quality, a tone and a thing', () => {
    const slug = generatePlanSlug();
    expect(slug).toMatch(/^[a-z]+-[a-z]+-[a-z]+$/);
    const [quality, tone, thing] = slug.split('-');
    expect(SLUG_QUALITIES).toContain(quality);
    expect(SLUG_TONES).toContain(tone);
    expect(SLUG_THINGS).toContain(thing);
  });

  it('is deterministic for a given random source, and clamps out-of-range numbers', () => {
    expect(generatePlanSlug(sequence(0, 0, 0))).toBe(`${SLUG_QUALITIES[0]}-${SLUG_TONES[0]}-${SLUG_THINGS[0]}`);
    expect(generatePlanSlug(sequence(0.999999, 1, Number.NaN))).toBe(`${SLUG_QUALITIES.at(-1)}-${SLUG_TONES.at(-1)}-${SLUG_THINGS[0]}`);
    expect(generatePlanSlug(sequence(-5, 0.5, 0.5))).toBe(`${SLUG_QUALITIES[0]}-${SLUG_TONES[Math.floor(SLUG_TONES.length / 2)]}-${SLUG_THINGS[50]}`);
  });

  it('has word lists of about a hundred unique lower-case words', () => {
    for (const list of [SLUG_QUALITIES, SLUG_TONES, SLUG_THINGS]) {
      expect(new Set(list).size).toBe(list.length);
      expect(list.length).toBeGreaterThanOrEqual(60);
      for (const word of list) expect(word).toMatch(/^[a-z]{2,12}$/);
    }
    expect(SLUG_QUALITIES.length).toBeGreaterThanOrEqual(100);
    expect(SLUG_THINGS.length).toBeGreaterThanOrEqual(100);
  });

  it('rarely repeats itself', () => {
    const slugs = new Set(Array.from({ length: 200 }, () => generatePlanSlug()));
    expect(slugs.size).toBeGreaterThan(190);
  });
});
