import os from 'node:os';
import path from 'node:path';
import { parseShellCommand, type ShellCommandNode, type ShellList, type ShellSimpleCommand, type ShellWord } from '../../permissions/shell/index.js';
import { decodeWord, type TargetContext } from './critical-target.js';
import { destructiveRule, isDiskDevice, type DestructiveScan } from './destructive-commands.js';
import { findInInterpreterCode, interpreterProgram } from './interpreter-code.js';
import { argumentError, isObjectValue } from '../../errors/argument-error.js';

/** Options of {@link findCatastrophicCommand}. */
export interface FindCatastrophicCommandOptions {
  /**
   * The directory the command starts in: relative targets (`rm -rf ../..`, `cd / && rm -rf *`)
   * are resolved against it. Without it, only absolute, home and expanded targets are judged.
   * @default undefined
   */
  cwd?: string;
  /**
   * The home directory, also critical under its real name.
   * @default os.homedir()
   */
  home?: string;
  /**
   * Workspace roots: nothing inside them counts as a system directory.
   * @default [cwd] when cwd is given, else []
   */
  workspace?: string[];
}

/** Commands that run the rest of their arguments as a command (options in between are skipped by scanning). */
const WRAPPERS = new Set([
  'sudo', 'doas', 'pkexec', 'env', 'nice', 'nohup', 'time', 'command', 'builtin', 'exec', 'xargs', 'timeout', 'stdbuf', 'ionice',
  'setsid', 'chroot', 'chrt', 'taskset', 'flock', 'unshare', 'nsenter', 'runuser', 'su', 'sg', 'watch', 'caffeinate', 'systemd-run',
  'busybox', 'strace', 'ltrace', 'valgrind', 'fakeroot', 'firejail', 'torsocks', 'proxychains', 'proxychains4', 'parallel', 'script',
  'catchsegv', 'numactl', 'cgexec', 'prlimit', 'faketime', 'unbuffer', 'rlwrap', 'xvfb-run', 'dbus-run-session', 'ssh-agent', 'sshpass',
]);
/** Wrappers that hand their non-option arguments to a shell as one script. */
const SCRIPT_WRAPPERS = new Set(['watch', 'su', 'runuser', 'script', 'sg']);
/** Reserved words and grouping that may precede a command. */
const RESERVED = new Set(['{', '}', '!', 'if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', '[[', 'coproc', 'time']);
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'yash', 'posh', 'rbash']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;
const MAX_DEPTH = 8;
const MAX_WRAPPER_CANDIDATES = 32;
/** Names worth looking for behind a wrapper or in text that did not parse. */
const DANGEROUS = /^(rm|mv|find|chmod|chown|chgrp|setfacl|chattr|dd|ddrescue|dcfldd|dc3dd|sg_dd|ddpt|tar|sort|curl|wget|zstd|cp|tee|install|rsync|shred|wipefs|blkdiscard|badblocks|mke2fs|mkswap|mkdosfs|mkntfs|mkexfatfs|mkfs(\..+)?|fdisk|sfdisk|sgdisk|gdisk|parted|kill|killall5|pkill|eval|source|sh|bash|zsh|dash|ksh|mksh|ash|fish|env|xargs|python[\d.]*|pypy[\d.]*|perl[\d.]*|ruby[\d.]*|node|nodejs|bun|deno|php[\d.]*|lua[\d.]*|awk|gawk|mawk)$/;
// Bounded repetitions and a lookbehind keep this linear on long commands.
const FORK_BOMB_DEFINITION = /(?<![\w:.-])([\w:.-]{1,64})\s{0,8}(?:\(\s{0,8}\))?\s{0,8}\{([^}]{0,200})\}/g;

const baseName = (name: string) => name.split('/').pop()!;


interface Scan {
  depth: number;
  context: TargetContext;
}

/** Words after assignments and reserved words: the command that actually runs. */
function commandWords(words: ShellWord[]): ShellWord[] {
  let start = 0;
  while (start < words.length && (RESERVED.has(words[start]!.value) || (ASSIGNMENT.test(words[start]!.value) && start < words.length - 1))) start++;
  return words.slice(start);
}

/** A shell's script: `-c SCRIPT`, or what it reads from stdin (a here-string/document, or `stdin` when piped). */
function describeShell(args: ShellWord[], simple: ShellSimpleCommand | undefined, stdin: string | undefined, scan: Scan): string | undefined {
  const index = args.findIndex((arg) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(arg.value));
  if (index !== -1) {
    const script = args[index + 1];
    return script === undefined ? undefined : scanText(decodeWord(script).value, scan);
  }
  const operands = args.filter((arg) => !arg.value.startsWith('-') || arg.value === '-');
  const readsStdin = operands.length === 0 || operands[0]!.value === '-' || operands[0]!.value === '/dev/stdin';
  if (!readsStdin) return undefined;
  return scanStdin(simple, stdin, scan, (text) => scanText(text, scan));
}

