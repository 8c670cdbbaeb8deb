import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { gitRepositoryPlaces } from './git-repository-places.js';

/** Largest configuration file read; a larger one is not checked (and so asked about). */
const MAX_CONFIG_BYTES = 1024 * 1024;
/** Most directories visited below a repository's `modules` folder (its submodules' git directories). */
const MAX_MODULE_DIRECTORIES = 1000;

/** A `[diff "name"]` / `[filter "name"]` section (or the old `[diff.name]` spelling): a driver's. */
const DRIVER_SECTION = /\[\s*(?:diff|filter)\s*[".]/i;
/** A driver variable naming a program (or, `cachetextconv`, writing refs/notes/textconv/… on a read), also right after a section header. */
const DRIVER_PROGRAM = /(?:^|[\s\]])(textconv|command|cachetextconv|clean|smudge|process)\s*(?:=|$)/im;
const INCLUDE = /^\s*\[\s*include/im;

/** Why one configuration file may make git run a program on a read, or `undefined`. Errs towards a reason. */
async function configurationProblem(file: string): Promise<string | undefined> {
  let text: string;
  try {
    const handle = await fs.open(file, 'r');
    try {
      const buffer = Buffer.alloc(MAX_CONFIG_BYTES + 1);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      if (bytesRead > MAX_CONFIG_BYTES) return `${file} is larger than ${MAX_CONFIG_BYTES} bytes, so it was not checked`;
      text = buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? undefined : `${file} could not be read (${code ?? String(error)})`;
  }
  if (INCLUDE.test(text)) return `${file} includes other configuration files, which were not checked`;
  const program = DRIVER_SECTION.test(text) ? DRIVER_PROGRAM.exec(text) : null;
  return program ? `${file} defines a diff or filter driver (\`${program[1]}\`)` : undefined;
}

/**
 * The configuration files of the submodules whose git directories are kept below `modules`: a
 * folder there with a `config` is a submodule's git directory (whose own `modules` holds nested
 * ones); any other folder is part of a submodule name with slashes (`modules/lib/a`).
 */
async function submoduleConfigurations(gitDirectory: string): Promise<string[] | string> {
  const files: string[] = [];
  const pending = [path.join(gitDirectory, 'modules')];
  let visited = 0;
  while (pending.length > 0) {
    const directory = pending.pop()!;
    const entries = await fs.readdir(directory, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isDirectory()) continue;
      if (++visited > MAX_MODULE_DIRECTORIES) return `${gitDirectory} has more than ${MAX_MODULE_DIRECTORIES} submodule folders, which were not checked`;
      const full = path.join(directory, entry.name);
      const isGitDirectory = await fs.lstat(path.join(full, 'config')).then(() => true, () => false);
      if (isGitDirectory) {
        files.push(path.join(full, 'config'), path.join(full, 'config.worktree'));
        pending.push(path.join(full, 'modules'));
      } else {
        pending.push(full);
      }
    }
  }
  return files;
}

/** Most submodules checked out in one working tree that are looked into; more is a reason. */
const MAX_CHECKED_OUT_SUBMODULES = 256;
/** Nesting of checked-out submodules looked into (a submodule's own submodules, …). */
const MAX_SUBMODULE_DEPTH = 4;
/** Longest a `git rev-parse` / `git ls-files` listing the submodules may take. */
const LISTING_TIMEOUT_MS = 10_000;

/** Options of {@link gitDriverProblem}. */
export interface GitDriverProblemOptions {
  /**
   * The environment git commands get (the Bash tool's, for commands that run unasked): used to list
   * the submodules checked out in the working tree (`git ls-files -s`). Without it they are not looked into.
   */
  gitEnvironment?: Record<string, string | undefined>;
}

function runGit(args: string[], cwd: string, env: Record<string, string | undefined>): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: LISTING_TIMEOUT_MS }, (error, stdout) => resolve(error ? undefined : stdout));
  });
}

