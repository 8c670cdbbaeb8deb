/**
 * `index` moved off the middle of a surrogate pair (an emoji, most CJK extension characters),
 * so that `text.slice(0, index)` and `text.slice(index)` never hold half a character: the
 * Messages API refuses a lone surrogate ("no low surrogate in string"). Without `direction`
 * the cut moves back (the part before it gets shorter); `'forward'` moves it past the character.
 * An index that splits nothing, or is outside the text, is returned as it is. Works where
 * `String.prototype.isWellFormed` does not exist (older browsers).
 * @param text - the text to cut.
 * @param index - a UTF-16 index into it.
 * @param direction - where to move a cut that splits a pair. @default 'back'
 * @example text.slice(0, codePointBoundary(text, 2_000)) // or headOfText(text, 2_000)
 */
export function codePointBoundary(text: string, index: number, direction: 'back' | 'forward' = 'back'): number {
  if (index <= 0 || index >= text.length) return index;
  const splits = (text.charCodeAt(index - 1) & 0xfc00) === 0xd800 && (text.charCodeAt(index) & 0xfc00) === 0xdc00;
  if (!splits) return index;
  return direction === 'back' ? index - 1 : index + 1;
}

/** The first `max` characters of `text` (fewer by one rather than half of a surrogate pair). */
export function headOfText(text: string, max: number): string {
  return text.slice(0, codePointBoundary(text, max));
}

/** Half of a surrogate pair on its own (UTF-8 cannot encode it; the Messages API refuses it). */
export const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/**
 * `text` with every lone surrogate (half of a pair, as broken tool output or a JSON `"\ud800"`
 * can hold) replaced by U+FFFD, so the Messages API takes it; the same string when it has none.
 * `String.prototype.toWellFormed` where it exists, else a regular expression (older browsers).
 */
export function wellFormedText(text: string): string {
  const native = (text as { toWellFormed?: () => string }).toWellFormed;
  return native ? native.call(text) : text.replace(LONE_SURROGATES, '\ufffd');
}