/** What a command reads on stdin: a here-string, a here-document, or the piped text. */
function scanStdin(simple: ShellSimpleCommand | undefined, stdin: string | undefined, scan: Scan, check: (text: string) => string | undefined): string | undefined {
  for (const redirect of simple?.redirects ?? []) {
    if (redirect.operator === '<<<') return check(decodeWord(redirect.target).value);
    if (redirect.body !== undefined) return check(redirect.body);
  }
  return stdin === undefined ? undefined : check(stdin);
}

/** `env -S 'cmd args'` / `--split-string=...`: the string is split into a command line. */
function describeEnvSplit(args: ShellWord[], scan: Scan): string | undefined {
  const index = args.findIndex((arg) => /^(-[a-zA-Z]*S|--s)/.test(arg.value));
  if (index === -1) return undefined;
  const arg = args[index]!.value;
  const attached = arg.startsWith('--') ? arg.split('=').slice(1).join('=') : arg.slice(arg.indexOf('S') + 1);
  const script = attached !== '' ? attached : (args[index + 1]?.value ?? '');
  const rest = args.slice(index + (attached !== '' ? 1 : 2)).map((word) => word.value);
  return scanText([script, ...rest].join(' '), scan);
}

interface Stdin {
  /** The text piped in, when the left side is an `echo`/`printf`. */
  text: string | undefined;
  /** Paths the left side prints (an `echo`'s words, a `find`'s start points), for xargs. */
  targets: ShellWord[] | undefined;
}

/** `viaXargs`: the command gets what its stdin says as extra arguments (xargs, parallel). */
function describeWords(all: ShellWord[], scan: Scan, simple?: ShellSimpleCommand, stdin?: Stdin, viaXargs = false): string | undefined {
  const words = commandWords(all.map(decodeWord));
  const [nameWord, ...args] = words;
  if (nameWord === undefined || scan.depth > MAX_DEPTH) return undefined;
  const base = baseName(nameWord.value);
  const inner: Scan = { ...scan, depth: scan.depth + 1 };
  if (WRAPPERS.has(base)) {
    const split = base === 'env' ? describeEnvSplit(args, inner) : undefined;
    if (split) return split;
    let candidates = 0;
    for (let index = 0; index < args.length; index++) {
      const candidate = baseName(args[index]!.value);
      if (!DANGEROUS.test(candidate) && !WRAPPERS.has(candidate)) continue;
      if (++candidates > MAX_WRAPPER_CANDIDATES) return `${base} wraps too many commands to check`;
      const found = describeWords(args.slice(index), inner, simple, stdin, viaXargs || base === 'xargs' || base === 'parallel');
      if (found) return found;
    }
    if (SCRIPT_WRAPPERS.has(base)) return scanText(args.filter((arg) => !arg.value.startsWith('-')).map((arg) => arg.value).join(' '), inner);
    return undefined;
  }
  if (SHELLS.has(base)) return describeShell(args, simple, stdin?.text, inner);
  if (base === 'eval') return scanText(args.map((arg) => arg.value).join(' '), inner);
  const program = interpreterProgram(base, args);
  if (program !== null) {
    const code = program ?? scanStdin(simple, stdin?.text, inner, (text) => text);
    return code === undefined ? undefined : findInInterpreterCode(code, (text) => scanText(text, inner));
  }
  const rule = destructiveRule(base);
  if (rule === undefined) return undefined;
  const destructive: DestructiveScan = {
    args,
    context: scan.context,
    stdinTargets: viaXargs ? stdin?.targets : undefined,
    nested: (nested, stdinTargets) => describeWords(nested, inner, undefined, stdinTargets ? { text: undefined, targets: stdinTargets } : undefined),
  };
  return rule(destructive);
}

