import { statSync } from 'node:fs';
import path from 'node:path';
import { parseShellCommand, type ShellSimpleCommand, type ShellWord } from '../../permissions/shell/index.js';
import type { ReadTargets } from '../../tools/types.js';
import { ruleAliases } from './rule-aliases.js';
import type { WorkspaceBoundary } from './workspace-boundary.js';
import { ownValue } from '../../model/own-value.js';

/** Commands that do not read the content of their path arguments (names and metadata at most). */
const NON_READERS = new Set([
  'ls', 'echo', 'printf', 'pwd', 'cd', 'touch', 'mkdir', 'rmdir', 'rm', 'test', '[', 'true', 'false', 'which', 'type',
  'basename', 'dirname', 'realpath', 'readlink', 'stat', 'du', 'df', 'chmod', 'chown', 'chgrp', 'sleep', 'whoami',
  'id', 'uname', 'kill', 'tree', 'find', 'wc',
]);
/** Readers that walk directories given as operands. */
const RECURSIVE: Record<string, (args: string[]) => boolean> = {
  grep: (args) => args.some((arg) => /^-[a-zA-Z]*[rR]/.test(arg) || arg.startsWith('--recursive') || arg.startsWith('--dereference-recursive')),
  egrep: (args) => RECURSIVE.grep!(args),
  fgrep: (args) => RECURSIVE.grep!(args),
  rg: () => true,
  ag: () => true,
  ack: () => true,
  diff: (args) => args.some((arg) => /^-[a-zA-Z]*r/.test(arg) || arg === '--recursive'),
  cp: (args) => args.some((arg) => /^-[a-zA-Z]*[rRa]/.test(arg) || arg === '--recursive' || arg === '--archive'),
  rsync: () => true,
  scp: (args) => args.some((arg) => /^-[a-zA-Z]*r/.test(arg)),
  tar: () => true,
  zip: () => true,
};
/** find actions that read or hand files to another program. */
const FIND_READERS = /^-(exec|execdir|ok|okdir|fprint|fprint0|fprintf|fls)$/;
const GIT_CONTENT = new Set(['diff', 'show', 'log', 'grep', 'blame', 'cat-file', 'archive', 'format-patch', 'stash']);
/** `git add` reads the files it names into the object store, where any of the above prints them. */
const GIT_STORES = 'add';
/** `git add` options that store the whole tree when no path is named: `-A`, `--all`, `-u`, `--update`, `--no-ignore-removal`, in a group (`-Av`). */
const GIT_ADD_WHOLE_TREE = /^(?:-[a-zA-Z]*[Au][a-zA-Z]*|--all|--update|--no-ignore-removal)$/;
/** git's own options (before the subcommand) that take the next word as their value. */
const GIT_OPTIONS_WITH_VALUE = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--config-env', '--exec-path']);
/** A git object named by its path: `REV:path`, `:path` (the index), `:N:path` (a merge stage). */
const GIT_OBJECT_PATH = /^(?:[^/:-][^:]*)?:.+/;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;
/** Shells: with `-c` they run a script given on the command line, whose reads count too. */
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'yash', 'posh', 'rbash', 'busybox']);

