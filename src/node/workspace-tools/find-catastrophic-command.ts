import path from 'node:path';
import { parseShellCommand, type ShellSimpleCommand } from './parse-shell-command.js';

const SYSTEM_DIRECTORIES = new Set([
  '/bin', '/boot', '/dev', '/etc', '/home', '/lib', '/lib32', '/lib64', '/opt', '/proc', '/root', '/run',
  '/sbin', '/srv', '/sys', '/usr', '/var', '/System', '/Users', '/Library', '/Applications', '/private', '/Volumes',
]);
const HOME = '/\u0000home';
const HARMLESS_DEVICES = /^\/dev\/(null|zero|full|random|urandom|stdin|stdout|stderr|tty|fd\/.*|pts\/.*)$/;
const WRAPPERS = new Set(['sudo', 'doas', 'env', 'nice', 'nohup', 'time', 'command', 'builtin', 'exec', 'xargs', 'timeout', 'stdbuf', 'ionice']);
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh']);
// Bounded repetitions and a lookbehind keep this linear on long commands.
const FORK_BOMB_DEFINITION = /(?<![\w:.-])([\w:.-]{1,64})\s{0,8}(?:\(\s{0,8}\))?\s{0,8}\{([^}]{0,200})\}/g;

/** `/`, `/*`, `~`, `$HOME`, or a top-level system directory, however spelled. */
function isCriticalPath(value: string): boolean {
  let target = value.replace(/^(~|\$HOME|\$\{HOME\})(?=\/|$)/, HOME);
  if (!target.startsWith('/')) return false;
  target = path.posix.normalize(target);
  while (target.length > 1 && (target.endsWith('/') || target.endsWith('/*') || target.endsWith('/.'))) {
    target = target.endsWith('/') ? target.slice(0, -1) : target.slice(0, -2) || '/';
  }
  return target === '/' || target === '/*' || target === HOME || SYSTEM_DIRECTORIES.has(target);
}

function isDiskDevice(value: string): boolean {
  return value.startsWith('/dev/') && !HARMLESS_DEVICES.test(value);
}

/** Drops `sudo`, `env VAR=x`, `nice -n 5` and the like in front of the real command. */
function unwrap(words: string[]): string[] {
  let rest = words;
  for (;;) {
    while (rest.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(rest[0]!)) rest = rest.slice(1);
    const head = rest[0];
    if (head === undefined || !WRAPPERS.has(head)) return rest;
    rest = rest.slice(1);
    while (rest.length > 0 && (rest[0]!.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(rest[0]!) || /^\d+[smhd]?$/.test(rest[0]!))) {
      const option = rest[0]!;
      rest = rest.slice(1);
      if (/^-[ugCDhprtUn]$/.test(option) && rest.length > 0) rest = rest.slice(1);
    }
  }
}

function isRecursiveFlag(arg: string): boolean {
  return arg === '--recursive' || (/^-[a-zA-Z]+$/.test(arg) && /[rR]/.test(arg));
}

function describeSimpleCommand(simple: ShellSimpleCommand, depth: number): string | undefined {
  for (const redirect of simple.redirects) {
    if (redirect.operator.includes('>') && isDiskDevice(redirect.target.value)) {
      return `writing to the device ${redirect.target.value} would destroy a disk`;
    }
  }
  const words = unwrap(simple.words.map((word) => word.value));
  const [name, ...args] = words;
  if (name === undefined) return undefined;
  const base = name.split('/').pop()!;
  if (SHELLS.has(base)) {
    const index = args.findIndex((arg) => /^-[a-z]*c[a-z]*$/.test(arg));
    const script = index === -1 ? undefined : args[index + 1];
    return script === undefined ? undefined : findCatastrophicCommandAt(script, depth + 1);
  }
  if (base === 'eval') return findCatastrophicCommandAt(args.join(' '), depth + 1);
  if (base === 'rm') {
    if (args.includes('--no-preserve-root')) return 'rm --no-preserve-root would delete the whole filesystem';
    const dashDash = args.indexOf('--');
    const flags = dashDash === -1 ? args : args.slice(0, dashDash);
    const targets = args.filter((arg, index) => (dashDash !== -1 && index > dashDash) || !arg.startsWith('-'));
    const critical = targets.find(isCriticalPath);
    if (flags.some(isRecursiveFlag) && critical) return `rm -r ${critical} would delete the system or home directory`;
    return undefined;
  }
  if (base === 'chmod' || base === 'chown' || base === 'chgrp') {
    const critical = args.filter((arg) => !arg.startsWith('-')).find(isCriticalPath);
    if (args.some(isRecursiveFlag) && critical) return `${base} -R on ${critical} would break the system's permissions`;
    return undefined;
  }
  if (/^mkfs(\..+)?$/.test(base) || base === 'mke2fs' || base === 'mkswap' || base === 'wipefs') {
    return `${base} formats or wipes a filesystem`;
  }
  if (base === 'dd') {
    const output = args.find((arg) => arg.startsWith('of='));
    if (output && isDiskDevice(output.slice(3))) return `dd ${output} would overwrite a disk`;
    return undefined;
  }
  if (base === 'shred' && args.some(isDiskDevice)) return 'shred on a device would destroy a disk';
  return undefined;
}

function findForkBomb(command: string): string | undefined {
  for (const match of command.matchAll(FORK_BOMB_DEFINITION)) {
    const name = match[1]!;
    const body = match[2]!.replace(/\s+/g, '');
    if (body.includes(`${name}|${name}`)) return `a fork bomb (${name} calls itself twice in a pipe)`;
  }
  return undefined;
}

function findCatastrophicCommandAt(command: string, depth: number): string | undefined {
  if (depth > 4) return undefined;
  const forkBomb = findForkBomb(command);
  if (forkBomb) return forkBomb;
  const parsed = parseShellCommand(command);
  for (const simple of parsed.commands) {
    const found = describeSimpleCommand(simple, depth);
    if (found) return found;
  }
  for (const inner of parsed.substitutions) {
    const found = findCatastrophicCommandAt(inner, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * Recognizes a small set of commands that are never run, in any permission mode: recursive
 * deletion or permission changes of `/`, `~` or a system directory, formatting a filesystem,
 * writing to a disk device, and fork bombs. Best effort (it looks inside `$(...)`, `sh -c` and
 * `eval`, and through `sudo`/`env`/`xargs`), not a sandbox: everything it misses that writes is
 * still not read-only and goes through the permission pipeline.
 * @returns what the command would do, or `undefined` when it is not recognized as catastrophic.
 * @example findCatastrophicCommand('sudo rm -rf /') // 'rm -r / would delete the system or home directory'
 */
export function findCatastrophicCommand(command: string): string | undefined {
  return findCatastrophicCommandAt(command, 0);
}