/** What the left side of a pipe gives the right side: an `echo`'s text and words, a `find`'s start points. */
function pipedFrom(node: ShellCommandNode | undefined): Stdin | undefined {
  if (node?.type !== 'simple') return undefined;
  const [name, ...args] = commandWords(node.command.words.map(decodeWord));
  if (name?.value === 'echo' || name?.value === 'printf') {
    const shown = args.filter((arg) => !/^-[neE]+$/.test(arg.value));
    // printf's escapes for newline and NUL (`xargs -0` splits at NUL) become separators.
    const separators = (value: string) => value.replace(/\\n|\\0+|\\x0+\b|\\u0000/g, '\n');
    const text = separators(shown.map((arg) => arg.value).join(' '));
    // xargs splits what it reads at blanks and newlines (or NULs).
    const targets = shown.flatMap((arg) => separators(arg.value).split(/[\s\0]+/).filter(Boolean).map((value) => ({ ...arg, value })));
    return { text, targets };
  }
  // `cat <<EOF | xargs …`: cat passes its here-document (or here-string) on as it is.
  if (name?.value === 'cat' && args.every((arg) => arg.value === '-')) return ownStdin(node.command);
  // find prints whole paths (ls prints names relative to its argument, which xargs then takes relative to its own directory).
  if (name?.value === 'find') {
    return { text: undefined, targets: args.filter((arg) => !arg.value.startsWith('-')).flatMap((arg) => [arg, { ...arg, value: `${arg.value.replace(/\/$/, '')}/*`, hasGlob: true }]) };
  }
  return undefined;
}

/**
 * What a command's own here-string or here-document gives it on stdin (bash lets it override a
 * pipe), split as xargs splits it: `xargs rm -rf <<< /` is `rm -rf /`. A here-document that
 * expands `$…` or a backquote has targets known only at run time.
 */
