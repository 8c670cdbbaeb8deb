import { decodeWord, isCriticalTarget, targetLabel } from './critical-target.js';
import { parseShellCommand, type ParsedShellCommand, type ShellSimpleCommand, type ShellWord } from './parse-shell-command.js';

const HARMLESS_DEVICES = /^\/dev\/(null|zero|full|random|urandom|stdin|stdout|stderr|tty|fd\/.*|pts\/.*)$/;
/** Commands that run the rest of their arguments as a command (options in between are skipped by scanning). */
const WRAPPERS = new Set([
  'sudo', 'doas', 'env', 'nice', 'nohup', 'time', 'command', 'builtin', 'exec', 'xargs', 'timeout', 'stdbuf', 'ionice',
  'setsid', 'chroot', 'chrt', 'taskset', 'flock', 'unshare', 'nsenter', 'runuser', 'su', 'watch', 'caffeinate', 'systemd-run', 'busybox',
]);
/** Reserved words and grouping that may precede a command: `{ rm; }`, `! rm`, `if x; then rm; fi`. */
const RESERVED = new Set(['{', '}', '!', 'if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', '[[', '((', 'coproc']);
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'busybox']);
/** Names a wrapper scan looks for; anything else after a wrapper cannot be catastrophic here. */
const DANGEROUS = /^(rm|find|chmod|chown|chgrp|dd|shred|wipefs|mke2fs|mkswap|mkfs(\..+)?|eval|sh|bash|zsh|dash|ksh|mksh|ash|fish|env)$/;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;
const MAX_DEPTH = 6;
const MAX_WRAPPER_CANDIDATES = 32;
// Bounded repetitions and a lookbehind keep this linear on long commands.
const FORK_BOMB_DEFINITION = /(?<![\w:.-])([\w:.-]{1,64})\s{0,8}(?:\(\s{0,8}\))?\s{0,8}\{([^}]{0,200})\}/g;
const FIND_WRITERS = new Set(['-delete', '-exec', '-execdir', '-ok', '-okdir']);

function isDiskDevice(value: string): boolean {
  return value.startsWith('/dev/') && !HARMLESS_DEVICES.test(value);
}

/** `-r`, `-Rf`, `--recursive` or a GNU abbreviation of it (`--recu`). */
function isRecursiveFlag(arg: string): boolean {
  if (arg.startsWith('--')) return arg.length > 2 && 'recursive'.startsWith(arg.slice(2).split('=')[0]!);
  return /^-[a-zA-Z]+$/.test(arg) && /[rR]/.test(arg);
}

const baseName = (name: string) => name.split('/').pop()!;

/** Words after assignments and reserved words: the command that actually runs. */
function commandWords(words: ShellWord[]): ShellWord[] {
  let start = 0;
  while (start < words.length && (RESERVED.has(words[start]!.value) || (ASSIGNMENT.test(words[start]!.value) && start < words.length - 1))) start++;
  return words.slice(start);
}

function describeRm(args: ShellWord[]): string | undefined {
  const values = args.map((arg) => arg.value);
  if (values.some((value) => value.length > 4 && '--no-preserve-root'.startsWith(value))) return 'rm --no-preserve-root would delete the whole filesystem';
  const dashDash = values.indexOf('--');
  const flags = dashDash === -1 ? values : values.slice(0, dashDash);
  const targets = args.filter((arg, index) => (dashDash !== -1 && index > dashDash) || !arg.value.startsWith('-'));
  const critical = targets.find(isCriticalTarget);
  return flags.some(isRecursiveFlag) && critical ? `rm -r ${targetLabel(critical)} would delete the system or home directory` : undefined;
}

