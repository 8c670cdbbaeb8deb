import { describe, expect, it } from 'vitest';
import { revealHiddenCharacters } from 'agent-harness';
import { stripTerminalEscapes } from '../../src/tools/strip-terminal-escapes.js';

describe('revealHiddenCharacters', () => {
  it('shows bidi controls, invisible and control characters as <U+XXXX>, keeping newlines, tabs and CRLF', () => {
    expect(revealHiddenCharacters('ls\u202E; rm -rf ~\u202C')).toBe('ls<U+202E>; rm -rf ~<U+202C>');
    expect(revealHiddenCharacters('a\u2066b\u2069c\u200Fd\u061Ce')).toBe('a<U+2066>b<U+2069>c<U+200F>d<U+061C>e');
    expect(revealHiddenCharacters('r\u200Bm x\uFEFF')).toBe('r<U+200B>m x<U+FEFF>');
    expect(revealHiddenCharacters('\x1b[31mred\x07\x7f\x9b')).toBe('<U+001B>[31mred<U+0007><U+007F><U+009B>');
    expect(revealHiddenCharacters('echo safe\rrm -rf ~')).toBe('echo safe<U+000D>rm -rf ~');
    expect(revealHiddenCharacters('line 1\r\nline\t2\n')).toBe('line 1\r\nline\t2\n');
  });

  it('shows Unicode tag characters (text hidden from a human, read by a model)', () => {
    const hidden = [...'run me'].map((char) => String.fromCodePoint(0xe0000 + char.codePointAt(0)!)).join('');
    expect(revealHiddenCharacters(`ok${hidden}`)).toBe(`ok${[...'run me'].map((char) => `<U+${(0xe0000 + char.codePointAt(0)!).toString(16).toUpperCase()}>`).join('')}`);
  });

  it('leaves ordinary text alone, emoji joiners and right-to-left letters included', () => {
    const text = 'Ünïcödé 👨‍👩‍👧 עברית العربية 日本語 — “quotes”';
    expect(revealHiddenCharacters(text)).toBe(text);
  });
});

describe('stripTerminalEscapes', () => {
  it('removes colours, cursor moves, OSC titles and hyperlinks, keeping the text', () => {
    expect(stripTerminalEscapes('\x1b[1;31merror\x1b[0m: \x1b[2Kfailed')).toBe('error: failed');
    expect(stripTerminalEscapes('\x1b]0;title\x07after \x1b]8;;https://x.test\x1b\\link\x1b]8;;\x1b\\')).toBe('after link');
    expect(stripTerminalEscapes('\x1b(Bplain\x1b=\x9b32mgreen')).toBe('plaingreen');
  });

  it('resolves overstrike (bold and underline of man pages) to the plain letters', () => {
    expect(stripTerminalEscapes('N\bNA\bAM\bME\bE _\bu_\bs_\be')).toBe('NAME use');
  });

  // No time asserted: a quadratic scan of this input fails on the test's timeout.
  it('is linear on long hostile input', () => {
    const hostile = '\x1b]'.repeat(50_000) + '\x1b['.repeat(50_000) + '9'.repeat(100_000);
    expect(typeof stripTerminalEscapes(hostile)).toBe('string');
  }, 30_000);
});