function ownStdin(simple: ShellSimpleCommand): Stdin | undefined {
  for (const redirect of simple.redirects) {
    const word =
      redirect.operator === '<<<'
        ? decodeWord(redirect.target)
        : redirect.body !== undefined
          ? { ...redirect.target, value: redirect.body, hasExpansion: /[$`]/.test(redirect.body), hasGlob: false }
          : undefined;
    if (word === undefined) continue;
    return { text: word.value, targets: word.value.split(/[\s\0]+/).filter(Boolean).map((value) => ({ ...word, value })) };
  }
  return undefined;
}

/** Counts the calls of a function in its own body; two (or one in the background or a pipe) make a fork bomb. */
function selfCalls(name: string, list: ShellList): number {
  let calls = 0;
  const visit = (node: ShellCommandNode, multiplied: boolean) => {
    if (node.type === 'simple') {
      if (commandWords(node.command.words)[0]?.value === name) calls += multiplied ? 2 : 1;
    } else if (node.type === 'keyword') {
      if (node.body) visit(node.body, multiplied);
    } else if (node.type === 'subshell' || node.type === 'group') {
      visitList(node.body);
    } else if (node.type === 'case') {
      for (const item of node.items) visitList(item.body);
    }
  };
  const visitList = (items: ShellList) => {
    for (const item of items) {
      for (const pipeline of item.andOr.pipelines) for (const command of pipeline.commands) visit(command, item.background || pipeline.commands.length > 1);
    }
  };
  visitList(list);
  return calls;
}

function findForkBomb(tree: ShellList, text: string): string | undefined {
  const functions: Array<{ name: string; body: ShellCommandNode }> = [];
  const collect = (items: ShellList) => {
    for (const item of items) {
      for (const pipeline of item.andOr.pipelines) {
        for (const node of pipeline.commands) {
          if (node.type === 'function') functions.push(node);
          if (node.type === 'function' || node.type === 'subshell' || node.type === 'group') collect(node.type === 'function' ? [{ andOr: { pipelines: [{ negated: false, commands: [node.body] }], operators: [] }, background: false }] : node.body);
        }
      }
    }
  };
  collect(tree);
  for (const { name, body } of functions) {
    if (selfCalls(name, [{ andOr: { pipelines: [{ negated: false, commands: [body] }], operators: [] }, background: false }]) >= 2) return `a fork bomb (${name} calls itself more than once)`;
  }
  for (const match of text.matchAll(FORK_BOMB_DEFINITION)) {
    const name = match[1]!;
    const body = match[2]!.replace(/\s+/g, '');
    if (body.includes(`${name}|${name}`) || body.includes(`${name}&${name}`)) return `a fork bomb (${name} calls itself twice)`;
  }
  return undefined;
}

/** The directories a `cd`/`pushd` may lead to (over-approximated: every `cd` of the line counts). */
function changeDirectory(args: ShellWord[], context: TargetContext, home: string | undefined): Array<string | undefined> {
  const target = args.find((arg) => !arg.value.startsWith('-') || arg.value === '-');
  if (target === undefined || target.value === '~' || target.value === '') return [home];
  if (target.hasExpansion || target.hasGlob || target.value === '-') return [undefined];
  if (target.tilde) return [target.value.startsWith('~/') && home ? path.posix.join(home, target.value.slice(2)) : undefined];
  return context.directories.map((directory) => (target.value.startsWith('/') ? path.posix.normalize(target.value) : directory === undefined ? undefined : path.posix.join(directory, target.value)));
}

function walk(tree: ShellList, commands: ShellSimpleCommand[], scan: Scan, home: string | undefined): string | undefined {
  const stdinOf = new Map<ShellSimpleCommand, Stdin | undefined>();
  const visit = (items: ShellList) => {
    for (const item of items) {
      for (const pipeline of item.andOr.pipelines) {
        pipeline.commands.forEach((node, index) => {
          if (node.type === 'simple' && index > 0) stdinOf.set(node.command, pipedFrom(pipeline.commands[index - 1]));
          if (node.type === 'subshell' || node.type === 'group') visit(node.body);
          if (node.type === 'case') for (const caseItem of node.items) visit(caseItem.body);
        });
      }
    }
  };
  visit(tree);
  for (const simple of commands) {
    for (const redirect of simple.redirects) {
      if (redirect.operator.includes('>') && (isDiskDevice(redirect.target.value) || /^\/proc\/[^/]+\/root\/dev\//.test(redirect.target.value))) {
        return `writing to the device ${redirect.target.value} would destroy a disk`;
      }
    }
    const words = commandWords(simple.words.map(decodeWord));
    const name = words[0]?.value;
    if (name === 'cd' || name === 'pushd') {
      const next = changeDirectory(words.slice(1), scan.context, home);
      scan.context = { ...scan.context, directories: [...new Set([...scan.context.directories, ...next])] };
      continue;
    }
    const found = describeWords(simple.words, scan, simple, ownStdin(simple) ?? stdinOf.get(simple));
    if (found) return found;
  }
  return undefined;
}

function scanText(command: string, scan: Scan): string | undefined {
  if (scan.depth > MAX_DEPTH) return undefined;
  const parsed = parseShellCommand(command);
  const forkBomb = findForkBomb(parsed.tree, command);
  if (forkBomb) return forkBomb;
  const found = walk(parsed.tree, parsed.commands, scan, scan.context.home);
  if (found) return found;
  for (const inner of parsed.substitutions) {
    const nested = scanText(inner, { ...scan, depth: scan.depth + 1 });
    if (nested) return nested;
  }
  if (parsed.error === undefined) return undefined;
  // Not parsed to the end: fail closed when a command that can destroy appears at all.
  const dangerous = command.split(/[\s;&|()`$'"{}!<>]+/).find((word) => DANGEROUS.test(baseName(word)));
  return dangerous ? `the command could not be parsed reliably (${parsed.error}) and runs ${dangerous}` : undefined;
}

/**
 * The catastrophic-command classifier: recognizes commands that are never run, in any
 * permission mode (also `bypassPermissions`, whatever a hook or `canUseTool` says): recursive
 * deletion, move or permission change of `/`, a home directory or a system directory (`/usr`,
 * `/usr/lib`, `/proc/self/root`, …; also relative ones such as `cd / && rm -rf *`, and globs,
 * brace lists, `$'...'` or variables that could be one); writing to a disk device (`dd of=`,
 * `cp … /dev/sda`, `> /dev/nvme0n1`, `tee`), creating a filesystem on or wiping one (`mkfs*`,
 * `mkswap`, `wipefs`, `blkdiscard`, partition tools), `rsync --delete` into a critical
 * directory, `kill -1`, and fork bombs. It sees through reserved words and compound commands,
 * wrappers (`sudo`, `env -S`, `timeout`, `strace`, `xargs`, `find -exec`, …), functions,
 * `$(...)`, `sh -c`, shells fed by a here-string, a here-document or a pipe, `eval`, and
 * one-liners of scripting languages (`python3 -c`, `perl -e`, `node -e`, `ruby -e`, awk); a
 * command that does not parse and names a dangerous program is refused. Best effort, not a
 * sandbox: what it misses and writes is still not read-only and goes through the permission pipeline.
 * @returns what the command would do, or `undefined` when it is not recognized as catastrophic.
 * @example findCatastrophicCommand('sudo rm -rf /') // 'rm -r / would delete the system or a home directory'
 */
export function findCatastrophicCommand(command: string, options: FindCatastrophicCommandOptions = {}): string | undefined {
  if (typeof command !== 'string') throw argumentError('findCatastrophicCommand', 'command', 'a shell command (a string)', command);
  if (!isObjectValue(options)) throw argumentError('findCatastrophicCommand', 'options', 'an options object ({ cwd, home, workspace }) or nothing', options);
  const home = options.home ?? os.homedir();
  const workspace = options.workspace ?? (options.cwd === undefined ? [] : [options.cwd]);
  return scanText(command, { depth: 0, context: { directories: [options.cwd], home, workspace } });
}
