import { parseShellCommand, type ShellCommandNode, type ShellList, type ShellRedirect, type ShellSimpleCommand } from '../../permissions/shell/index.js';
import { ENVIRONMENT_DUMPS, READ_ONLY_COMMANDS } from './read-only-commands.js';
import { expandBraces } from './expand-shell-glob.js';
import { argumentError } from '../../errors/argument-error.js';

/** The verdict of {@link classifyBashCommand}. */
export interface BashCommandClassification {
  /** True only when every part of the command is on the read-only allow-list. */
  readOnly: boolean;
  /** Why, in a few words: the first part that is not read-only, or the commands that are. */
  reason: string;
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;
const DESCRIPTOR = /^(\d+|-)$/;
const FILES0_FROM = new Set(['sort', 'wc', 'du', 'find']);
/** Most alternatives of one brace list looked at; past it the word is checked as written. */
const MAX_ALTERNATIVES = 1000;

/** Redirections that cannot write a file: input from a file, descriptor copies, output to /dev/null. */
function redirectProblem(redirect: ShellRedirect): string | undefined {
  const { operator, target } = redirect;
  if (target.hasExpansion || target.hasGlob) return `redirection target ${target.value} is expanded at run time`;
  if (operator === '<') {
    return target.value.startsWith('/dev/tcp/') || target.value.startsWith('/dev/udp/') ? 'network redirection' : undefined;
  }
  if ((operator === '>&' || operator === '<&') && DESCRIPTOR.test(target.value)) return undefined;
  if ((operator === '>' || operator === '>>' || operator === '&>' || operator === '&>>') && target.value === '/dev/null') return undefined;
  if (operator === '<<' || operator === '<<-' || operator === '<<<') return 'here-documents are not classified';
  return `redirection "${operator} ${target.value}" may write a file`;
}

/** A process's environment file: `/proc/self/environ`, `/proc/1/task/1/environ`. */
const PROCESS_ENVIRONMENT = /^\/proc\/.*environ$/;

function commandProblem(command: ShellSimpleCommand): string | undefined {
  for (const redirect of command.redirects) {
    const problem = redirectProblem(redirect);
    if (problem) return problem;
  }
  const environ = [...command.words, ...command.redirects.map((redirect) => redirect.target)].find((word) => {
    // `/./proc//1/environ` is the same file; a glob under /proc (`environ?`, `env*`) may be it.
    const value = word.value.replace(/\/+/g, '/').replace(/\/\.(?=\/|$)/g, '');
    return PROCESS_ENVIRONMENT.test(value) || (word.hasGlob && value.startsWith('/proc/'));
  });
  if (environ) return `${environ.value} is the environment of a process, whose variables may hold secrets`;
  const [name, ...rest] = command.words;
  if (name === undefined) return undefined;
  if (ASSIGNMENT.test(name.value) && !name.hasExpansion) return `variable assignment ${name.value.split('=')[0]}= is not classified`;
  // A brace list is several words by the time the command sees them, options among them
  // (`sha256sum {-c,} sums`): the checks below see every alternative.
  const values: string[] = [];
  for (const word of rest) {
    const alternatives = word.hasGlob && word.value.includes('{') ? expandBraces(word.value, MAX_ALTERNATIVES) : [word.value];
    if (alternatives === undefined) return `the brace expansion ${word.value} is not classified`;
    values.push(...alternatives);
  }
  // sort, wc, du and find read the names of the files to open from a file or stdin: not checkable.
  const namesFrom = FILES0_FROM.has(name.value)
    ? values.find((value) => value === '-files0-from' || (value.startsWith('--f') && 'files0-from'.startsWith(value.slice(2).split('=')[0]!)))
    : undefined;
  if (namesFrom) return `${name.value} ${namesFrom} reads file names that cannot be checked`;
  const expanded = command.words.find((word) => word.hasExpansion);
  if (expanded) return `"${expanded.value}" is expanded or substituted at run time`;
  if (name.value.includes('/')) return `${name.value} runs a program by path`;
  if (ENVIRONMENT_DUMPS.has(name.value)) return `${name.value} can print the environment, whose variables may hold secrets`;
  const spec = READ_ONLY_COMMANDS.get(name.value);
  if (!spec) return `${name.value} is not on the read-only list`;
  const problem = spec.check?.(values);
  if (problem) return problem;
  const globbed = spec.globSafe ? undefined : rest.find((word) => word.hasGlob);
  return globbed ? `unquoted glob ${globbed.value} could expand into an option of ${name.value}` : undefined;
}

const COMPOUND: Record<Exclude<ShellCommandNode['type'], 'simple'>, string> = {
  subshell: 'a subshell "( … )"',
  group: 'a group "{ …; }"',
  function: 'a function definition',
  keyword: 'a compound command',
  case: 'a case statement',
};

/** Only lists of simple commands (joined by `;`, `&&`, `||`, `|`) are classified. */
function structureProblem(tree: ShellList): string | undefined {
  for (const item of tree) {
    for (const pipeline of item.andOr.pipelines) {
      if (pipeline.negated) return 'a negated pipeline "!" is not classified';
      const compound = pipeline.commands.find((node) => node.type !== 'simple');
      if (compound) return `${COMPOUND[compound.type as Exclude<ShellCommandNode['type'], 'simple'>]} is not classified`;
    }
  }
  return undefined;
}

/**
 * Decides whether a shell command only reads, from a conservative allow-list: `ls`, `cat`,
 * `head`, `tail`, `wc`, `grep`, `rg`, `find` without `-delete`/`-exec`, read-only `git`
 * subcommands, `sort`/`uniq` without output files, … Anything with a redirection that can write,
 * a command or process substitution, a variable expansion, an assignment, a subshell, a
 * background job, or a command not on the list is not read-only; so is a pipe or chain with any
 * such part. Commands that print the environment (`printenv`, `env`, `export -p`, `set`,
 * `declare -x`, `compgen -v`, …) are not read-only, since its variables may hold secrets; nor
 * are commands that read the paths to open from a file (`file -f`, `sha256sum -c`,
 * `wc --files0-from`, `tar -T`, `xargs -a`, `rsync --files-from`), whose list cannot be checked.
 * It reads the tree of {@link parseShellCommand}, the parser the permission rules use too. Read-only means no file in the workspace changes, except that `git status` and
 * `git diff` may refresh the stat cache in `.git/index`. Programs a repository's git configuration
 * names are not looked at here: the Bash tool pins pagers, hooks, fsmonitor and `diff.external`
 * (see `gitSafeEnvironment`) and asks before git runs in a repository that defines its own
 * textconv or filter drivers; nor is `PATH` (the Bash tool also checks where each name is found).
 * @param command - the command line as the Bash tool would run it.
 * @example classifyBashCommand('git diff && ls | wc -l') // { readOnly: true, ... }
 * @example classifyBashCommand('ls > files.txt') // { readOnly: false, reason: 'redirection "> files.txt" may write a file' }
 */
export function classifyBashCommand(command: string): BashCommandClassification {
  if (typeof command !== 'string') throw argumentError('classifyBashCommand', 'command', 'a shell command (a string)', command);
  if (command.includes('\0')) return { readOnly: false, reason: 'the command contains a NUL character' };
  const parsed = parseShellCommand(command);
  if (parsed.error) return { readOnly: false, reason: `the command could not be parsed (${parsed.error})` };
  if (parsed.unsupported.length > 0) return { readOnly: false, reason: `${parsed.unsupported[0]} is not classified` };
  const structure = structureProblem(parsed.tree);
  if (structure) return { readOnly: false, reason: structure };
  for (const simple of parsed.commands) {
    const problem = commandProblem(simple);
    if (problem) return { readOnly: false, reason: problem };
  }
  const names = [...new Set(parsed.commands.map((simple) => simple.words[0]?.value).filter(Boolean))];
  return { readOnly: true, reason: names.length > 0 ? `read-only: ${names.join(', ')}` : 'empty command' };
}