/**
 * The submodules checked out in the working tree git finds from `directory`, as directories: the
 * index's gitlinks (mode 160000) whose folder has a `.git` of its own — a submodule not absorbed
 * into `modules`, an embedded repository added with `git add`. `git status` and `git diff` run git
 * in each of them, with that repository's configuration. `undefined` when git finds no working
 * tree there (it would not run either); a string when they could not be listed.
 */
async function checkedOutSubmodules(directory: string, env: Record<string, string | undefined>): Promise<string[] | string | undefined> {
  const top = (await runGit(['rev-parse', '--show-toplevel'], directory, env))?.trim();
  if (!top) return undefined;
  const listing = await runGit(['ls-files', '--stage', '-z'], top, env);
  if (listing === undefined) return `the submodules of ${top} could not be listed`;
  const submodules: string[] = [];
  for (const record of listing.split('\0')) {
    if (!record.startsWith('160000 ')) continue;
    const folder = path.join(top, record.slice(record.indexOf('\t') + 1));
    if (!(await fs.lstat(path.join(folder, '.git')).then(() => true, () => false))) continue;
    if (submodules.push(folder) > MAX_CHECKED_OUT_SUBMODULES) return `${top} has more than ${MAX_CHECKED_OUT_SUBMODULES} submodules checked out, which were not checked`;
  }
  return submodules;
}

/**
 * Why git, run in `directory` (a real path), may run a program that its repository's own
 * configuration names when it only reads, or `undefined`. The pinned configuration
 * (`gitSafeEnvironment`) covers the fixed names (pager, fsmonitor, hooks, `diff.external`, gpg); a
 * diff or filter driver has a name of the repository's choosing (`diff.<name>.textconv`,
 * `.command`, `filter.<name>.clean`, `.smudge`, `.process`), which `.gitattributes` selects, so it
 * cannot be pinned: `git diff`, `git show`, `git log -p`, `git blame`, `git status` and
 * `git ls-files -m` run it. `diff.<name>.cachetextconv` makes such a read write
 * `refs/notes/textconv/<name>`. So the configuration files of the repository — the git
 * directory's, its common directory's, each submodule's below `modules`, and those of the
 * submodules checked out in the working tree (nested too), into which `git status` and `git diff`
 * go — are read, and one that defines such a variable, includes another file, or cannot be read is
 * a reason. Drivers from the user's own (global, system) configuration, such as Git LFS's, are
 * not looked at: the user chose them.
 */
export async function gitDriverProblem(directory: string, options: GitDriverProblemOptions = {}): Promise<string | undefined> {
  return repositoryProblem(directory, options, 0, new Set());
}

async function repositoryProblem(directory: string, options: GitDriverProblemOptions, depth: number, seen: Set<string>): Promise<string | undefined> {
  const { places, unchecked, directoriesKnown } = await gitRepositoryPlaces(directory);
  // A `core.worktree` or an include leaves the git directories known; their files are read below (an include is a reason there).
  if (unchecked !== undefined && !directoriesKnown) return `the repository's configuration could not be checked: ${unchecked}`;
  let found = false;
  for (const place of places) {
    if (place.what !== 'git directory' && place.what !== 'common git directory') continue;
    if (seen.has(place.path)) continue;
    seen.add(place.path);
    found = true;
    const modules = await submoduleConfigurations(place.path);
    if (typeof modules === 'string') return modules;
    for (const file of [path.join(place.path, 'config'), path.join(place.path, 'config.worktree'), ...modules]) {
      const problem = await configurationProblem(file);
      if (problem) return problem;
    }
  }
  if (!found || options.gitEnvironment === undefined) return undefined;
  const submodules = await checkedOutSubmodules(directory, options.gitEnvironment);
  if (typeof submodules === 'string') return submodules;
  for (const submodule of submodules ?? []) {
    if (depth >= MAX_SUBMODULE_DEPTH) return `${submodule} is a submodule nested deeper than ${MAX_SUBMODULE_DEPTH} levels, which was not checked`;
    const problem = await repositoryProblem(submodule, options, depth + 1, seen);
    if (problem) return problem;
  }
  return undefined;
}
