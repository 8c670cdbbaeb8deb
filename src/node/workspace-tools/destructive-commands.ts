import path from 'node:path';
import type { ShellWord } from '../../permissions/shell/index.js';
import { isCriticalTarget, targetLabel, type TargetContext } from './critical-target.js';

/** What a destructive-command rule sees: the arguments, where it runs, and how to look inside a nested command. */
export interface DestructiveScan {
  args: ShellWord[];
  context: TargetContext;
  /** Looks at a nested command given as words (find -exec, xargs). */
  nested: (words: ShellWord[], stdinTargets?: ShellWord[]) => string | undefined;
  /** Words the command may get on stdin as arguments (xargs), when known. */
  stdinTargets: ShellWord[] | undefined;
}

const HARMLESS_DEVICES = /^\/dev\/(null|zero|full|random|urandom|stdin|stdout|stderr|tty|ptmx|console|fd\/.*|pts\/.*|shm\/.*|mqueue\/.*)$/;
const FIND_WRITERS = new Set(['-delete', '-exec', '-execdir', '-ok', '-okdir']);
/** find tests that narrow what is matched (so `find ~ -name '*.pyc' -delete` is housekeeping, not a wipe). */
const FIND_NARROWING = /^-(i?name|i?path|i?wholename|i?regex|i?lname|newer\w*|[amc](time|min)|size|user|group|uid|gid|perm|links|inum|samefile|empty|used)$/;

/** A block device, memory or any other device node that is not a harmless one (`/dev/null`, ttys, …). */
export function isDiskDevice(value: string): boolean {
  // `/proc/self/root/dev/sda` and `/dev/../dev/sda` are the same device node.
  let normalized = value.startsWith('/') ? path.posix.normalize(value) : value;
  while (/^\/proc\/[^/]+\/root(\/|$)/.test(normalized)) normalized = path.posix.normalize(`/${normalized.split('/').slice(4).join('/')}`);
  return normalized.startsWith('/dev/') && !HARMLESS_DEVICES.test(normalized.replace(/\/+$/, ''));
}

/** `-r`, `-Rf`, `--recursive` or a GNU abbreviation of it (`--recu`). */
export function isRecursiveFlag(arg: string): boolean {
  if (arg.startsWith('--')) return arg.length > 2 && 'recursive'.startsWith(arg.slice(2).split('=')[0]!);
  return /^-[a-zA-Z]+$/.test(arg) && /[rR]/.test(arg);
}

/** Option words (before `--`) and operands (the rest). */
function split(args: ShellWord[]): { options: string[]; operands: ShellWord[] } {
  const options: string[] = [];
  const operands: ShellWord[] = [];
  let endOfOptions = false;
  for (const arg of args) {
    if (!endOfOptions && arg.value === '--') endOfOptions = true;
    else if (!endOfOptions && arg.value.startsWith('-') && arg.value !== '-') options.push(arg.value);
    else operands.push(arg);
  }
  return { options, operands };
}

const critical = (scan: DestructiveScan, words: ShellWord[], level: 'root' | 'tree' = 'tree') => words.find((word) => isCriticalTarget(word, scan.context, level));

function rm(scan: DestructiveScan): string | undefined {
  const { options, operands } = split(scan.args);
  if (options.some((option) => option.length > 4 && '--no-preserve-root'.startsWith(option))) return 'rm --no-preserve-root would delete the whole filesystem';
  if (!options.some(isRecursiveFlag)) return undefined;
  const target = critical(scan, [...operands, ...(scan.stdinTargets ?? [])]);
  return target ? `rm -r ${targetLabel(target)} would delete the system or a home directory` : undefined;
}

function mv(scan: DestructiveScan): string | undefined {
  // `-t DIR` / `--target-directory=DIR` names the destination; every operand is then a source.
  const separate = scan.args.findIndex((arg) => /^-[a-zA-Z]*t$/.test(arg.value) || arg.value === '--target-directory');
  const args = separate === -1 ? scan.args : scan.args.filter((_, index) => index !== separate + 1);
  const { options, operands } = split(args);
  const targetDirectory = separate !== -1 || options.some((option) => option.startsWith('--target-directory=') || /^-[a-zA-Z]*t./.test(option));
  const sources = [...(targetDirectory ? operands : operands.slice(0, -1)), ...(scan.stdinTargets ?? [])];
  const moved = critical(scan, sources, 'tree');
  if (moved) return `mv ${targetLabel(moved)} would move the system or a home directory away`;
  const destination = operands[operands.length - 1];
  return destination && isDiskDevice(destination.value) ? `mv onto ${destination.value} would replace a device` : undefined;
}

function permissions(name: string) {
  return (scan: DestructiveScan): string | undefined => {
    const { options, operands } = split(scan.args);
    // -R (not -r: for chmod that is a mode, "remove read").
    const recursive = options.some((option) => /^-[a-zA-Z]*R[a-zA-Z]*$/.test(option) || option === '--recursive');
    const target = critical(scan, operands, recursive ? 'tree' : 'root');
    if (!target) return undefined;
    if (recursive) return `${name} -R on ${targetLabel(target)} would break the system's permissions`;
    return operands.some((operand) => operand.value.replace(/\/+$/, '') === '') ? `${name} on / would break the system's permissions` : undefined;
  };
}

