import fs from 'node:fs/promises';
import path from 'node:path';
import { globToRegExp, hasGlobSyntax } from './glob-to-regexp.js';
import { parseShellCommand, type ParsedShellCommand, type ShellWord } from './parse-shell-command.js';
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

/** Options that make a read-only command follow symbolic links while it walks directories. */
const LINK_FOLLOWING: Record<string, (arg: string) => boolean> = {
  grep: (arg) => /^-[a-zA-Z]*R/.test(arg) || arg === '--dereference-recursive',
  egrep: (arg) => /^-[a-zA-Z]*R/.test(arg) || arg === '--dereference-recursive',
  fgrep: (arg) => /^-[a-zA-Z]*R/.test(arg) || arg === '--dereference-recursive',
  find: (arg) => arg === '-L' || arg === '-follow',
  rg: (arg) => /^-[a-zA-Z]*L/.test(arg) || arg === '--follow',
  du: (arg) => /^-[a-zA-Z]*L/.test(arg) || arg === '--dereference',
  ls: (arg) => /^-[a-zA-Z]*L/.test(arg) || arg === '--dereference',
  tree: (arg) => /^-[a-zA-Z]*l/.test(arg),
};

/** The parts of an argument that may name a file: the word, the value of `--opt=value`, or what follows a short option like `-f/etc/x`. */
function pathCandidates(word: string): string[] {
  if (!word.startsWith('-')) return [word];
  const equals = word.indexOf('=');
  if (word.startsWith('--') && equals !== -1) return [word.slice(equals + 1)];
  const slash = word.search(/[/~]/);
  return slash === -1 ? [] : [word.slice(slash)];
}

/** Bash brace expansion of comma lists (`a.{ts,js}`); `undefined` for sequences like `{1..9}`. */
function expandBraces(word: string, limit: number): string[] | undefined {
  if (/\{[^{}]*\.\.[^{}]*\}/.test(word)) return undefined;
  const match = /\{([^{}]*,[^{}]*)\}/.exec(word);
  if (!match) return [word];
  const out: string[] = [];
  for (const part of match[1]!.split(',')) {
    const expanded = expandBraces(word.slice(0, match.index) + part + word.slice(match.index + match[0].length), limit);
    if (!expanded) return undefined;
    out.push(...expanded);
    if (out.length > limit) return undefined;
  }
  return out;
}

/**
 * Expands a glob the way the shell would, but as a superset: quoted glob characters and dot
 * files are matched too. A pattern matching nothing stays as it is (as in bash).
 */
async function expandGlob(absolutePattern: string, limit: number): Promise<string[] | undefined> {
  const [root, ...segments] = absolutePattern.split('/');
  let current = [root === '' ? '/' : root!];
  for (const segment of segments) {
    if (segment === '') continue;
    if (!hasGlobSyntax(segment)) {
      current = current.map((directory) => path.join(directory, segment));
      continue;
    }
    const matcher = globToRegExp(segment, { braces: false });
    const next: string[] = [];
    for (const directory of current) {
      const names = await fs.readdir(directory).catch(() => [] as string[]);
      for (const name of names) if (matcher.test(name)) next.push(path.join(directory, name));
      if (next.length > limit) return undefined;
    }
    current = next;
  }
  return current.length > 0 ? current : [absolutePattern];
}

/**
 * Looks for a path outside the workspace among the arguments of a (read-only) command: every
 * argument and input redirection is resolved like a file path, relative to the directory the
 * command would be in (following `cd`), symbolic links included, with globs and brace lists
 * expanded. Options that make a command follow links while walking (`grep -R`, `find -L`, …)
 * also count, since a link below the workspace may lead out of it. Arguments of commands that
 * take no paths (`echo`, `date`, …) are not looked at.
 * @returns the first outside real path (or another reason to ask), or `undefined`.
 */
export async function findOutsidePath(boundary: WorkspaceBoundary, command: string | ParsedShellCommand): Promise<OutsidePathFinding | undefined> {
  const parsed = typeof command === 'string' ? parseShellCommand(command) : command;
  let directory = boundary.cwd;
  let checked = 0;
  const tooMany = { blockedPath: undefined, message: `The command names more than ${MAX_CHECKED_PATHS} paths to check against the workspace.` };
  const absolute = (candidate: string) => path.resolve(directory, candidate.startsWith('~') ? boundary.lexical(candidate) : candidate);

  const check = async (candidate: string, word: ShellWord): Promise<OutsidePathFinding | undefined> => {
    if (candidate === '') return undefined;
    let paths = [absolute(candidate)];
    if (word.hasGlob) {
      const alternatives = expandBraces(candidate, MAX_CHECKED_PATHS);
      if (!alternatives) return { blockedPath: undefined, message: `The command's argument ${candidate} expands to paths that were not checked against the workspace.` };
      paths = [];
      for (const alternative of alternatives) {
        const expanded = hasGlobSyntax(alternative) ? await expandGlob(absolute(alternative), MAX_CHECKED_PATHS) : [absolute(alternative)];
        if (!expanded) return tooMany;
        paths.push(...expanded);
      }
    }
    for (const candidatePath of paths) {
      if (checked++ >= MAX_CHECKED_PATHS) return tooMany;
      const resolved = await boundary.resolve(candidatePath).catch(() => undefined);
      if (resolved?.inside) continue;
      const blockedPath = resolved?.real ?? candidatePath;
      return { blockedPath, message: `The command refers to ${blockedPath}, which is outside the workspace (${boundary.roots.join(', ')}).` };
    }
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
    if (name === undefined || NON_PATH_ARGUMENT_COMMANDS.has(name)) continue;
    const follows = LINK_FOLLOWING[name];
    const following = follows && args.find((arg) => follows(arg.value));
    if (following) {
      return { blockedPath: undefined, message: `${name} ${following.value} follows symbolic links, which may lead outside the workspace.` };
    }
    if (name === 'cd') {
      const target = args[0];
      const found = await check(target?.value ?? '~', target ?? { value: '~', hasExpansion: false, hasGlob: false });
      if (found) return found;
      directory = absolute(target?.value ?? '~');
      continue;
    }
    for (const arg of args) {
      for (const candidate of pathCandidates(arg.value)) {
        const found = await check(candidate, arg);
        if (found) return found;
      }
    }
  }
  return undefined;
}
