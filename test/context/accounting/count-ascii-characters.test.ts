import { describe, expect, it, vi } from 'vitest';
import { countAsciiCharacters, countAsciiCharactersPortable, nativeUnitCopy } from '../../../src/context/accounting/count-ascii-characters.js';

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

describe('countAsciiCharacters, the ways it counts', () => {
  /** Random texts: long ASCII runs with other units scattered in them, or other units throughout. */
  function randomTexts(count: number, maxLength: number): string[] {
    const texts: string[] = [];
    for (let seed = 1; seed <= count; seed++) {
      const next = random(seed * 7919);
      const density = next() < 0.3 ? 0.02 : next();
      const length = Math.floor(next() * maxLength);
      let text = '';
      for (let index = 0; index < length; index++) text += next() < density ? PIECES[Math.floor(next() * PIECES.length)]! : 'x';
      texts.push(text);
    }
    return texts;
  }

  it('counts the same without a native copy of the units (a browser), on fixed and random texts', () => {
    const fixed = ['', 'é'.repeat(255), 'é'.repeat(9000) + 'x'.repeat(50_000), '漢字'.repeat(30_000), 'ab😀'.repeat(20_000), ('x'.repeat(5000) + '’').repeat(40), '\ud800'.repeat(5000), 'The writer’s draft. '.repeat(3000)];
    for (const text of [...fixed, ...randomTexts(150, 30_000)]) {
      expect(countAsciiCharactersPortable(text), `a text of ${text.length} units`).toBe(unitByUnit(text));
      expect(countAsciiCharacters(text), `a text of ${text.length} units`).toBe(unitByUnit(text));
    }
  });

  it('in Node, copies the units of a text in another script natively and counts them exactly from any start', () => {
    const copy = nativeUnitCopy();
    expect(copy, 'Node has a native copy of UTF-16 units').toBeTypeOf('function');
    for (const [index, text] of randomTexts(120, 20_000).entries()) {
      const from = Math.floor(random(index + 1)() * text.length);
      expect(copy!(text, from), `a text of ${text.length} units from ${from}`).toBe(unitByUnit(text.slice(from)));
    }
    // Odd and even numbers of units, across the 4,096 units copied at a time, lone surrogates last.
    for (const length of [1, 2, 3, 4095, 4096, 4097, 8191, 8193]) {
      for (const last of ['x', 'é', '\ud800', '\udfff']) {
        const text = '漢'.repeat(length - 1) + last;
        expect(copy!(text, 0), `${length} units ending in U+${last.charCodeAt(0).toString(16)}`).toBe(last === 'x' ? 1 : 0);
      }
    }
    // Units at the edges of the bits read, in either half of a word, next to ASCII: 0x80, a unit
    // whose only high bit is its top one (0x8000–0x807f), and 0x7f beside them.
    for (const unit of ['\u0080', '\u0100', '\u8000', '\u807f', '\uff7f', '\uffff']) {
      for (const text of [unit + 'x'.repeat(4097), ('x' + unit).repeat(3000), (unit + '\u007f').repeat(3000), ('\u007f' + unit).repeat(2999) + 'x']) {
        expect(copy!(text, 0), `U+${unit.charCodeAt(0).toString(16)} in a text of ${text.length}`).toBe(unitByUnit(text));
      }
    }
  });

  it('uses that copy for a long text in another script, and encodes a mostly ASCII text part by part', () => {
    const write = vi.spyOn(Buffer.prototype, 'write');
    try {
      expect(countAsciiCharacters('漢字'.repeat(30_000))).toBe(0);
      expect(write).toHaveBeenCalled();
      write.mockClear();
      // Other units a few times a part apart (never in two parts in a row): encoded, not copied.
      const prose = ('x'.repeat(12_000) + '’').repeat(20);
      expect(countAsciiCharacters(prose)).toBe(prose.length - 20);
      expect(write).not.toHaveBeenCalled();
    } finally {
      write.mockRestore();
    }
  });

  it('counts the same whatever V8 made the string of: a concatenation, a slice, a Latin-1 or UTF-16 decoding, char codes, a property name', () => {
    const base = 'x'.repeat(5000) + 'é’漢😀'.repeat(700) + 'y'.repeat(3000);
    const latin1 = Buffer.from('abc\u00e9\u00ff'.repeat(3000), 'latin1').toString('latin1');
    const utf16 = Buffer.from(base, 'utf16le').toString('utf16le');
    const decoded = new TextDecoder().decode(new TextEncoder().encode(base));
    const fromCodes = String.fromCharCode(...Array.from({ length: 9000 }, (_, index) => [0x41, 0xe9, 0x2019, 0x7f, 0x80][index % 5]!));
    const key = Object.keys({ [base.slice(0, 9000)]: 1 })[0]!;
    const texts = [base, base + base, base.slice(1234, 17_000), `${base.slice(0, 8000)}${'z'.repeat(10)}${base.slice(9000)}`, latin1, utf16, decoded, fromCodes, key];
    for (const [index, text] of texts.entries()) {
      expect(countAsciiCharacters(text), `text ${index}`).toBe(unitByUnit(text));
      expect(countAsciiCharactersPortable(text), `text ${index}`).toBe(unitByUnit(text));
      expect(nativeUnitCopy()!(text, 0), `text ${index}`).toBe(unitByUnit(text));
    }
  });

  it('copies natively only in Node (or a runtime that says it is compatible) with a Buffer', () => {
    const nodeBuffer = { alloc: (size: number) => Buffer.alloc(size) };
    expect(nativeUnitCopy({})).toBeUndefined();
    // A browser bundle's Buffer in the global scope (a copy written in JavaScript): not used.
    expect(nativeUnitCopy({ Buffer: nodeBuffer, process: { versions: {} } })).toBeUndefined();
    expect(nativeUnitCopy({ Buffer: nodeBuffer })).toBeUndefined();
    expect(nativeUnitCopy({ process: { versions: { node: '20.0.0' } } })).toBeUndefined();
    expect(nativeUnitCopy({ Buffer: { alloc: () => ({}) }, process: { versions: { node: '20.0.0' } } })).toBeUndefined();
    expect(nativeUnitCopy({ Buffer: nodeBuffer, process: { versions: { node: '20.0.0' } } })).toBeTypeOf('function');
  });
});