function describeFind(args: ShellWord[], depth: number): string | undefined {
  let index = 0;
  while (index < args.length && /^-[HLPO]|^-D$/.test(args[index]!.value)) index += args[index]!.value === '-D' ? 2 : 1;
  const starts: ShellWord[] = [];
  while (index < args.length && !/^[-(!]/.test(args[index]!.value)) starts.push(args[index++]!);
  const critical = starts.find(isCriticalTarget);
  if (!critical) return undefined;
  const expression = args.slice(index);
  const writer = expression.findIndex((arg) => FIND_WRITERS.has(arg.value));
  if (writer === -1) return undefined;
  const action = expression[writer]!.value;
  if (action === '-delete') return `find ${targetLabel(critical)} -delete would delete the system or home directory`;
  const run = expression.slice(writer + 1).map((arg) => (arg.value === '{}' ? { ...arg, value: critical.value } : arg));
  const end = run.findIndex((arg) => arg.value === ';' || arg.value === '+');
  const found = describeWords(end === -1 ? run : run.slice(0, end), depth + 1);
  return found ?? (/^(rm|shred|unlink|chmod|chown|chgrp|mv|dd)$/.test(baseName(run[0]?.value ?? '')) ? `find ${targetLabel(critical)} ${action} ${run[0]!.value} would change the system or home directory` : undefined);
}

/** A shell's script: `-c SCRIPT`, or what it reads from stdin (a here-string/document, or `stdin` when piped). */
function describeShell(simple: ShellSimpleCommand | undefined, args: ShellWord[], stdin: string | undefined, depth: number): string | undefined {
  const index = args.findIndex((arg) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(arg.value));
  if (index !== -1) {
    const script = args[index + 1];
    return script === undefined ? undefined : findAt(decodeWord(script).value, depth + 1);
  }
  const operands = args.filter((arg) => !arg.value.startsWith('-') || arg.value === '-');
  const readsStdin = operands.length === 0 || operands[0]!.value === '-' || operands[0]!.value === '/dev/stdin';
  if (!readsStdin) return undefined;
  for (const redirect of simple?.redirects ?? []) {
    if (redirect.operator === '<<<') return findAt(decodeWord(redirect.target).value, depth + 1);
    if (redirect.body !== undefined) return findAt(redirect.body, depth + 1);
  }
  return stdin === undefined ? undefined : findAt(stdin, depth + 1);
}

/** `env -S 'cmd args'` / `--split-string=...`: the string is split into a command line. */
function describeEnvSplit(args: ShellWord[], depth: number): string | undefined {
  const index = args.findIndex((arg) => /^(-[a-zA-Z]*S|--s)/.test(arg.value));
  if (index === -1) return undefined;
  const arg = args[index]!.value;
  const attached = arg.startsWith('--') ? arg.split('=').slice(1).join('=') : arg.slice(arg.indexOf('S') + 1);
  const script = attached !== '' ? attached : (args[index + 1]?.value ?? '');
  const rest = args.slice(index + (attached !== '' ? 1 : 2)).map((word) => word.value);
  return findAt([script, ...rest].join(' '), depth + 1);
}

function describeWords(all: ShellWord[], depth: number, simple?: ShellSimpleCommand, stdin?: string): string | undefined {
  const words = commandWords(all.map(decodeWord));
  const [nameWord, ...args] = words;
  if (nameWord === undefined || depth > MAX_DEPTH) return undefined;
  const base = baseName(nameWord.value);
  const values = args.map((arg) => arg.value);
  if (WRAPPERS.has(base)) {
    const split = base === 'env' ? describeEnvSplit(args, depth) : undefined;
    if (split) return split;
    let candidates = 0;
    for (let index = 0; index < args.length; index++) {
      if (!DANGEROUS.test(baseName(args[index]!.value)) && !WRAPPERS.has(baseName(args[index]!.value))) continue;
      if (++candidates > MAX_WRAPPER_CANDIDATES) return `${base} wraps too many commands to check`;
      const found = describeWords(args.slice(index), depth + 1, simple, stdin);
      if (found) return found;
    }
    // `watch` and `su -c` run their argument through a shell.
    if (base === 'watch' || base === 'su' || base === 'runuser') return findAt(values.filter((value) => !value.startsWith('-')).join(' '), depth + 1);
    return undefined;
  }
  if (SHELLS.has(base)) return describeShell(simple, args, stdin, depth);
  if (base === 'eval') return findAt(values.join(' '), depth + 1);
  if (base === 'rm') return describeRm(args);
  if (base === 'find') return describeFind(args, depth);
  if (base === 'chmod' || base === 'chown' || base === 'chgrp') {
    const critical = args.filter((arg) => !arg.value.startsWith('-')).find(isCriticalTarget);
    return values.some(isRecursiveFlag) && critical ? `${base} -R on ${targetLabel(critical)} would break the system's permissions` : undefined;
  }
  if (/^mkfs(\..+)?$/.test(base) || base === 'mke2fs' || base === 'mkswap' || base === 'wipefs') return `${base} formats or wipes a filesystem`;
  if (base === 'dd') {
    const output = values.find((arg) => arg.startsWith('of='));
    return output && isDiskDevice(output.slice(3)) ? `dd ${output} would overwrite a disk` : undefined;
  }
  if (base === 'shred' && values.some(isDiskDevice)) return 'shred on a device would destroy a disk';
  return undefined;
}

/** What an `echo`/`printf` at the left of a pipe writes, when it can be known. */
function pipedText(simple: ShellSimpleCommand): string | undefined {
  const [name, ...args] = commandWords(simple.words.map(decodeWord));
  if (name?.value !== 'echo' && name?.value !== 'printf') return undefined;
  const text = args.filter((arg) => !/^-[neE]+$/.test(arg.value)).map((arg) => arg.value).join(' ');
  return text.replace(/\\n/g, '\n');
}

function findForkBomb(command: string): string | undefined {
  for (const match of command.matchAll(FORK_BOMB_DEFINITION)) {
    const name = match[1]!;
    const body = match[2]!.replace(/\s+/g, '');
    if (body.includes(`${name}|${name}`)) return `a fork bomb (${name} calls itself twice in a pipe)`;
  }
  return undefined;
}

function describeParsed(parsed: ParsedShellCommand, depth: number): string | undefined {
  for (const [index, simple] of parsed.commands.entries()) {
    for (const redirect of simple.redirects) {
      if (redirect.operator.includes('>') && isDiskDevice(redirect.target.value)) return `writing to the device ${redirect.target.value} would destroy a disk`;
    }
    const piped = index > 0 && (parsed.operators[index - 1] === '|' || parsed.operators[index - 1] === '|&');
    const found = describeWords(simple.words, depth, simple, piped ? pipedText(parsed.commands[index - 1]!) : undefined);
    if (found) return found;
  }
  for (const inner of parsed.substitutions) {
    const found = findAt(inner, depth + 1);
    if (found) return found;
  }
  return undefined;
}

function findAt(command: string, depth: number): string | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const forkBomb = findForkBomb(command);
  if (forkBomb) return forkBomb;
  const parsed = parseShellCommand(command);
  const found = describeParsed(parsed, depth);
  if (found || !parsed.error) return found;
  // Not parsed to the end: fail closed when a command that can destroy appears at all.
  const dangerous = command.split(/[\s;&|()`$'"{}!]+/).find((word) => DANGEROUS.test(baseName(word)));
  return dangerous ? `the command could not be parsed reliably (${parsed.error}) and runs ${dangerous}` : undefined;
}

/**
 * Recognizes a small set of commands that are never run, in any permission mode: recursive
 * deletion (`rm -r`, `find -delete`/`-exec rm`) or permission changes of `/`, `~` (any `~user`),
 * `$HOME` or a system directory — also when the target is a glob, a brace list, `$'...'` or a
 * variable that could be one of them — formatting a filesystem, writing to a disk device, and
 * fork bombs. It looks through reserved words (`{`, `!`, `if … then`), wrappers (`sudo`, `env -S`,
 * `timeout`, `setsid`, `chroot`, …), `$(...)`, `sh -c`, shells fed by a here-string, a
 * here-document or a piped `echo`, and `eval`; a command that does not parse and names a
 * dangerous program is refused. Best effort, not a sandbox: everything it misses that writes is
 * still not read-only and goes through the permission pipeline.
 * @returns what the command would do, or `undefined` when it is not recognized as catastrophic.
 * @example findCatastrophicCommand('sudo rm -rf /') // 'rm -r / would delete the system or home directory'
 */
export function findCatastrophicCommand(command: string): string | undefined {
  return findAt(command, 0);
}
