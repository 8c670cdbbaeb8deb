import { describe, expect, it } from 'vitest';
import { countAsciiCharacters } from '../../../src/context/accounting/count-ascii-characters.js';

/** The definition: UTF-16 units below 128, one at a time. */
function unitByUnit(text: string): number {
  let ascii = 0;
  for (let index = 0; index < text.length; index++) if (text.charCodeAt(index) < 128) ascii++;
  return ascii;
}

/** A deterministic generator (mulberry32), so a failure names a seed that repeats it. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Units of every width UTF-8 gives them: ASCII (1 byte), Latin (2), CJK and U+FFFF (3), a pair (4), lone surrogates. */
const PIECES = ['a', ' ', '\n', '\u007f', '\u0000', 'é', '\u0080', '\u07ff', '\u0800', '漢', '\uffff', '😀', '\ud800', '\udfff', '’'];

describe('countAsciiCharacters', () => {
  it('counts the units below 128 of short, long, ASCII and mixed texts exactly', () => {
    const texts = [
      '',
      'ok',
      'x'.repeat(255),
      'x'.repeat(256),
      'x'.repeat(100_000),
      'x'.repeat(100_000) + 'é',
      'é' + 'x'.repeat(100_000),
      '漢字'.repeat(30_000),
      'ab😀'.repeat(20_000),
      // Mixed parts twice in a row, then ASCII for good: the rest is counted unit by unit.
      'é'.repeat(9000) + 'x'.repeat(50_000),
      // One mixed part between ASCII ones, again and again.
      ('x'.repeat(5000) + '’').repeat(40),
    ];
    for (const text of texts) expect(countAsciiCharacters(text), `a text of ${text.length} units`).toBe(unitByUnit(text));
  });

  it('agrees with the unit-by-unit count on random texts, surrogates and part boundaries included', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const next = random(seed);
      const parts: string[] = [];
      const length = Math.floor(next() * 20_000);
      // Long ASCII runs with other units scattered in them, as in code, logs and prose.
      const density = next() < 0.5 ? 0.001 : next();
      for (let index = 0; index < length; index++) parts.push(next() < density ? PIECES[Math.floor(next() * PIECES.length)]! : 'x');
      const text = parts.join('');
      expect(countAsciiCharacters(text), `seed ${seed}`).toBe(unitByUnit(text));
    }
  });

  it('counts a surrogate pair split across two parts as two non-ASCII units', () => {
    for (let at = 4090; at <= 4100; at++) {
      const text = 'x'.repeat(at) + '😀' + 'x'.repeat(9000);
      expect(countAsciiCharacters(text), `the pair at ${at}`).toBe(text.length - 2);
    }
  });

  it('counts a text made of other strings (not flattened) the same', () => {
    let text = '';
    for (let index = 0; index < 2000; index++) text += index % 97 === 0 ? 'ü' : 'chunk ';
    expect(countAsciiCharacters(text)).toBe(unitByUnit(text));
  });
});
