/** One simple command of a (possibly compound) shell command line. */
export interface ShellCommandSegment {
  /** The simple command, trimmed, with runs of whitespace collapsed to one space. */
  text: string;
  /**
   * Whether it contains command substitution (`$(...)`, backticks, `<(...)`, `>(...)`) or a file
   * redirection (`>`, `>>`, `<`; not `2>&1`-style descriptor duplication): it may do more than its
   * first words say.
   */
  opaque: boolean;
}

/**
 * Splits a shell command line at its unquoted control operators (`&&`, `||`, `;`, `|`, `|&`, `&`,
 * newlines) so that rules can look at each simple command. Quotes (`'...'`, `"..."`) and
 * backslash escapes are honoured; this is a lexical split for rule matching, not a shell parser.
 * @example
 * splitShellCommand('npm test && rm -rf dist').map((s) => s.text); // ['npm test', 'rm -rf dist']
 */
export function splitShellCommand(command: string): ShellCommandSegment[] {
  const segments: ShellCommandSegment[] = [];
  let current = '';
  let opaque = false;
  let quote: '"' | "'" | undefined;
  const flush = () => {
    const text = current.replace(/\s+/g, ' ').trim();
    if (text !== '') segments.push({ text, opaque });
    current = '';
    opaque = false;
  };
  for (let index = 0; index < command.length; index += 1) {
    const char = command[index]!;
    const next = command[index + 1];
    if (quote === "'") {
      if (char === "'") quote = undefined;
      current += char;
      continue;
    }
    if (char === '\\' && next !== undefined) {
      current += char + next;
      index += 1;
      continue;
    }
    if (char === '`' || (char === '$' && next === '(')) opaque = true;
    if (quote === '"') {
      if (char === '"') quote = undefined;
      current += char;
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      current += char;
      continue;
    }
    if ((char === '<' || char === '>') && next === '(') opaque = true;
    if (char === '>' || char === '<') {
      // `2>&1`, `>&2`: descriptor duplication, harmless. Anything else reads or writes a file.
      if (next === '&' && /[\d-]/.test(command[index + 2] ?? '')) {
        current += char + next;
        index += 1;
        continue;
      }
      opaque = true;
      current += char;
      continue;
    }
    if (char === '&' && next === '>') {
      opaque = true;
      current += char;
      continue;
    }
    if (char === ';' || char === '\n' || char === '\r') {
      flush();
      continue;
    }
    if (char === '&' || char === '|') {
      if (next === char || (char === '|' && next === '&')) index += 1;
      flush();
      continue;
    }
    current += char;
  }
  flush();
  return segments;
}
