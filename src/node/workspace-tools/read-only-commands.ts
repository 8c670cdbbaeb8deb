/**
 * The allow-list behind {@link classifyBashCommand}: commands that cannot change files, and for
 * those that have writing options or subcommands, a check of their arguments. Anything not
 * listed is not read-only.
 */

/** How one allow-listed command is judged. */
export interface ReadOnlyCommandSpec {
  /**
   * Unquoted glob or brace characters are allowed in its arguments. Only for commands none of
   * whose options can write or run programs, since a glob can expand to a file named like an option.
   */
  globSafe: boolean;
  /** Returns why these arguments are not read-only, or `undefined` when they are. */
  check?: (args: string[]) => string | undefined;
}

/** True when `arg` is `--name[=value]` and `name` is a (possibly abbreviated) one of `options`. */
function isLongOption(arg: string, options: string[]): boolean {
  if (!arg.startsWith('--') || arg === '--') return false;
  const name = arg.slice(2).split('=')[0]!;
  return name.length > 0 && options.some((option) => option.startsWith(name));
}

/** True when `arg` is a cluster of short options (`-rno`) containing one of `letters`. */
function hasShortOption(arg: string, letters: string): boolean {
  if (!arg.startsWith('-') || arg.startsWith('--') || arg === '-') return false;
  return [...arg.slice(1)].some((letter) => letters.includes(letter));
}

function positional(args: string[]): string[] {
  const dashDash = args.indexOf('--');
  const before = dashDash === -1 ? args : args.slice(0, dashDash);
  const after = dashDash === -1 ? [] : args.slice(dashDash + 1);
  return [...before.filter((arg) => !arg.startsWith('-') || arg === '-'), ...after];
}

const FIND_WRITERS = new Set(['-delete', '-exec', '-execdir', '-ok', '-okdir', '-fprint', '-fprint0', '-fprintf', '-fls']);

function checkFind(args: string[]): string | undefined {
  const writer = args.find((arg) => FIND_WRITERS.has(arg));
  return writer ? `find ${writer} can delete files or run commands` : undefined;
}

function checkSort(args: string[]): string | undefined {
  const bad = args.find(
    (arg) => hasShortOption(arg, 'oT') || isLongOption(arg, ['output', 'temporary-directory', 'compress-program']),
  );
  return bad ? `sort ${bad} writes files or runs a program` : undefined;
}

function checkUniq(args: string[]): string | undefined {
  return positional(args).length > 1 ? 'uniq with two file arguments writes the second one' : undefined;
}

function checkRg(args: string[]): string | undefined {
  const bad = args.find((arg) => isLongOption(arg, ['pre', 'hostname-bin']));
  return bad ? `rg ${bad} runs another program` : undefined;
}

function checkFile(args: string[]): string | undefined {
  const bad = args.find((arg) => hasShortOption(arg, 'C') || isLongOption(arg, ['compile']));
  if (bad) return `file ${bad} writes a compiled magic file`;
  const list = args.find((arg) => hasShortOption(arg, 'f') || isLongOption(arg, ['files-from']));
  return list ? `file ${list} opens the files a list names, which cannot be checked` : undefined;
}

function checkChecksum(name: string) {
  return (args: string[]): string | undefined => {
    const check = args.find((arg) => hasShortOption(arg, 'c') || isLongOption(arg, ['check']));
    return check ? `${name} ${check} opens the files a checksum list names, which cannot be checked` : undefined;
  };
}

function checkTree(args: string[]): string | undefined {
  // -R with -H writes a 00Tree.html into every directory.
  const bad = args.find((arg) => hasShortOption(arg, 'oR') || isLongOption(arg, ['output']));
  if (bad) return `tree ${bad} writes its output to files`;
  const list = args.find((arg) => isLongOption(arg, ['fromfile']));
  return list ? `tree ${list} reads the paths from a file, which cannot be checked` : undefined;
}

function checkDate(args: string[]): string | undefined {
  const bad = args.find((arg) => hasShortOption(arg, 's') || isLongOption(arg, ['set']) || (!arg.startsWith('-') && !arg.startsWith('+')));
  return bad ? `date ${bad} may set the clock` : undefined;
}

