/**
 * Why a sed script may write a file or run a command, or `undefined` when it cannot: the `w`
 * and `W` commands and the `s///w` flag write the file they name, `e` and `s///e` run a command
 * (GNU sed). A script this reader cannot follow counts as one that may.
 * @example sedScriptProblem('s/a/b/w out.txt') // 'the sed script writes a file (s///w)'
 */
export function sedScriptProblem(script: string): string | undefined {
  let index = 0;
  const at = () => script[index];
  const skipRegex = (delimiter: string): boolean => {
    // From after the opening delimiter to after the closing one; a backslash escapes one character.
    while (index < script.length) {
      const char = script[index++]!;
      if (char === '\\') index++;
      else if (char === delimiter) return true;
      else if (char === '\n') return false;
    }
    return false;
  };
  const toLineEnd = () => {
    while (index < script.length && script[index] !== '\n') index++;
  };
  while (index < script.length) {
    const char = at()!;
    if (/[\s;{}!]/.test(char)) {
      index++;
      continue;
    }
    if (char === '#') {
      toLineEnd();
      continue;
    }
    // An address: line numbers, `$`, `first~step`, `addr,+n`, `/regex/` or `\cregexc`, then flags I and M.
    if (/[0-9$,~+]/.test(char)) {
      index++;
      continue;
    }
    if (char === '/' || char === '\\') {
      const delimiter = char === '/' ? '/' : script[index + 1];
      index += char === '/' ? 1 : 2;
      if (delimiter === undefined || !skipRegex(delimiter)) return 'the sed script could not be read';
      while (at() === 'I' || at() === 'M') index++;
      continue;
    }
    index++;
    switch (char) {
      case 's':
      case 'y': {
        const delimiter = at();
        if (delimiter === undefined || delimiter === '\n' || delimiter === '\\') return 'the sed script could not be read';
        index++;
        if (!skipRegex(delimiter) || !skipRegex(delimiter)) return 'the sed script could not be read';
        if (char === 'y') break;
        const flags = /^[^;\n}]*/.exec(script.slice(index))![0];
        if (/^[gpiImM0-9]*w/.test(flags)) return 'the sed script writes a file (s///w)';
        if (/^[gpiImM0-9]*e/.test(flags)) return 'the sed script runs a command (s///e)';
        if (!/^[gpiImM0-9\s]*$/.test(flags)) return 'the sed script could not be read';
        index += flags.length;
        break;
      }
      case 'w':
      case 'W':
        return `the sed script writes a file (${char})`;
      case 'e':
        return 'the sed script runs a command (e)';
      case 'a':
      case 'i':
      case 'c':
      case 'r':
      case 'R':
      case ':':
      case 'b':
      case 't':
      case 'T':
      case 'l':
      case 'L':
      case 'q':
      case 'Q':
        // Text, a file read, a label or a number: the rest of the line (GNU one-liner forms), or up to `;` for labels.
        if (/[btT]/.test(char)) while (index < script.length && !/[;\n}]/.test(script[index]!)) index++;
        else toLineEnd();
        break;
      default:
        if (!/[=dDgGhHnNpPxzF]/.test(char)) return 'the sed script could not be read';
    }
  }
  return undefined;
}
