import { expandBraces, expandGlob } from './expand-shell-glob.js';
import { hasGlobSyntax } from './glob-to-regexp.js';
import { parseShellCommand, type ParsedShellCommand, type ShellWord } from '../../permissions/shell/index.js';
import { resolvePhysicalPath } from './physical-path.js';
import { NON_PATH_ARGUMENT_COMMANDS } from './read-only-commands.js';
import type { WorkspaceBoundary } from './workspace-boundary.js';

/** Most paths checked for one command (after glob expansion). */
const MAX_CHECKED_PATHS = 2000;

/** Why a read-only command still needs the host's answer. */
export interface OutsidePathFinding {
  /** The outside real path, when one was found. */
  blockedPath: string | undefined;
  message: string;
}

/** `--name[=value]` where `name` is a non-empty prefix of `option` (GNU accepts unambiguous abbreviations). */
function isLong(arg: string, option: string): boolean {
  return arg.startsWith('--') && arg.length > 2 && option.startsWith(arg.slice(2).split('=')[0]!);
}

/** A cluster of short options (`-rN`) containing `letter`. */
function hasShort(arg: string, letter: string): boolean {
  return /^-[a-zA-Z0-9]+$/.test(arg) && arg.includes(letter);
}

/** Options that make a read-only command follow symbolic links while it walks directories. */
const LINK_FOLLOWING: Record<string, (arg: string) => boolean> = {
  grep: (arg) => hasShort(arg, 'R') || isLong(arg, 'dereference-recursive'),
  egrep: (arg) => hasShort(arg, 'R') || isLong(arg, 'dereference-recursive'),
  fgrep: (arg) => hasShort(arg, 'R') || isLong(arg, 'dereference-recursive'),
  find: (arg) => arg === '-L' || arg === '-follow',
  rg: (arg) => hasShort(arg, 'L') || isLong(arg, 'follow'),
  du: (arg) => hasShort(arg, 'L') || isLong(arg, 'dereference'),
  ls: (arg) => hasShort(arg, 'L') || isLong(arg, 'dereference'),
  tree: (arg) => hasShort(arg, 'l') || isLong(arg, 'follow'),
  // GNU diff -r follows symbolic links below the compared directories.
  diff: (arg) => hasShort(arg, 'r') || isLong(arg, 'recursive'),
};

/** The parts of an argument that may name a file: the word, the value of `--opt=value`, or what follows a short option like `-f/etc/x` / `-f../x`. */
function pathCandidates(word: string): string[] {
  if (!word.startsWith('-')) return [word];
  const equals = word.indexOf('=');
  if (word.startsWith('--')) return equals === -1 ? [] : [word.slice(equals + 1)];
  const slash = word.search(/[/~.]/);
  const out = slash === -1 ? [] : [word.slice(slash)];
  if (word.length > 2 && slash !== 2) out.push(word.slice(2));
  return out;
}

const ask = (message: string): OutsidePathFinding => ({ blockedPath: undefined, message });

/**
 * Looks for a path outside the workspace among the arguments of a (read-only) command: every
 * argument and input redirection is resolved like a file path, relative to the directory the
 * command would be in (following `cd`), symbolic links included — both lexically and the way the
 * kernel does (a link before `..`) — with globs and brace lists expanded. Options that make a
 * command follow links while walking (`grep -R`, `diff -r`, `find -L`, …) also count, since a
 * link below the workspace may lead out of it. Tilde prefixes other than `~` and `~/` (`~+`,
 * `~-`, `~user`), `cd -`, `cd` options and POSIX bracket classes in globs are asked about.
 * Arguments of commands that take no paths (`echo`, `printf`, …) are only looked at when globbed.
 * @returns the first outside real path (or another reason to ask), or `undefined`.
 */