function checkTest(args: string[]): string | undefined {
  // -v and -R take a variable name, whose array subscript bash evaluates (and so runs commands in).
  const name = args.find((arg) => arg === '-v' || arg === '-R');
  return name ? `test ${name} evaluates a variable name, whose array subscript can run commands` : undefined;
}

function checkPrintf(args: string[]): string | undefined {
  // -v assigns a shell variable (PATH, CDPATH, GIT_CONFIG_VALUE_0, …) that the rest of the line runs with.
  const assigns = args.find((arg) => arg.startsWith('-v'));
  return assigns ? `printf ${assigns} assigns a shell variable` : undefined;
}

function checkCommand(args: string[]): string | undefined {
  return args.length > 0 && (args[0] === '-v' || args[0] === '-V') ? undefined : 'command runs another command';
}

const GIT_BRANCH_FLAGS = new Set(['-a', '-r', '-v', '-vv', '-l', '--list', '--all', '--remotes', '--verbose', '--show-current', '--no-color', '--color', '--column', '--no-column', '-i', '--ignore-case']);
const GIT_BRANCH_VALUE_FLAGS = new Set(['--contains', '--no-contains', '--merged', '--no-merged', '--points-at', '--sort', '--format']);

function checkGitBranch(args: string[]): string | undefined {
  const listing = args.includes('--list') || args.includes('-l');
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (GIT_BRANCH_FLAGS.has(arg)) continue;
    const flag = arg.split('=')[0]!;
    if (GIT_BRANCH_VALUE_FLAGS.has(flag)) {
      if (!arg.includes('=')) index++;
      continue;
    }
    if (!arg.startsWith('-') && listing) continue;
    return `git branch ${arg} may create, rename or delete branches`;
  }
  return undefined;
}

// `git status` and `git diff` refresh the stat cache of .git/index in memory only: the Bash tool
// runs them with GIT_OPTIONAL_LOCKS=0 and diff.autoRefreshIndex=false (gitSafeEnvironment), so
// they write nothing. `describe --dirty` and `--broken` write the index (or a split index's shared
// file) whatever the setting (git 2.39), so only `describe` without them is here.
const GIT_READ_ONLY_SUBCOMMANDS = new Set(['status', 'diff', 'log', 'show', 'rev-parse', 'ls-files', 'blame', 'shortlog', 'describe']);

/** The built-in `--pretty`/`--format` names; any other name is an alias a repository's config may define. */
const GIT_PRETTY_NAMES = new Set(['oneline', 'short', 'medium', 'full', 'fuller', 'reference', 'email', 'mboxrd', 'raw']);

/**
 * Why git arguments may run a signature program or write: checking a signature (`--show-signature`,
 * a `%G…` placeholder) runs gpg, which creates `~/.gnupg` and may start its agent; a `--pretty`
 * alias may hide such a placeholder in the repository's config.
 */
function gitArgumentProblem(subcommand: string, args: string[]): string | undefined {
  const output = args.find((arg) => isLongOption(arg, ['output']));
  if (output) return `git ${subcommand} ${output} writes a file`;
  const signature = args.find((arg) => arg === '--show-signature' || /%G/.test(arg));
  if (signature) return `git ${subcommand} ${signature} checks signatures with gpg, which writes its files in the home directory`;
  const alias = args.find((arg) => {
    const value = /^--(?:pretty|format)=(.*)$/s.exec(arg)?.[1];
    // A placeholder string or `format:…` is the format itself; a bare word is a name.
    return value !== undefined && value !== '' && !value.includes('%') && !/^t?format:/.test(value) && !GIT_PRETTY_NAMES.has(value);
  });
  if (alias) return `git ${subcommand} ${alias} names a format the repository's configuration may define`;
  if (subcommand === 'describe') {
    const dirty = args.find((arg) => /^--(d|di|dir|dirt|dirty|b|br|bro|brok|broke|broken)(=|$)/.test(arg));
    if (dirty) return `git describe ${dirty} refreshes and writes .git/index`;
  }
  return undefined;
}

