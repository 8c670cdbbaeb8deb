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

/**
 * The note a Glob or Grep result ends with when the walk left out entries whose names are not
 * valid UTF-8 (no tool can name them: the name decodes to U+FFFD), or `''`.
 */
export function unnameableNote(count: number): string {
  if (count === 0) return '';
  const entries = count === 1 ? '1 entry was left out: its name is' : `${count} entries were left out: their names are`;
  return `\n\n[${entries} not valid UTF-8, so no tool can open it by name. List such names with Bash (\`ls -b\`) and search them there, or rename them.]`;
}
