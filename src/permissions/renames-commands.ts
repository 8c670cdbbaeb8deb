/** A shell alias being defined: `alias g=git`, also in a script (`bash -c 'alias g=git…'`). */
const SHELL_ALIAS = /(^|[\s;&|({`])alias\s+(-p\s+)?[^\s=;&|]+=/m;
/** A git alias given for one command (`git -c alias.p=push`, `--config-env=alias.p=…`) or written to its config (`git config alias.p push`). */
const GIT_ALIAS = /(-c\s*|--config-env[=\s]\s*|\bconfig\b[^;&|\n]*?\s)alias\./i;
/** git configuration given in the environment, which may define an alias (`GIT_CONFIG_KEY_0=alias.p`). */
const GIT_CONFIG_ENVIRONMENT = /\bGIT_CONFIG_(PARAMETERS|COUNT|KEY_\d+)\s*=/;

/**
 * Why a command line may run a command under another name, if it does: it defines a shell alias
 * (bash expands them where `expand_aliases` is on) or a git alias (`git -c alias.p=push p` is
 * `git push`; `alias.x=!cmd` runs any command). No command rule can be checked against such a
 * line, so it is asked. Read over the line with quotes and escapes removed: over-inclusive on
 * purpose, as deny and ask rules fail closed.
 */
export function renamesCommands(command: string): string | undefined {
  const plain = command.replace(/\\(.)/gs, '$1').replace(/['"]/g, '');
  if (SHELL_ALIAS.test(plain)) return 'it defines a shell alias';
  if (GIT_ALIAS.test(plain) || GIT_CONFIG_ENVIRONMENT.test(plain)) return 'it defines a git alias';
  return undefined;
}
