import { expandBraces, expandGlob } from './expand-shell-glob.js';
import { hasGlobSyntax } from '../../permissions/compile-glob.js';
import fs from 'node:fs/promises';
import { parseShellCommand, type ParsedShellCommand, type ShellAndOr, type ShellCommandNode, type ShellList, type ShellPipeline, type ShellSimpleCommand, type ShellWord } from '../../permissions/shell/index.js';
import { gitDriverProblem } from './git-driver-problem.js';
import { gitRepositoryPlaces } from './git-repository-places.js';
import { resolvePhysicalPath } from './physical-path.js';
import { NON_PATH_ARGUMENT_COMMANDS } from './read-only-commands.js';
import type { WorkspaceBoundary } from './workspace-boundary.js';
import { ownValue } from '../../model/own-value.js';

/** Most paths checked for one command (after glob expansion). */
const MAX_CHECKED_PATHS = 2000;

/** Why a read-only command still needs the host's answer. */
export interface OutsidePathFinding {
  /** The outside real path, when one was found. */
  blockedPath: string | undefined;
  message: string;
  /** Set when the command would run a program (a git driver the repository configures), not read a path: never run in plan mode. */
  runsProgram?: true;
}

/** `--name[=value]` where `name` is a non-empty prefix of `option` (GNU accepts unambiguous abbreviations). */
function isLong(arg: string, option: string): boolean {
  return arg.startsWith('--') && arg.length > 2 && option.startsWith(arg.slice(2).split('=')[0]!);
}

/**
 * A word of short options containing `letter`: a cluster (`-rN`), also with a value stuck to one
 * of them (`-rNx.git`, `-Re'pattern'`) — where the value may hold the letter too, so this errs
 * towards asking.
 */