/** `git stash list` and `git stash show` only read; any other `git stash` changes the stash or the work tree. */
function checkGitStash(args: string[]): string | undefined {
  const [action] = args;
  return action === 'list' || action === 'show' ? undefined : `git stash ${action ?? ''}`.trimEnd() + ' changes the stash or the working tree';
}

function checkGit(args: string[]): string | undefined {
  let rest = args;
  while (rest[0] === '--no-pager' || rest[0] === '-P') rest = rest.slice(1);
  const [subcommand, ...subArgs] = rest;
  if (subcommand === undefined) return undefined;
  if (subcommand.startsWith('-')) return `git option ${subcommand} before the subcommand is not classified`;
  const problem = gitArgumentProblem(subcommand, subArgs);
  if (problem) return problem;
  if (GIT_READ_ONLY_SUBCOMMANDS.has(subcommand)) return undefined;
  if (subcommand === 'stash') return checkGitStash(subArgs);
  if (subcommand === 'branch') return checkGitBranch(subArgs);
  if (subcommand === 'remote') {
    return subArgs.every((arg) => arg === '-v' || arg === '--verbose') ? undefined : 'git remote with arguments changes remotes';
  }
  return `git ${subcommand} is not a read-only git subcommand`;
}

const FREE: ReadOnlyCommandSpec = { globSafe: true };

/** Read-only commands by name. */
export const READ_ONLY_COMMANDS: ReadonlyMap<string, ReadOnlyCommandSpec> = new Map<string, ReadOnlyCommandSpec>([
  ...[
    'ls', 'cat', 'head', 'tail', 'wc', 'grep', 'egrep', 'fgrep', 'pwd', 'echo', 'stat', 'du', 'df',
    'which', 'type', 'whoami', 'id', 'uname', 'basename', 'dirname', 'realpath', 'readlink', 'true', 'false',
    'sleep', 'cd', 'diff', 'cmp', 'comm', 'cut', 'tr', 'nl', 'od',
  ].map((name): [string, ReadOnlyCommandSpec] => [name, FREE]),
  ['test', { globSafe: false, check: checkTest }],
  ['[', { globSafe: false, check: checkTest }],
  ['printf', { globSafe: false, check: checkPrintf }],
  // With -c they open the files a checksum list names: paths that cannot be checked here.
  ...['sha1sum', 'sha224sum', 'sha256sum', 'sha384sum', 'sha512sum', 'md5sum', 'b2sum', 'cksum'].map(
    (name): [string, ReadOnlyCommandSpec] => [name, { globSafe: true, check: checkChecksum(name) }],
  ),
  ['find', { globSafe: false, check: checkFind }],
  ['sort', { globSafe: false, check: checkSort }],
  ['uniq', { globSafe: false, check: checkUniq }],
  ['rg', { globSafe: false, check: checkRg }],
  ['file', { globSafe: false, check: checkFile }],
  ['tree', { globSafe: false, check: checkTree }],
  ['date', { globSafe: false, check: checkDate }],
  ['git', { globSafe: false, check: checkGit }],
  ['command', { globSafe: false, check: checkCommand }],
]);

/**
 * Commands that print environment variables (all of them, or with the right options): never
 * read-only, since the variables may hold secrets (an API key), and the host should be asked.
 */
export const ENVIRONMENT_DUMPS: ReadonlySet<string> = new Set([
  'printenv', 'env', 'export', 'set', 'declare', 'typeset', 'local', 'readonly', 'compgen', 'alias', 'shopt',
]);

/**
 * Commands whose arguments are not file paths (used when looking for paths outside the workspace;
 * their globbed arguments are still checked). Not `date`: `--file=`/`--reference=` read files.
 */
export const NON_PATH_ARGUMENT_COMMANDS: ReadonlySet<string> = new Set([
  'echo', 'printf', 'sleep', 'true', 'false', 'pwd', 'whoami', 'id', 'uname', 'which', 'type',
  'command', 'printenv', 'env', 'basename', 'dirname',
]);
