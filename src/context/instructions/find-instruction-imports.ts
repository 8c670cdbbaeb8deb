import { argumentError } from '../../errors/argument-error.js';

/** One `@path` import found in an instructions file. */
export interface InstructionImport {
  /** The path as written after `@`, escapes resolved (`@docs/my\ notes.md` → `docs/my notes.md`). */
  path: string;
  /** Where the `@` is in the text. */
  index: number;
}

const fence = /^\s{0,3}(`{3,}|~{3,})/;

/**
 * Finds the `@path` imports of an instructions file (`AGENTS.md`, `CLAUDE.md`): an `@` at the
 * start of a line or after whitespace, followed by a path that holds a `/` or a `.` (so
 * `@alice` or `@here` is not an import, `@AGENTS.md` and `@docs/style.md` are). A space in a
 * path is written `\ `. Trailing punctuation is not part of the path. Imports inside fenced code
 * blocks and inline code spans are ignored, and an e-mail address never matches.
 * @param text - the file's text.
 * @returns the imports in order of appearance.
 */
export function findInstructionImports(text: string): InstructionImport[] {
  if (typeof text !== 'string') throw argumentError('findInstructionImports', 'text', 'a string (the instructions file)', text);
  const found: InstructionImport[] = [];
  let inFence: string | undefined;
  let offset = 0;
  for (const line of text.split('\n')) {
    const opener = fence.exec(line)?.[1];
    if (inFence !== undefined) {
      if (opener !== undefined && opener[0] === inFence[0] && opener.length >= inFence.length) inFence = undefined;
    } else if (opener !== undefined) {
      inFence = opener;
    } else {
      for (const match of line.replace(/`[^`]*`/g, (span) => ' '.repeat(span.length)).matchAll(/(^|\s)@((?:[^\s\\]|\\ )+)/g)) {
        const path = match[2]!.replace(/\\ /g, ' ').replace(/[.,;:!?)\]}'"]+$/, '');
        if (path !== '' && /[./]/.test(path)) found.push({ path, index: offset + match.index! + match[1]!.length });
      }
    }
    offset += line.length + 1;
  }
  return found;
}
