import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { parseShellCommand } from '../../permissions/shell/index.js';
import type { WorkspaceBoundary } from './workspace-boundary.js';
import { realPathSync } from './real-path-sync.js';

/** One directory of the Bash tool's `PATH`, and why a program found there cannot be trusted. */
interface SearchDirectory {
  /** The entry as written in `PATH`. */
  entry: string;
  /** The directory, absolute, real where it exists. */
  directory: string;
  /** Set when programs found there are the workspace's: it is relative, or inside a workspace root. */
  untrusted: string | undefined;
}

/** The Bash tool's `PATH`, each directory judged once, when the tool is made. */
export interface CommandSearchPath {
  readonly directories: readonly SearchDirectory[];
  readonly boundary: WorkspaceBoundary;
}

/**
 * Names the shells run as builtins (bash, dash, zsh), never looked up in `PATH`: on the read-only
 * list, only these are safe from a program of the same name.
 */
const SHELL_BUILTINS: ReadonlySet<string> = new Set(['cd', 'echo', 'printf', 'pwd', 'test', '[', 'true', 'false', 'type', 'command']);

/** Programs a read-only command starts by name from `PATH` in its turn (git's pinned external diff runs `diff`, its pager `cat`). */
const STARTED_BY: Readonly<Record<string, readonly string[]>> = { git: ['diff', 'cat'] };

/**
 * Judges the directories of a `PATH` value: an empty or relative entry (`.`, `bin`, `::`) is
 * searched from whatever the working directory is, and an entry inside a workspace root holds
 * programs the agent can write; a command name found in either runs the workspace's program.
 * @param pathValue - the `PATH` Bash commands get (`undefined`: the shell's default, all system directories).
 */
export function commandSearchPath(pathValue: string | undefined, boundary: WorkspaceBoundary): CommandSearchPath {
  if (pathValue === undefined) return { directories: [], boundary };
  const directories = pathValue.split(path.delimiter).map((entry): SearchDirectory => {
    if (!path.isAbsolute(entry)) {
      const shown = entry === '' ? 'an empty entry (the working directory)' : `the relative entry ${JSON.stringify(entry)}`;
      return { entry, directory: entry, untrusted: `PATH has ${shown}` };
    }
    const directory = realPathSync(path.resolve(entry));
    return { entry, directory, untrusted: boundary.contains(directory) ? `PATH entry ${JSON.stringify(entry)} is inside the workspace` : undefined };
  });
  return { directories, boundary };
}

function isProgram(file: string): boolean {
  try {
    // Most PATH directories do not have the name: no error made for each of them.
    if (!statSync(file, { throwIfNoEntry: false })?.isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Why running `name` by `PATH` may run the workspace's program, or `undefined` when the program found is a trusted one. */
function nameProblem(name: string, searchPath: CommandSearchPath): string | undefined {
  for (const { entry, directory, untrusted } of searchPath.directories) {
    // A relative entry depends on the directory the command has `cd`-ed to: never trusted.
    if (untrusted !== undefined && !path.isAbsolute(entry)) return `${untrusted}, so ${name} may run a program of the workspace`;
    const file = path.join(directory, name);
    if (!isProgram(file)) continue;
    if (untrusted !== undefined) return `${untrusted} and holds a program ${name}, which would run instead of the system's`;
    // A trusted directory's entry may still be a link to a program of the workspace (`npm link`).
    const real = realPathSync(file);
    return searchPath.boundary.contains(real) ? `${path.join(entry, name)} is a link to a program inside the workspace` : undefined;
  }
  return undefined;
}

/**
 * For a command line the classifier found read-only: why one of its commands, looked up in the
 * Bash tool's `PATH`, may run a program of the workspace instead of the system's (an `ls` in a
 * workspace directory on `PATH`, any name when `PATH` has a relative entry), or `undefined`.
 * Shell builtins (`cd`, `echo`, `test`, …) are not looked up. The files are looked at when asked,
 * so the answer holds for the workspace as it is then.
 */
export function shadowedCommandProblem(command: string, searchPath: CommandSearchPath): string | undefined {
  if (searchPath.directories.length === 0) return undefined;
  const parsed = parseShellCommand(command);
  const names = new Set<string>();
  for (const simple of parsed.commands) {
    const name = simple.words[0]?.value;
    if (name === undefined || SHELL_BUILTINS.has(name)) continue;
    names.add(name);
    for (const started of STARTED_BY[name] ?? []) names.add(started);
  }
  for (const name of names) {
    const problem = nameProblem(name, searchPath);
    if (problem) return problem;
  }
  return undefined;
}

/** Searched when no `PATH` entry is trusted: an empty `PATH` would be the working directory. */
const FALLBACK_PATH = '/usr/local/bin:/usr/bin:/bin';

/**
 * The `PATH` a read-only command runs with: the entries that are neither relative nor inside the
 * workspace, in order. Whatever the command starts in its turn by name — git's drivers and
 * helpers from the user's configuration (`git-lfs`), `diff`, `ssh`, `gpg` — then cannot be a
 * program of the workspace either, whatever appears there after the command was allowed.
 * @returns `undefined` when `PATH` is not set (the shell's default path is used).
 */
export function trustedSearchPath(searchPath: CommandSearchPath, pathValue: string | undefined): string | undefined {
  if (pathValue === undefined) return undefined;
  const trusted = searchPath.directories.filter((directory) => directory.untrusted === undefined).map((directory) => directory.entry);
  return trusted.length > 0 ? trusted.join(path.delimiter) : FALLBACK_PATH;
}