export async function findOutsidePath(boundary: WorkspaceBoundary, command: string | ParsedShellCommand): Promise<OutsidePathFinding | undefined> {
  const parsed = typeof command === 'string' ? parseShellCommand(command) : command;
  let directory = boundary.cwd;
  let checked = 0;
  const tooMany = ask(`The command names more than ${MAX_CHECKED_PATHS} paths to check against the workspace.`);
  const home = boundary.lexical('~');
  // Not normalized: `..` keeps its physical meaning after a symbolic link.
  const absolute = (candidate: string) =>
    candidate.startsWith('~') ? home + candidate.slice(1) : candidate.startsWith('/') ? candidate : `${directory}/${candidate}`;

  const outsideOf = async (candidatePath: string): Promise<string | undefined> => {
    const resolved = await boundary.resolve(candidatePath).catch(() => undefined);
    if (!resolved?.inside) return resolved?.real ?? candidatePath;
    const physical = await resolvePhysicalPath(candidatePath).catch(() => undefined);
    return physical !== undefined && boundary.contains(physical) ? undefined : (physical ?? candidatePath);
  };

  const check = async (candidate: string, word: ShellWord): Promise<OutsidePathFinding | undefined> => {
    if (candidate === '') return undefined;
    if (candidate.startsWith('~') && candidate !== '~' && !candidate.startsWith('~/')) {
      return ask(`The command's argument ${candidate} starts with a tilde prefix that expands to a directory that was not checked against the workspace.`);
    }
    let paths = [absolute(candidate)];
    if (word.hasGlob) {
      if (/\[[:=.]/.test(candidate)) return ask(`The command's argument ${candidate} uses a bracket class that was not checked against the workspace.`);
      const alternatives = expandBraces(candidate, MAX_CHECKED_PATHS);
      if (!alternatives) return ask(`The command's argument ${candidate} expands to paths that were not checked against the workspace.`);
      paths = [];
      for (const alternative of alternatives) {
        const expanded = hasGlobSyntax(alternative) ? await expandGlob(absolute(alternative), MAX_CHECKED_PATHS) : [absolute(alternative)];
        if (!expanded) return tooMany;
        paths.push(...expanded);
      }
    }
    for (const candidatePath of paths) {
      if (checked++ >= MAX_CHECKED_PATHS) return tooMany;
      const blockedPath = await outsideOf(candidatePath);
      if (blockedPath !== undefined) {
        return { blockedPath, message: `The command refers to ${blockedPath}, which is outside the workspace (${boundary.roots.join(', ')}).` };
      }
    }
    return undefined;
  };

  const changeDirectory = async (args: ShellWord[]): Promise<OutsidePathFinding | undefined> => {
    let index = 0;
    while (index < args.length && /^-[LPe@]+$/.test(args[index]!.value)) index++;
    if (args[index]?.value === '--') index++;
    const target = args[index] ?? { value: '~', hasExpansion: false, hasGlob: false };
    if (target.value.startsWith('-') || args.length > index + 1 || target.hasGlob) {
      return ask(`cd ${args.map((arg) => arg.value).join(' ')}: only \`cd <directory>\` is checked against the workspace.`);
    }
    const found = await check(target.value, target);
    if (found) return found;
    const raw = absolute(target.value);
    const physical = await resolvePhysicalPath(raw);
    if (physical !== (await boundary.resolve(raw)).real) {
      return ask(`cd ${target.value} goes through a symbolic link and then "..": the directory it ends up in was not checked.`);
    }
    directory = physical;
    return undefined;
  };

  for (const simple of parsed.commands) {
    for (const redirect of simple.redirects) {
      if (redirect.operator !== '<') continue;
      const found = await check(redirect.target.value, redirect.target);
      if (found) return found;
    }
    const [nameWord, ...args] = simple.words;
    const name = nameWord?.value;
    if (name === undefined) continue;
    const follows = LINK_FOLLOWING[name];
    const following = follows && args.find((arg) => follows(arg.value));
    if (following) return ask(`${name} ${following.value} follows symbolic links, which may lead outside the workspace.`);
    if (name === 'cd') {
      const found = await changeDirectory(args);
      if (found) return found;
      continue;
    }
    const pathArguments = NON_PATH_ARGUMENT_COMMANDS.has(name) ? args.filter((arg) => arg.hasGlob) : args;
    for (const arg of pathArguments) {
      for (const candidate of pathCandidates(arg.value)) {
        const found = await check(candidate, arg);
        if (found) return found;
      }
    }
  }
  return undefined;
}
