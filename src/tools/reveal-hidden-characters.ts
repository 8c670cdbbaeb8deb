import { argumentError } from '../errors/argument-error.js';

/**
 * What a reader cannot see but a renderer obeys: C0 and C1 controls (an ESC that starts a
 * terminal sequence, a bell, a backspace), DEL, a carriage return not followed by a line feed
 * (it overwrites the line in a terminal), bidi controls (they reorder what follows: "Trojan
 * Source"), zero-width characters (U+200B, U+2060, U+FEFF) and Unicode tag characters (text a
 * human does not see and a model reads). Tabs, newlines, CRLF and zero-width joiners (emoji) are
 * kept.
 */
const HIDDEN = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff\u{e0000}-\u{e007f}]|\r(?!\n)/gu;

/** `<U+202E>` for U+202E. */
function codePointLabel(character: string): string {
  return `<U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/**
 * Text safe to render as it reads: every control, bidi, invisible or tag character (see above)
 * replaced by its code point, `<U+202E>`, so what a host shows is what the text holds and nothing
 * in it can reorder, hide or overwrite the rest. Approval cards (`display`) and Bash output are
 * passed through it already; use it for other model text a host renders, such as a tool call's
 * `input`, a plan, or a subagent's description.
 * @example
 * revealHiddenCharacters('invoice\u202Efdp.exe') // 'invoice<U+202E>fdp.exe'
 */
export function revealHiddenCharacters(text: string): string {
  if (typeof text !== 'string') throw argumentError('revealHiddenCharacters', 'text', 'a string', text);
  return text.replace(HIDDEN, codePointLabel);
}

/** The same, keeping every carriage return: for command output, where `\r` draws progress bars. */
export function revealHiddenCharactersInOutput(text: string): string {
  return text.replace(HIDDEN, (character) => (character === '\r' ? character : codePointLabel(character)));
}

/**
 * What else draws nothing on its own, for {@link isVisiblyBlank} only (shown as they are by
 * `revealHiddenCharacters`, since beside other text they are harmless or needed): format
 * characters (soft hyphen, joiners, the invisible operators U+2061–U+2064, the Mongolian vowel
 * separator), combining marks with nothing to combine with (variation selectors, the grapheme
 * joiner, Khmer inherent vowels), the Hangul fillers and the Braille blank.
 */
const DRAWS_NOTHING = /[\p{Cf}\p{Mn}\p{Me}\u115f\u1160\u3164\uffa0\u2800]/gu;

/**
 * Whether a text shows nothing once rendered: only whitespace and the hidden characters above
 * (a plan of zero-width spaces is a blank card).
 * @internal
 */
export function isVisiblyBlank(text: string): boolean {
  return text.replace(HIDDEN, '').replace(DRAWS_NOTHING, '').trim() === '';
}
