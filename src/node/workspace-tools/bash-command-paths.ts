import path from 'node:path';
import { parseShellCommand, type ParsedShellCommand } from './parse-shell-command.js';
import { NON_PATH_ARGUMENT_COMMANDS } from './read-only-commands.js';
import type { WorkspaceBoundary } from './workspace-boundary.js';

const MAX_CHECKED_WORDS = 500;

/** Why a read-only command still needs the host's answer. */
export interface OutsidePathFinding {
  /** The outside real path, when one was found. */
  blockedPath: string | undefined;
  message: string;
}

/** The parts of an argument that may name a file: the word, the value of `--opt=value`, or what follows a short option like `-f/etc/x`. */
function pathCandidates(word: string): string[] {
  if (!word.startsWith('-')) return [word];
  const equals = word.indexOf('=');
  if (word.startsWith('--') && equals !== -1) return [word.slice(equals + 1)];
  const slash = word.search(/[/~]/);
  return slash === -1 ? [] : [word.slice(slash)];
}

/**
 * Looks for a path outside the workspace among the arguments of a (read-only) command: every
 * argument and input redirection is resolved like a file path, relative to the directory the
 * command would be in (following `cd`), symbolic links included. Arguments of commands that take
 * no paths (`echo`, `date`, …) are not looked at.
 * @returns the first outside real path (or too many arguments to check), or `undefined`.
 */
export async function findOutsidePath(boundary: WorkspaceBoundary, command: string | ParsedShellCommand): Promise<OutsidePathFinding | undefined> {
  const parsed = typeof command === 'string' ? parseShellCommand(command) : command;
  let directory = boundary.cwd;
  let checked = 0;
  const outside = async (candidate: string): Promise<OutsidePathFinding | undefined> => {
    if (candidate === '') return undefined;
    if (checked++ >= MAX_CHECKED_WORDS) return { blockedPath: undefined, message: `The command has more than ${MAX_CHECKED_WORDS} arguments to check for paths outside the workspace.` };
    const absolute = path.resolve(directory, candidate.startsWith('~') ? boundary.lexical(candidate) : candidate);
    const resolved = await boundary.resolve(absolute).catch(() => undefined);
    if (resolved?.inside) return undefined;
    const blockedPath = resolved?.real ?? absolute;
    return { blockedPath, message: `The command refers to ${blockedPath}, which is outside the workspace (${boundary.roots.join(', ')}).` };
  };
  for (const simple of parsed.commands) {
    for (const redirect of simple.redirects) {
      if (redirect.operator !== '<') continue;
      const found = await outside(redirect.target.value);
      if (found) return found;
    }
    const [name, ...args] = simple.words.map((word) => word.value);
    if (name === undefined || NON_PATH_ARGUMENT_COMMANDS.has(name)) continue;
    if (name === 'cd') {
      const target = args[0] ?? '~';
      const found = await outside(target);
      if (found) return found;
      directory = path.resolve(directory, target.startsWith('~') ? boundary.lexical(target) : target);
      continue;
    }
    for (const arg of args) {
      for (const candidate of pathCandidates(arg)) {
        const found = await outside(candidate);
        if (found) return found;
      }
    }
  }
  return undefined;
}