/** Whether `absolutePath` is a file that exists and is not a directory. */
function isExistingFile(absolutePath: string): boolean {
  try {
    return !statSync(absolutePath).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The file a `@file` or `<file` argument names, as curl reads it (`-d @.env`, `--data-binary
 * @.env`, `-F f=@.env;type=text/plain`, `-F f=<.env`, `--data-urlencode name@.env`): the file
 * is read and sent. (`user@host` reads as a file `host` too: a rule on such a name is rare.)
 */
const FILE_REFERENCE = /^(?:[^=/@<;]*=)?[@<]([^;]+)|^[^=/@<;]+@([^;]+)/;

/**
 * The path-like parts of an argument ({@link pathsOf}) and the file of a `@file` reference in any of them.
 */
function pathsAndReferencesOf(value: string): string[] {
  const paths = pathsOf(value);
  for (const candidate of [value, ...paths]) {
    const match = FILE_REFERENCE.exec(candidate);
    const reference = match?.[1] ?? match?.[2];
    if (reference !== undefined) paths.push(reference);
  }
  return paths;
}

/**
 * The path-like parts of an argument: the word, the value of `--opt=value` or `if=value`, the
 * path of `REV:path`, and what may follow a short option in its word (`date -f.env`, `file -m/x`).
 */
function pathsOf(value: string): string[] {
  if (value.startsWith('--')) return value.includes('=') ? [value.slice(value.indexOf('=') + 1)] : [];
  if (value.startsWith('-')) {
    // Any letter of a cluster may take the rest of the word as its value: every suffix may be a path.
    const out: string[] = [];
    for (let index = 2; index < value.length; index++) out.push(value.slice(index));
    if (value.includes('=')) out.push(value.slice(value.indexOf('=') + 1));
    return out;
  }
  if (/^[a-z]+=/.test(value)) return [value.slice(value.indexOf('=') + 1)];
  // `REV:path`, `:path`, and `:N:path` (the index at a merge stage).
  const revision = /^(?::[0-3]:|[^/:]*:)(.+)$/.exec(value);
  return revision ? [value, revision[1]!] : [value];
}

/** Collects what one command line reads; `directories` are lexical, relative to the workspace root. */
class ReadCollector {
  readonly targets: Required<Omit<ReadTargets, 'unknown'>> & { unknown: string | undefined } = { paths: [], directories: [], skipsRuleMatches: false, unknown: undefined };
  private directories = ['.'];
  /** Scripts a command runs (`bash -c '…'`, `eval …`), read like the line itself. */
  readonly scripts: string[] = [];

  constructor(private readonly boundary: WorkspaceBoundary) {}

  private unknown(reason: string): void {
    this.targets.unknown ??= reason;
  }

  private place(value: string, directory: string): string {
    if (value.startsWith('~/') || value === '~') return this.boundary.lexical(value);
    return path.isAbsolute(value) ? value : path.posix.join(directory, value);
  }

  /** @param asDirectory - whether the path may be a directory all of whose files are read (or a test of the path placed). */
  private read(word: ShellWord, asDirectory: boolean | ((placed: string) => boolean)): void {
    if (word.hasExpansion) return this.unknown(`${word.value} is expanded at run time`);
    for (const value of pathsAndReferencesOf(word.value)) {
      if (value === '' || value === '-') continue;
      if (word.hasGlob) {
        this.unknown(`the glob ${value} is expanded at run time`);
        continue;
      }
      for (const directory of this.directories) {
        const placed = this.place(value, directory);
        this.targets.paths.push(placed, ...ruleAliases(this.boundary, placed));
        if (asDirectory === true || (asDirectory !== false && asDirectory(this.boundary.lexical(placed)))) this.targets.directories.push(placed);
      }
    }
  }

  /**
   * What a git command reads: the objects it names by path (`HEAD:.env`, `:.env`, `:0:.env`),
   * its pathspecs after `--`, and its other operands, which may be paths (`git blame .env`,
   * `git log -p .env`, `git add .env`) or revisions (read as paths, harmlessly). A content command
   * that names no path reads the whole tree (`git log -p`, `git show HEAD`). `-C dir` moves
   * where its paths are found.
   */
  private git(args: ShellWord[]): void {
    let directories = this.directories;
    let index = 0;
    for (; index < args.length && args[index]!.value.startsWith('-'); index++) {
      if (!GIT_OPTIONS_WITH_VALUE.has(args[index]!.value)) continue;
      const value = args[++index];
      if (args[index - 1]!.value !== '-C' || value === undefined) continue;
      if (value.hasExpansion || value.hasGlob) return this.unknown('git -C runs in a directory known only at run time');
      directories = directories.map((directory) => this.place(value.value, directory));
    }
    const subcommand = args[index]?.value;
    if (subcommand === undefined || (!GIT_CONTENT.has(subcommand) && subcommand !== GIT_STORES)) return;
    const rest = args.slice(index + 1);
    const dashDash = rest.findIndex((arg) => arg.value === '--');
    const before = dashDash === -1 ? rest : rest.slice(0, dashDash);
    const pathspecs = dashDash === -1 ? [] : rest.slice(dashDash + 1);
    const objects = before.filter((arg) => GIT_OBJECT_PATH.test(arg.value));
    const operands = before.filter((arg) => !arg.value.startsWith('-') && !GIT_OBJECT_PATH.test(arg.value));
    const stores = subcommand === GIT_STORES;
    if (stores && before.some((arg) => arg.value.startsWith('--pathspec-from-file'))) return this.unknown('git add takes its paths from a file');
    const outer = this.directories;
    this.directories = directories;
    for (const arg of [...objects, ...pathspecs]) this.read(arg, true);
    // What git add names may be a directory (`git add .`), all of whose files it stores, or a
    // pathspec git matches itself (`git add '*.env'`): only an existing file is just itself.
    for (const arg of operands) this.read(arg, stores && ((placed) => !isExistingFile(placed)));
    const named = objects.length > 0 || pathspecs.length > 0 || (stores && operands.length > 0);
    // A content command that names nothing reads the whole tree; `git add -A` or `-u` stores it.
    if (!named && (!stores || before.some((arg) => GIT_ADD_WHOLE_TREE.test(arg.value)))) this.targets.directories.push(...directories);
    this.directories = outer;
  }

  command(simple: ShellSimpleCommand): void {
    for (const redirect of simple.redirects) {
      if (redirect.operator === '<' || redirect.operator === '<>') this.read(redirect.target, false);
    }
    let start = 0;
    while (start < simple.words.length - 1 && ASSIGNMENT.test(simple.words[start]!.value)) start++;
    const [nameWord, ...args] = simple.words.slice(start);
    if (nameWord === undefined) return;
    if (nameWord.hasExpansion) return this.unknown(`the command ${nameWord.value} is only known at run time`);
    const name = path.posix.basename(nameWord.value);
    const values = args.map((arg) => arg.value);
    if (name === 'cd') {
      const target = args.find((arg) => !arg.value.startsWith('-'));
      if (target?.hasExpansion || target?.hasGlob) return this.unknown('cd into a directory known only at run time');
      // Over-approximated: the directory before and after every cd stay candidates.
      const next = this.directories.map((directory) => (target === undefined ? this.boundary.lexical('~') : this.place(target.value, directory)));
      this.directories = [...new Set([...this.directories, ...next])];
      return;
    }
    if (name === 'find' && values.some((value) => FIND_READERS.test(value))) return this.unknown(`find ${values.find((value) => FIND_READERS.test(value))} reads the files it finds`);
    if (name === 'git') return this.git(args);
    // A script run by a shell or eval (also behind sudo, env, timeout …) reads what its commands read.
    const runner = [nameWord, ...args].findIndex((word) => SHELLS.has(path.posix.basename(word.value)) || word.value === 'eval');
    if (runner !== -1) {
      const rest = [nameWord, ...args].slice(runner + 1);
      if ([nameWord, ...args][runner]!.value === 'eval') {
        if (rest.some((word) => word.hasExpansion)) return this.unknown('eval runs a script known only at run time');
        this.scripts.push(rest.map((word) => word.value).join(' '));
        return;
      }
      const option = rest.findIndex((word) => /^-[a-zA-Z]*c[a-zA-Z]*$/.test(word.value));
      const script = option === -1 ? undefined : rest.slice(option + 1).find((word) => !word.value.startsWith('-'));
      if (script?.hasExpansion) return this.unknown('the shell runs a script known only at run time');
      if (script !== undefined) {
        this.scripts.push(script.value);
        return;
      }
      if (!rest.some((word) => !word.value.startsWith('-'))) return this.unknown('the shell reads its commands from its input');
    }
    if (NON_READERS.has(name)) return;
    if (name === 'xargs' || name === 'parallel') return this.unknown(`${name} takes the names of the files to read from its input`);
    const recursive = ownValue(RECURSIVE, name)?.(values) ?? false;
    // Everything else counts as reading every path-like argument: an unknown program may read
    // any file it is given (and sudo, env, xargs, timeout … pass theirs on).
    for (const arg of args) this.read(arg, recursive);
    if (recursive && args.every((arg) => arg.value.startsWith('-'))) this.targets.directories.push(...this.directories);
  }
}

/**
 * What a Bash command reads, for `Read(...)` deny and ask rules: the path arguments of every
 * command except a few that only look at names (`ls`, `stat`, `touch`, …), input redirections,
 * the files of `git show REV:path`, `git show :path`, `git blame path`, `git diff -- path` and
 * `git add path`, directories walked by recursive readers
 * (`grep -r`, `rg`, `cp -r`, `tar`, `git diff` without paths), each relative to every directory a
 * `cd` may have led to, with their real paths. Globs, expansions and `find -exec` read what cannot
 * be named before the command runs: `unknown`. A line that does not parse is `unknown` too.
 */
export function bashReadTargets(boundary: WorkspaceBoundary, command: string): ReadTargets {
  const collector = new ReadCollector(boundary);
  const pending = [command];
  for (let depth = 0; pending.length > 0 && depth < 16; depth++) {
    const parsed = parseShellCommand(pending.shift()!);
    if (parsed.error !== undefined) return { paths: collector.targets.paths, unknown: `the command could not be parsed (${parsed.error})` };
    for (const simple of parsed.commands) collector.command(simple);
    pending.push(...parsed.substitutions, ...collector.scripts.splice(0));
  }
  const { paths, directories, unknown } = collector.targets;
  return { paths: [...new Set(paths)], directories: [...new Set(directories)], ...(unknown === undefined ? {} : { unknown }) };
}
