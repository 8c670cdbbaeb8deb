/** Control characters (a newline, a tab, an escape) and the Unicode line and paragraph separators. */
const NEEDS_QUOTES = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/**
 * A path as a line of Glob or Grep output: as it is, or JSON-quoted when it holds a control
 * character, so a name with a newline stays one entry (not two names that do not exist) and the
 * model gets it back by decoding the quotes, as it decodes any JSON string.
 */
export function shownPath(display: string): string {
  return NEEDS_QUOTES.test(display) ? JSON.stringify(display) : display;
}