function find(scan: DestructiveScan): string | undefined {
  const args = scan.args;
  let index = 0;
  while (index < args.length && /^-[HLPO]|^-D$/.test(args[index]!.value)) index += args[index]!.value === '-D' ? 2 : 1;
  const starts: ShellWord[] = [];
  while (index < args.length && !/^[-(!]/.test(args[index]!.value)) starts.push(args[index++]!);
  const start = critical(scan, starts);
  if (!start) return undefined;
  const expression = args.slice(index);
  const writer = expression.findIndex((arg) => FIND_WRITERS.has(arg.value));
  if (writer === -1) return undefined;
  const action = expression[writer]!.value;
  // -delete removes only what matched (directories only when empty): a name test makes it housekeeping.
  if (action === '-delete') {
    const narrowed = expression.slice(0, writer).some((arg) => FIND_NARROWING.test(arg.value));
    return narrowed ? undefined : `find ${targetLabel(start)} -delete would delete the system or a home directory`;
  }
  // -exec may run a recursive command on any match, anywhere below the start: judge it on the start.
  const run = expression.slice(writer + 1).map((arg) => (arg.value === '{}' ? start : arg));
  const end = run.findIndex((arg) => arg.value === ';' || arg.value === '+');
  return scan.nested(end === -1 ? run : run.slice(0, end));
}

function rsync(scan: DestructiveScan): string | undefined {
  const { options, operands } = split(scan.args);
  const deletes = options.some((option) => /^--del(ete)?(-|=|$)/.test(option) || option.startsWith('--delete'));
  const removesSources = options.some((option) => option.startsWith('--remove-source'));
  const destination = operands[operands.length - 1];
  if (deletes && destination && isCriticalTarget(destination, scan.context, 'tree')) return `rsync --delete into ${targetLabel(destination)} would delete the system or a home directory`;
  const source = removesSources ? critical(scan, operands.slice(0, -1)) : undefined;
  return source ? `rsync --remove-source-files from ${targetLabel(source)} would delete the system or a home directory` : undefined;
}

/** Commands that write their last operand (or every operand, for tee). */
function writesDevice(name: string, all = false) {
  return (scan: DestructiveScan): string | undefined => {
    const { operands } = split(scan.args);
    const written = all ? operands : operands.slice(-1);
    const device = written.find((word) => isDiskDevice(word.value));
    return device ? `${name} onto ${device.value} would overwrite a disk` : undefined;
  };
}

/**
 * Commands that write the file an option names (`sort -o FILE`, `curl --output=FILE`, `tar -cf
 * FILE`): the value of one of `shorts` (alone, as the last letter of a cluster, or joined: `-oFILE`)
 * or of a GNU-abbreviable long option in `longs` (`--output FILE`, `--output=FILE`). With `when`,
 * only if the arguments also say the command writes (tar's create, append or update modes).
 */
function writesOptionValue(name: string, shorts: string, longs: string[], when?: (values: string[]) => boolean) {
  return (scan: DestructiveScan): string | undefined => {
    const values = scan.args.map((arg) => arg.value);
    if (when && !when(values)) return undefined;
    for (let index = 0; index < values.length; index++) {
      const arg = values[index]!;
      if (arg === '--') break;
      let value: string | undefined;
      if (arg.startsWith('--')) {
        const [option, joined] = [arg.slice(2).split('=')[0]!, arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : undefined];
        if (option.length > 0 && longs.some((long) => long.startsWith(option))) value = joined ?? values[index + 1];
      } else if (/^-[a-zA-Z]/.test(arg) || (name === 'tar' && index === 0 && /^[a-zA-Z]+$/.test(arg))) {
        // tar's old style (`tar cf FILE`) bundles its letters without a dash, first.
        const letters = arg.startsWith('-') ? arg.slice(1) : arg;
        const at = [...letters].findIndex((letter) => shorts.includes(letter));
        if (at !== -1) value = at === letters.length - 1 ? values[index + 1] : letters.slice(at + 1);
      }
      if (value !== undefined && isDiskDevice(value)) return `${name} writing to ${value} would overwrite a disk`;
    }
    return undefined;
  };
}

/** tar writes its archive (`-f`) in create, append and update modes: `-c`, `cf`, `--create`, `-r`, `-u`, `-A`. */
const tarWrites = (values: string[]): boolean =>
  values.some((value, index) => /^--(create|append|update|concatenate|catenate|delete)$/.test(value) || (/^-?[a-zA-Z]+$/.test(value) && (value.startsWith('-') || index === 0) && /[cruA]/.test(value)));

function dd(scan: DestructiveScan): string | undefined {
  const output = scan.args.map((arg) => arg.value).find((arg) => arg.startsWith('of='));
  return output && (isDiskDevice(output.slice(3)) || /[$`]/.test(output)) ? `dd ${output} would overwrite a disk` : undefined;
}

/** mkfs and friends: refused on a device, or on anything not known to be a plain file (an image file is fine). */
function formats(name: string) {
  return (scan: DestructiveScan): string | undefined => {
    const { operands } = split(scan.args);
    const risky = operands.find((word) => isDiskDevice(word.value) || word.hasExpansion || word.hasGlob);
    return risky || operands.length === 0 ? `${name} ${risky?.value ?? ''} would create a filesystem on (or wipe) a disk`.replace('  ', ' ') : undefined;
  };
}

function partitions(name: string, listing: RegExp) {
  return (scan: DestructiveScan): string | undefined => {
    const values = scan.args.map((arg) => arg.value);
    if (values.some((value) => listing.test(value))) return undefined;
    const device = values.find(isDiskDevice);
    return device ? `${name} would rewrite the partition table of ${device}` : undefined;
  };
}

function kill(scan: DestructiveScan): string | undefined {
  const values = scan.args.map((arg) => arg.value);
  let index = 0;
  // The signal: `-9`, `-KILL`, `-s KILL`, `-n 9`; then the process ids, where -1 means "every process".
  if (values[0] === '-s' || values[0] === '-n') index = 2;
  else if (values[0] !== undefined && values[0].startsWith('-') && values[0] !== '--' && values[0] !== '-1') index = 1;
  else if (values[0] === '-1' && values.length > 1) index = 1;
  if (values[index] === '--') index++;
  return values.slice(index).includes('-1') ? 'kill -1 would kill every process' : undefined;
}

const always = (reason: string) => () => reason;

/** Patterns that match every process name: `pkill .` is `kill -1` by another name. */
const MATCHES_EVERY_NAME = new Set(['.', '.*', '.+', '^', '$', '^.*', '.*$', '^.*$', '^.+$', '']);

function pkill(scan: DestructiveScan): string | undefined {
  const { operands } = split(scan.args);
  const pattern = operands.find((word) => MATCHES_EVERY_NAME.has(word.value));
  return pattern ? `pkill ${pattern.value || '""'} would kill every process it may` : undefined;
}

/** Rules for commands that can destroy the system, by command name. */
export const DESTRUCTIVE_COMMANDS: ReadonlyMap<string, (scan: DestructiveScan) => string | undefined> = new Map([
  ['rm', rm],
  ['mv', mv],
  ['chmod', permissions('chmod')],
  ['chown', permissions('chown')],
  ['chgrp', permissions('chgrp')],
  ['setfacl', permissions('setfacl')],
  ['chattr', permissions('chattr')],
  ['find', find],
  ['rsync', rsync],
  ['dd', dd],
  // dd's relatives take its of= operand.
  ['dcfldd', dd],
  ['dc3dd', dd],
  ['sg_dd', dd],
  ['ddpt', dd],
  ['tar', writesOptionValue('tar', 'f', ['file'], tarWrites)],
  ['sort', writesOptionValue('sort', 'o', ['output'])],
  ['curl', writesOptionValue('curl', 'o', ['output'])],
  ['wget', writesOptionValue('wget', 'O', ['output-document'])],
  ['zstd', writesOptionValue('zstd', 'o', [])],
  ['cp', writesDevice('cp')],
  ['install', writesDevice('install')],
  ['tee', writesDevice('tee', true)],
  ['ddrescue', writesDevice('ddrescue')],
  ['shred', (scan: DestructiveScan) => writesDevice('shred', true)(scan) ?? (critical(scan, split(scan.args).operands) ? 'shred on the system or a home directory would destroy it' : undefined)],
  ['badblocks', (scan: DestructiveScan) => (scan.args.some((arg) => /^-[a-zA-Z]*[wn]/.test(arg.value)) ? writesDevice('badblocks -w', true)(scan) : undefined)],
  ['blkdiscard', always('blkdiscard discards every block of a disk')],
  ['wipefs', formats('wipefs')],
  ['mkswap', formats('mkswap')],
  ['mke2fs', formats('mke2fs')],
  ['mkdosfs', formats('mkdosfs')],
  ['mkntfs', formats('mkntfs')],
  ['mkexfatfs', formats('mkexfatfs')],
  ['fdisk', partitions('fdisk', /^(-l|--list)$/)],
  ['sfdisk', partitions('sfdisk', /^(-l|--list|-d|--dump|-s|--show-size)$/)],
  ['sgdisk', partitions('sgdisk', /^(-p|--print|-i|--info)/)],
  ['gdisk', partitions('gdisk', /^-l$/)],
  ['parted', partitions('parted', /^(-l|--list|print)$/)],
  ['kill', kill],
  ['killall5', always('killall5 signals every process')],
  ['pkill', pkill],
]);

/** The rule for a command name, also for the `mkfs` family (`mkfs.ext4`, `mkfs.vfat`, …). */
export function destructiveRule(name: string): ((scan: DestructiveScan) => string | undefined) | undefined {
  return DESTRUCTIVE_COMMANDS.get(name) ?? (/^mkfs(\..+)?$/.test(name) ? formats(name) : undefined);
}
