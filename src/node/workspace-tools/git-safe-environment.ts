/**
 * Git configuration pinned for every command the Bash tool runs, so that "read-only" git
 * subcommands cannot be made to run programs named in a repository's own configuration.
 */

/**
 * An external diff that reproduces a plain unified diff with GNU/BSD `diff` (git runs it through
 * `sh -c` with `path old-file old-hex old-mode new-file new-hex new-mode`). No value of
 * `diff.external` turns it off (git 2.39 tries to run an empty value and fails), so it is pinned
 * to this fixed, harmless program instead; `|| :` because git stops when the program fails.
 */
export const SAFE_EXTERNAL_DIFF = 'f() { diff -u --label "a/$1" --label "b/$1" -- "$2" "$5" || :; }; f';

/**
 * Entries added through `GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_n`/`GIT_CONFIG_VALUE_n`. That is the
 * "command" scope: it overrides system, global, repository and worktree configuration (and any
 * file they include), and is inherited by git processes git itself starts (submodules).
 */
export const PINNED_GIT_CONFIG: ReadonlyArray<readonly [key: string, value: string]> = [
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', '/dev/null'],
  ['core.pager', 'cat'],
  ['diff.external', SAFE_EXTERNAL_DIFF],
  ['log.showSignature', 'false'],
  // A repository's default format (`%G?`) would check signatures on a plain `git log` or `git show`:
  // gpg runs and writes ~/.gnupg. The built-in default instead.
  ['format.pretty', 'medium'],
  ['gpg.program', 'gpg'],
  ['gpg.openpgp.program', 'gpg'],
  ['gpg.x509.program', 'gpgsm'],
  ['gpg.ssh.program', 'ssh-keygen'],
  // A bare repository written as ordinary files (config, info/attributes) would bring its own drivers.
  ['safe.bareRepository', 'explicit'],
  // `git diff` otherwise writes the stat data it refreshed back to .git/index (GIT_OPTIONAL_LOCKS
  // does not cover it): a read-only command, run unasked and in plan mode, changes nothing on disk.
  ['diff.autoRefreshIndex', 'false'],
];

/** Variables removed: they would take precedence over the pinned configuration. */
const REMOVED_VARIABLES = ['GIT_EXTERNAL_DIFF'];

/**
 * Returns a copy of `env` in which git cannot run a pager, hook, fsmonitor daemon, external diff
 * or signature program chosen by a repository's configuration: the entries of
 * {@link PINNED_GIT_CONFIG} are appended after any `GIT_CONFIG_COUNT` entries already present
 * (a later entry wins), `GIT_PAGER` and `PAGER` are `cat`, `GIT_OPTIONAL_LOCKS` is `0` (with
 * `diff.autoRefreshIndex` off, `git status` and `git diff` do not write back the index they refreshed), `GIT_NO_LAZY_FETCH` is `1`
 * (git ≥ 2.45 and its security releases: a partial clone's missing object is not fetched through the repository's remote), and `GIT_EXTERNAL_DIFF` is removed.
 * A `GIT_CONFIG_COUNT` that is not a non-negative integer is replaced (git would refuse to run).
 *
 * Not closed here: `diff.<driver>.textconv`, `diff.<driver>.command` and `filter.<driver>.clean` /
 * `.smudge` / `.process` for a driver named in `.gitattributes` — driver names are arbitrary, so
 * they cannot be pinned; the Bash tool asks instead (`gitDriverProblem`) before a git command in a
 * repository whose own config defines one. Bare repositories are only used when
 * named explicitly (`--git-dir`, which the classifier does not treat as read-only). With git before
 * 2.45, a read of a partial clone's missing object still fetches it with the repository's
 * `core.sshCommand` (or `uploadpack`, remote helper, …): commands that run unasked get
 * {@link gitReadOnlyEnvironment} on top, which closes that.
 * @example spawn('bash', ['-c', command], { env: gitSafeEnvironment(process.env) })
 */
export function gitSafeEnvironment(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = { ...env };
  for (const name of REMOVED_VARIABLES) delete out[name];
  const existing = out.GIT_CONFIG_COUNT;
  let count = existing !== undefined && /^\d{1,4}$/.test(existing) ? Number(existing) : 0;
  for (const [key, value] of PINNED_GIT_CONFIG) {
    out[`GIT_CONFIG_KEY_${count}`] = key;
    out[`GIT_CONFIG_VALUE_${count}`] = value;
    count++;
  }
  out.GIT_CONFIG_COUNT = String(count);
  out.GIT_PAGER = 'cat';
  out.PAGER = 'cat';
  // A read-only command runs unasked, in plan mode too: `git status` must not write back the
  // index it refreshed (an optional lock), which also races the user's own git in the workspace.
  out.GIT_OPTIONAL_LOCKS = '0';
  // In a partial clone, reading an object not yet fetched (`git show`, `git log -p`) fetches it
  // through the repository's configured remote and `core.sshCommand`: a program of the
  // repository's choosing, run by a read-only command. Git 2.45 and later honour this and fail the
  // read instead (so do the 2.39.4+ … 2.44.1+ security releases); older git ignores it, which
  // gitReadOnlyEnvironment closes for the commands that run unasked.
  out.GIT_NO_LAZY_FETCH = '1';
  return out;
}

/**
 * Returns a copy of a {@link gitSafeEnvironment} for a command that runs unasked because it only
 * reads (and for every command in plan mode): `GIT_ALLOW_PROTOCOL` is empty, so git refuses every
 * transport (ssh, file, http, git, remote helpers) before it starts one. A read of a partial
 * clone's missing object (`git show`, `git log -p`, `git blame`, `git diff`) would otherwise fetch
 * it with the repository's own `core.sshCommand`, `remote.<name>.uploadpack`, `core.gitProxy`,
 * `remote.<name>.vcs` helper or credential helper: programs of the repository's choosing. Git
 * honours the variable on every version in use (since 2.6.1; `GIT_NO_LAZY_FETCH` only since
 * 2.45), ahead of any `protocol.*.allow` configuration, and passes it to the git processes it
 * starts. Such a read fails ("transport 'ssh' not allowed") instead; commands the host approves
 * keep their transports (`git fetch`, `git push`).
 * @example spawn('bash', ['-c', 'git log -p'], { env: gitReadOnlyEnvironment(gitSafeEnvironment(process.env)) })
 */
export function gitReadOnlyEnvironment(env: Record<string, string | undefined>): Record<string, string | undefined> {
  return { ...env, GIT_ALLOW_PROTOCOL: '' };
}
