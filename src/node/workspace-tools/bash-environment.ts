/**
 * The environment Bash commands get: a scrubbed copy of the host's, so that what the model can
 * print (`printenv`, `echo $X`) holds no secret the host did not hand over on purpose.
 */

/**
 * Variables of the host's environment every Bash command inherits by default: what programs need
 * to find each other, speak the user's language and find a scratch directory. A name ending in
 * `*` is a prefix. Everything else (`ANTHROPIC_API_KEY`, cloud credentials, tokens, `SSH_AUTH_SOCK`)
 * stays with the host unless `workspaceTools({ inheritEnv })` names it.
 */
export const DEFAULT_INHERITED_ENV: readonly string[] = Object.freeze([
  'PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LANGUAGE', 'LC_*', 'TERM', 'COLORTERM', 'NO_COLOR',
  'TMPDIR', 'TMP', 'TEMP', 'TZ', 'SYSTEMROOT', 'COMSPEC', 'PATHEXT', 'WINDIR',
]);

/** Whether `name` is allowed by a list of names and `PREFIX*` patterns (`*` alone allows everything). */
export function isInherited(name: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => (pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern));
}

/** Options of {@link bashEnvironment}. */
export interface BashEnvironmentOptions {
  /** The host's environment (`process.env`). */
  hostEnv: Record<string, string | undefined>;
  /** Names or `PREFIX*` patterns inherited on top of {@link DEFAULT_INHERITED_ENV}. */
  inheritEnv: readonly string[];
  /** Variables set as given (`undefined` removes one), on top of the inherited ones. */
  env: Record<string, string | undefined>;
}

/**
 * The environment of Bash commands: the allow-listed variables of the host's environment, then
 * the host's explicit `env` entries, then `GIT_OPTIONAL_LOCKS=0` unless set.
 * @example bashEnvironment({ hostEnv: process.env, inheritEnv: ['NODE_*'], env: { CI: '1' } })
 */
export function bashEnvironment(options: BashEnvironmentOptions): Record<string, string | undefined> {
  const patterns = [...DEFAULT_INHERITED_ENV, ...options.inheritEnv];
  const out: Record<string, string | undefined> = {};
  // The names first, and only the inherited values read: reading every value of `process.env`
  // (each one a call into the C library's environment) cost three times as much.
  for (const name of Object.keys(options.hostEnv)) {
    if (!isInherited(name, patterns)) continue;
    const value = options.hostEnv[name];
    if (value !== undefined) out[name] = value;
  }
  for (const [name, value] of Object.entries(options.env)) {
    if (value === undefined) delete out[name];
    else out[name] = value;
  }
  if (out.GIT_OPTIONAL_LOCKS === undefined) out.GIT_OPTIONAL_LOCKS = '0';
  return out;
}
