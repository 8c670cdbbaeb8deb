/**
 * Terminal control sequences: CSI (`ESC [` … final byte, colours and cursor moves, or its 8-bit
 * form U+009B), OSC (`ESC ]` … BEL or `ESC \`, window titles and hyperlinks), DCS/SOS/PM/APC
 * strings (`ESC P|X|^|_` … `ESC \`) and two-character escapes (`ESC (B`, `ESC =`). Each part is a
 * bounded character class, so matching stays linear on hostile input.
 */
const TERMINAL_ESCAPE = /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[PX^_][^\x1b]*\x1b\\|\x1b[ -/]*[0-~]/g;

/** Overstrike, as `man` and `nroff` write bold (`N\bN`) and underline (`_\bN`): the struck-over letter goes. */
const OVERSTRUCK = /[^\n\b]\x08(?=[^\n\b])/g;

/**
 * Command output as a reader sees it in a terminal: colours, cursor moves, titles, hyperlink
 * wrappers and overstrike removed (they mean nothing to a model and would be obeyed by a host
 * rendering into a terminal). What is left of an unterminated sequence stays, to be shown by
 * {@link revealHiddenCharacters}.
 */
export function stripTerminalEscapes(text: string): string {
  if (!text.includes('\x1b') && !text.includes('\x9b') && !text.includes('\b')) return text;
  return text.replace(TERMINAL_ESCAPE, '').replace(OVERSTRUCK, '');
}
