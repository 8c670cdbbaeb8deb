import { parseShellCommand } from './shell/parse-shell-command.js';
import type { ShellRedirect, ShellSimpleCommand } from './shell/shell-syntax.js';

/** One simple command of a (possibly compound) shell command line. */
export interface ShellCommandSegment {
  /** The simple command's source text, trimmed, with runs of whitespace collapsed to one space. */
  text: string;
  /**
   * Whether it contains command substitution (`$(...)`, backticks, `<(...)`, `>(...)`) or a file
   * redirection (`>`, `>>`, `<`; not `2>&1`-style descriptor duplication): it may do more than its
   * first words say. A line that cannot be parsed is one opaque segment.
   */
  opaque: boolean;
}

const SUBSTITUTION = /\$\(|`|[<>]\(/;
const isDuplication = (redirect: ShellRedirect) => (redirect.operator === '>&' || redirect.operator === '<&') && /^(\d+|-)$/.test(redirect.target.value);

function isOpaque(command: ShellSimpleCommand): boolean {
  return (
    command.words.some((word) => word.hasExpansion && SUBSTITUTION.test(word.value)) ||
    command.redirects.some((redirect) => !isDuplication(redirect))
  );
}

/**
 * The simple commands of a shell command line, for rules to look at one by one: a view of
 * {@link parseShellCommand}'s tree (the one shell parser), in source order, including those
 * inside subshells, groups and compound commands. A line that cannot be parsed comes back as
 * one opaque segment, so no allow rule vouches for it.
 * @example
 * splitShellCommand('npm test && rm -rf dist').map((s) => s.text); // ['npm test', 'rm -rf dist']
 */
export function splitShellCommand(command: string): ShellCommandSegment[] {
  const parsed = parseShellCommand(command);
  if (parsed.error !== undefined) {
    const text = command.replace(/\s+/g, ' ').trim();
    return text === '' ? [] : [{ text, opaque: true }];
  }
  return parsed.commands.map((simple) => ({ text: simple.text, opaque: isOpaque(simple) }));
}
