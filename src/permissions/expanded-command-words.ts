import { compileGlob, expandBraces } from './compile-glob.js';
import { parseShellCommand } from './shell/parse-shell-command.js';
import type { ShellWord } from './shell/shell-syntax.js';

/** A word that assigns a variable (`NAME=value`, `NAME+=value`) before the command. */
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;

/**
 * Commands that run a command named by a later word (`sudo cmd`, `xargs cmd`, `find -exec cmd`),
 * or a script made of their arguments (`sh -c cmd`, `eval cmd`): there, any word may be a command.
 */
export const RUNS_ITS_ARGUMENTS: ReadonlySet<string> = new Set([
  'sudo', 'doas', 'pkexec', 'su', 'runuser', 'sg', 'env', 'nice', 'nohup', 'time', 'command', 'builtin', 'exec', 'xargs', 'parallel',
  'timeout', 'stdbuf', 'ionice', 'taskset', 'chrt', 'numactl', 'setsid', 'unshare', 'nsenter', 'chroot', 'flock', 'strace', 'ltrace',
  'watch', 'script', 'unbuffer', 'fakeroot', 'firejail', 'find', 'eval', 'source', '.', 'trap', 'sh', 'bash', 'zsh', 'dash', 'ksh',
  'mksh', 'ash', 'fish', 'yash', 'posh', 'rbash', 'busybox',
]);

const GLOB_PATTERN = /[*?[]/;

/** Programs that, given no script (no operand, no code option), read the commands they run from their input. */
const SCRIPT_READERS: Record<string, RegExp> = Object.fromEntries([
  ...['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash', 'posh', 'rbash', 'fish'].map((name) => [name, /^-[a-zA-Z]*c[a-zA-Z]*$/] as const),
  ...['python', 'python2', 'python3'].map((name) => [name, /^-[a-zA-Z]*[cm][a-zA-Z]*$/] as const),
  ['node', /^(-[a-zA-Z]*[ep][a-zA-Z]*|--eval|--print)$/],
  ['perl', /^-[a-zA-Z]*[eE][a-zA-Z]*$/],
  ['ruby', /^-[a-zA-Z]*e[a-zA-Z]*$/],
  ['php', /^-[a-zA-Z]*[rf][a-zA-Z]*$/],
]);
const MAX_DEPTH = 4;

/** A simple command's words as bash hands them to the program, and the patterns among them bash expands against file names. */
export interface ExpandedCommand {
  /** Quotes, escapes and line continuations removed, `{a,b}` expanded into separate words, leading assignments dropped, the command's path reduced to its name. */
  words: string[];
  /** Words that are file-name patterns (`cur?`, `/usr/bin/c*`): what they become is known only at run time; only those in a place where a word may be a command. */
  commandPatterns: string[];
  /** A shell or interpreter here reads the commands it runs from its input (`… | sh`, `python3 < x`), so nobody can tell them in advance. */
  readsCommandsFromInput: boolean;
}

/** Whether a shell or interpreter among the words (also behind `sudo`, `env` …) runs no script it is given, so reads one from its input. */
function readsFromInput(words: readonly string[]): boolean {
  const index = words.findIndex((word, position) => Object.hasOwn(SCRIPT_READERS, baseName(word)) && (position === 0 || RUNS_ITS_ARGUMENTS.has(words[0]!)));
  if (index === -1) return false;
  const code = SCRIPT_READERS[baseName(words[index]!)]!;
  const rest = words.slice(index + 1);
  return !rest.some((word) => code.test(word) || !word.startsWith('-'));
}

/** A word's expansions: `{a,b}` groups become separate words; a group that expands too far stays as written. */
function braceExpanded(word: ShellWord): string[] {
  if (!word.hasGlob || !word.value.includes('{')) return [word.value];
  try {
    return expandBraces(word.value);
  } catch {
    return [word.value];
  }
}

const baseName = (word: string) => word.slice(word.lastIndexOf('/') + 1);

function expand(words: readonly ShellWord[]): ExpandedCommand {
  const out: string[] = [];
  const patterns: string[] = [];
  let start = 0;
  while (start < words.length && ASSIGNMENT.test(words[start]!.value) && !words[start]!.hasExpansion) start++;
  for (const word of words.slice(start)) {
    for (const value of braceExpanded(word)) {
      const first = out.length === 0;
      out.push(first ? baseName(value) : value);
      const commandPlace = first || RUNS_ITS_ARGUMENTS.has(out[0]!) || patterns.length > 0;
      if (word.hasGlob && GLOB_PATTERN.test(value) && commandPlace) patterns.push(baseName(value));
    }
  }
  return { words: out, commandPatterns: patterns, readsCommandsFromInput: readsFromInput(out) };
}

/**
 * The simple commands of a line and of the substitutions in it, as bash will run them: each
 * word after quote removal, escapes and line continuations (`cu\⏎rl` is `curl`) and brace
 * expansion (`{curl,http://x}` is `curl http://x`). Deny and ask rules are matched against these,
 * so a spelling bash reads as the denied command is the denied command.
 */
export function expandedCommands(command: string): readonly ExpandedCommand[] {
  // Asked once per rule of a list about the same line: read it once.
  if (lastLine?.command !== command) lastLine = { command, expanded: expandLine(command, 0) };
  return lastLine.expanded;
}

let lastLine: { command: string; expanded: ExpandedCommand[] } | undefined;

function expandLine(command: string, depth: number): ExpandedCommand[] {
  const parsed = parseShellCommand(command);
  if (parsed.error !== undefined) return [];
  const own = parsed.commands.map((simple) => expand(simple.words));
  if (depth >= MAX_DEPTH) return own;
  const nested = [...parsed.substitutions, ...own.flatMap((simple) => splitStrings(simple.words))];
  return [...own, ...nested.flatMap((inner) => expandLine(inner, depth + 1))];
}

/** The strings `env -S` splits into the command it runs (`env -S'git push'`, `env -iS 'x'`, `--split-string=x`), also behind other wrappers. */
function splitStrings(words: readonly string[]): string[] {
  const at = words.findIndex((word, index) => word === 'env' && (index === 0 || RUNS_ITS_ARGUMENTS.has(words[0]!)));
  if (at === -1) return [];
  const strings: string[] = [];
  for (let index = at + 1; index < words.length; index++) {
    const word = words[index]!;
    if (word === '--split-string' || /^-[a-zA-Z]*S$/.test(word)) strings.push(words[index + 1] ?? '');
    else if (word.startsWith('--split-string=')) strings.push(word.slice('--split-string='.length));
    else if (/^-[a-zA-Z]*S./.test(word)) strings.push(word.slice(word.indexOf('S') + 1));
  }
  return strings;
}

/**
 * Whether a file-name pattern where a command may stand (`cur[l]`, `/usr/bin/cur?`, the word
 * after `sudo`) could expand to `name`: then no rule on `name` can be checked before it runs.
 */
export function patternMaySpell(pattern: string, name: string): boolean {
  try {
    return compileGlob(pattern, { braces: false }).test(name);
  } catch {
    return true;
  }
}