function hasShort(arg: string, letter: string): boolean {
  return arg.length > 1 && arg[0] === '-' && arg[1] !== '-' && arg.includes(letter);
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

/** git subcommands that show files' contents (or history of them) from anywhere in the repository. */
const GIT_CONTENT_SUBCOMMANDS = new Set(['diff', 'show', 'log', 'blame', 'shortlog', 'grep', 'cat-file', 'archive', 'format-patch', 'stash', 'whatchanged']);

/** Whether a git command line (its arguments) shows contents: `status`, `rev-parse`, `ls-files`, `branch` show names at most. */
function showsContent(args: string[]): boolean {
  let rest = args;
  while (rest[0] === '--no-pager' || rest[0] === '-P') rest = rest.slice(1);
  const subcommand = rest[0];
  return subcommand === undefined || subcommand.startsWith('-') || GIT_CONTENT_SUBCOMMANDS.has(subcommand);
}

/** The words an unquoted brace list expands into (the word itself when it has none). */
function braceAlternatives(word: ShellWord): ShellWord[] {
  if (!word.hasGlob || !word.value.includes('{')) return [word];
  const expanded = expandBraces(word.value, MAX_CHECKED_PATHS);
  if (expanded === undefined) throw new OutsidePathFound(ask(`The brace expansion ${word.value} is not checked against the workspace.`));
  return expanded.map((value) => ({ ...word, value }));
}

/** Where the shell may be, and the status of the last command there. */
interface ShellState {
  directory: string;
  status: 0 | 1;
}

/** Every state, also with the other exit status: after a command whose outcome is not known. */
const eitherStatus = (states: ShellState[]) => dedupe(states.flatMap((state) => [{ ...state, status: 0 as const }, { ...state, status: 1 as const }]));
const dedupe = (states: ShellState[]) => [...new Map(states.map((state) => [`${state.status}:${state.directory}`, state])).values()];

class OutsidePathFound extends Error {
  constructor(readonly finding: OutsidePathFinding) {
    super(finding.message);
  }
}

/** Options of {@link findOutsidePath}. */
export interface FindOutsidePathOptions {
  /** Only look for programs the command would run (git drivers), in the directories it may be in; paths are not checked. */
  programsOnly?: boolean;
  /** The environment git runs with, to list the submodules checked out (see {@link gitDriverProblem}). */
  gitEnvironment?: Record<string, string | undefined>;
}

/**
 * Looks for a path outside the workspace among the arguments of a (read-only) command: every
 * argument and input redirection is resolved like a file path, relative to every directory the
 * command may be in, symbolic links included — both lexically and the way the kernel does (a
 * link before `..`) — with globs and brace lists expanded. The directory is modelled as bash
 * changes it: `cd` changes it only when it succeeds (a missing directory or a file leaves it
 * unchanged, so `cd missing; cat ../x` reads `../x` here), `&&` and `||` follow the exit status,
 * and a `cd` in a pipeline, a subshell `( … )` or a background job does not change the directory
 * of what follows. When the outcome of a `cd` cannot be known, every candidate directory is
 * checked. Options that make a command follow links while walking (`grep -R`, `diff -r`,
 * `find -L`, …) also count, since a link below the workspace may lead out of it. Tilde prefixes
 * other than `~` and `~/` (`~+`, `~-`, `~user`), `cd -`, `cd` options and POSIX bracket classes
 * in globs are asked about. Arguments of commands that take no paths (`echo`, `printf`, …) are
 * only looked at when globbed. A git command in a repository whose own configuration defines a
 * diff or filter driver is a finding too (`runsProgram`; see {@link gitDriverProblem}).
 * @returns the first outside real path (or another reason to ask), or `undefined`.
 */
export async function findOutsidePath(boundary: WorkspaceBoundary, command: string | ParsedShellCommand, options: FindOutsidePathOptions = {}): Promise<OutsidePathFinding | undefined> {
  const parsed = typeof command === 'string' ? parseShellCommand(command) : command;
  if (parsed.error !== undefined) return ask(`The command could not be parsed (${parsed.error}), so the paths it reads were not checked.`);
  const analysis = new PathAnalysis(boundary, options);
  try {
    await analysis.list(parsed.tree, [{ directory: boundary.cwd, status: 0 }]);
  } catch (error) {
    if (error instanceof OutsidePathFound) return error.finding;
    throw error;
  }
  return undefined;
}

class PathAnalysis {
  private checked = 0;
  private readonly home: string;

  private readonly programsOnly: boolean;

  constructor(
    private readonly boundary: WorkspaceBoundary,
    private readonly options: FindOutsidePathOptions,
  ) {
    this.home = boundary.lexical('~');
    this.programsOnly = options.programsOnly === true;
  }

  async list(items: ShellList, states: ShellState[]): Promise<ShellState[]> {
    let current = states;
    for (const item of items) {
      if (item.background) {
        // A background job runs in a subshell: its cd stays there.
        await this.andOr(item.andOr, current);
        current = current.map((state) => ({ ...state, status: 0 }));
      } else {
        current = await this.andOr(item.andOr, current);
      }
    }
    return dedupe(current);
  }

  private async andOr(andOr: ShellAndOr, states: ShellState[]): Promise<ShellState[]> {
    let current = await this.pipeline(andOr.pipelines[0]!, states);
    for (const [index, operator] of andOr.operators.entries()) {
      const runs = current.filter((state) => (operator === '&&' ? state.status === 0 : state.status !== 0));
      const skips = current.filter((state) => !runs.includes(state));
      const ran = runs.length > 0 ? await this.pipeline(andOr.pipelines[index + 1]!, runs) : [];
      current = dedupe([...skips, ...ran]);
    }
    return current;
  }

  private async pipeline(pipeline: ShellPipeline, states: ShellState[]): Promise<ShellState[]> {
    let after: ShellState[];
    if (pipeline.commands.length === 1) {
      after = await this.command(pipeline.commands[0]!, states);
    } else {
      // Every part of a pipeline runs in a subshell: a cd there does not reach the next command.
      for (const node of pipeline.commands) await this.command(node, states);
      after = eitherStatus(states);
    }
    return pipeline.negated ? after.map((state) => ({ ...state, status: state.status === 0 ? 1 : 0 })) : after;
  }

  private async command(node: ShellCommandNode, states: ShellState[]): Promise<ShellState[]> {
    switch (node.type) {
      case 'simple':
        return this.simple(node.command, states);
      case 'subshell':
        await this.redirects(node.redirects, states);
        await this.list(node.body, states);
        return eitherStatus(states);
      case 'group':
        await this.redirects(node.redirects, states);
        return this.list(node.body, states);
      default:
        throw new OutsidePathFound(ask(`The paths of a ${node.type === 'keyword' ? `"${node.keyword}" compound command` : node.type} are not checked against the workspace.`));
    }
  }

  private async redirects(redirects: ShellSimpleCommand['redirects'], states: ShellState[]): Promise<void> {
    for (const redirect of redirects) {
      if (redirect.operator !== '<') continue;
      for (const state of states) await this.check(redirect.target.value, redirect.target, state.directory);
    }
  }

  private async simple(simple: ShellSimpleCommand, states: ShellState[]): Promise<ShellState[]> {
    await this.redirects(simple.redirects, states);
    const [nameWord, ...words] = simple.words;
    const name = nameWord?.value;
    if (name === undefined) return eitherStatus(states);
    // A brace list becomes several words before the command sees them, options among them
    // (`diff a {--to-file=/etc/x,}`, `diff {-rN,} a b`): each alternative is checked as a word.
    const args = words.flatMap((word) => braceAlternatives(word));
    const follows = ownValue(LINK_FOLLOWING, name);
    const following = follows && args.find((arg) => follows(arg.value));
    if (following && !this.programsOnly) throw new OutsidePathFound(ask(`${name} ${following.value} follows symbolic links, which may lead outside the workspace.`));
    if (name === 'cd') return this.changeDirectory(args, states);
    if (name === 'git') {
      const content = showsContent(args.map((arg) => arg.value));
      for (const state of dedupeDirectories(states)) {
        if (content && !this.programsOnly) await this.gitRepository(state.directory);
        await this.gitDrivers(state.directory);
      }
    }
    const pathArguments = NON_PATH_ARGUMENT_COMMANDS.has(name) ? args.filter((arg) => arg.hasGlob) : args;
    for (const state of dedupeDirectories(states)) {
      for (const arg of pathArguments) {
        for (const candidate of pathCandidates(arg.value)) await this.check(candidate, arg, state.directory);
      }
    }
    return eitherStatus(states);
  }

  /**
   * git works on the whole repository it finds above `directory` (`git show HEAD:path`, `git log
   * -p`, `:(top)` pathspecs): in a repository whose top is outside the workspace (the workspace a
   * folder of a larger one, as in a monorepo) a subcommand that shows contents can show files
   * outside it, so it is asked; `git status` and the like, which show names, still run. So is one
   * whose git directory, common directory or an alternate object store is outside the workspace
   * (a `.git` symbolic link, a `.git` file's `gitdir:` line, a linked worktree's `commondir`),
   * since the history shown comes from there; see {@link gitRepositoryPlaces}.
   */
  private async gitRepository(directory: string): Promise<void> {
    const { places, unchecked } = await gitRepositoryPlaces(directory);
    for (const place of places) {
      if (this.boundary.isReadable(place.path)) continue;
      throw new OutsidePathFound({
        blockedPath: place.path,
        message: `git works on a repository whose ${place.what} (${place.path}) is outside the workspace (${this.boundary.roots.join(', ')}).`,
      });
    }
    if (unchecked !== undefined) throw new OutsidePathFound(ask(`git may read outside the workspace: ${unchecked}.`));
  }

  /** A diff or filter driver the repository's configuration defines runs on reads (see {@link gitDriverProblem}). */
  private async gitDrivers(directory: string): Promise<void> {
    const problem = await gitDriverProblem(directory, { gitEnvironment: this.options.gitEnvironment });
    if (problem === undefined) return;
    throw new OutsidePathFound({
      blockedPath: undefined,
      runsProgram: true,
      message: `git may run a program the repository's configuration names (a diff or filter driver): ${problem}.`,
    });
  }

  private absolute(candidate: string, directory: string): string {
    // Not normalized: `..` keeps its physical meaning after a symbolic link.
    return candidate.startsWith('~') ? this.home + candidate.slice(1) : candidate.startsWith('/') ? candidate : `${directory}/${candidate}`;
  }

  private async outsideOf(candidatePath: string): Promise<string | undefined> {
    const resolved = await this.boundary.resolve(candidatePath).catch(() => undefined);
    if (!resolved?.inside) return resolved?.real ?? candidatePath;
    const physical = await resolvePhysicalPath(candidatePath).catch(() => undefined);
    return physical !== undefined && this.boundary.contains(physical) ? undefined : (physical ?? candidatePath);
  }

  private tooMany(): never {
    throw new OutsidePathFound(ask(`The command names more than ${MAX_CHECKED_PATHS} paths to check against the workspace.`));
  }

  private async check(candidate: string, word: ShellWord, directory: string): Promise<void> {
    if (candidate === '' || this.programsOnly) return;
    if (candidate.startsWith('~') && candidate !== '~' && !candidate.startsWith('~/')) {
      throw new OutsidePathFound(ask(`The command's argument ${candidate} starts with a tilde prefix that expands to a directory that was not checked against the workspace.`));
    }
    let paths = [this.absolute(candidate, directory)];
    if (word.hasGlob) {
      if (/\[[:=.]/.test(candidate)) throw new OutsidePathFound(ask(`The command's argument ${candidate} uses a bracket class that was not checked against the workspace.`));
      const alternatives = expandBraces(candidate, MAX_CHECKED_PATHS);
      if (!alternatives) throw new OutsidePathFound(ask(`The command's argument ${candidate} expands to paths that were not checked against the workspace.`));
      paths = [];
      for (const alternative of alternatives) {
        const expanded = hasGlobSyntax(alternative) ? await expandGlob(this.absolute(alternative, directory), MAX_CHECKED_PATHS) : [this.absolute(alternative, directory)];
        if (!expanded) this.tooMany();
        paths.push(...expanded);
      }
    }
    for (const candidatePath of paths) {
      if (this.checked++ >= MAX_CHECKED_PATHS) this.tooMany();
      const blockedPath = await this.outsideOf(candidatePath);
      if (blockedPath !== undefined) {
        throw new OutsidePathFound({ blockedPath, message: `The command refers to ${blockedPath}, which is outside the workspace (${this.boundary.roots.join(', ')}).` });
      }
    }
  }

  /** `cd DIR`: succeeds (the directory changes) when DIR is an enterable directory, fails (nothing changes) when it is missing or not a directory. */
  private async changeDirectory(args: ShellWord[], states: ShellState[]): Promise<ShellState[]> {
    let index = 0;
    while (index < args.length && /^-[LPe@]+$/.test(args[index]!.value)) index++;
    if (args[index]?.value === '--') index++;
    const target = args[index] ?? { value: '~', hasExpansion: false, hasGlob: false };
    if (target.value.startsWith('-') || args.length > index + 1 || target.hasGlob) {
      throw new OutsidePathFound(ask(`cd ${args.map((arg) => arg.value).join(' ')}: only \`cd <directory>\` is checked against the workspace.`));
    }
    const after: ShellState[] = [];
    for (const state of dedupeDirectories(states)) {
      await this.check(target.value, target, state.directory);
      const raw = this.absolute(target.value, state.directory);
      const physical = await resolvePhysicalPath(raw);
      if (physical !== (await this.boundary.resolve(raw)).real) {
        throw new OutsidePathFound(ask(`cd ${target.value} goes through a symbolic link and then "..": the directory it ends up in was not checked.`));
      }
      const outcome = await cdOutcome(physical);
      if (outcome !== 'fails') after.push({ directory: physical, status: 0 });
      if (outcome !== 'succeeds') after.push({ directory: state.directory, status: 1 });
    }
    return dedupe(after);
  }
}

const dedupeDirectories = (states: ShellState[]) => [...new Map(states.map((state) => [state.directory, state])).values()];

/** Whether `cd` into a directory will succeed, fail, or may do either (no permission to tell). */
async function cdOutcome(directory: string): Promise<'succeeds' | 'fails' | 'unknown'> {
  try {
    const stat = await fs.stat(directory);
    if (!stat.isDirectory()) return 'fails';
    await fs.access(directory, fs.constants.X_OK);
    return 'succeeds';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'fails' : 'unknown';
  }
}
