import { z } from 'zod';
import type { PermissionUpdate } from '../../types/permission.js';
import { defineTool } from '../../tools/define-tool.js';
import { toolOutput } from '../../tools/tool-output.js';
import type { Tool } from '../../tools/types.js';
import { findOutsidePath } from './bash-command-paths.js';
import { bashReadTargets } from './bash-read-targets.js';
import { bashWriteTargets } from './bash-write-targets.js';
import { classifyBashCommand, type BashCommandClassification } from './classify-bash-command.js';
import { findCatastrophicCommand } from './find-catastrophic-command.js';
import { gitReadOnlyEnvironment, gitSafeEnvironment } from './git-safe-environment.js';
import { parseShellCommand } from '../../permissions/shell/index.js';
import { runShellCommand, type ShellCommandResult } from './run-shell-command.js';
import { truncateMiddle } from './truncate-output.js';
import { revealHiddenCharactersInOutput } from '../../tools/reveal-hidden-characters.js';
import { stripTerminalEscapes } from '../../tools/strip-terminal-escapes.js';
import { MAX_BASH_TIMEOUT_MS, type WorkspaceContext } from './workspace-context.js';
import { displayBash } from './display-bash.js';
import { commandSearchPath, shadowedCommandProblem, trustedSearchPath, type CommandSearchPath } from './shadowed-command.js';

const bashInput = z.strictObject({
  command: z.string().min(1).describe('The command to run.'),
  timeout: z.number().int().positive().max(MAX_BASH_TIMEOUT_MS).optional().describe(`Timeout in milliseconds (up to ${MAX_BASH_TIMEOUT_MS}).`),
  description: z.string().optional().describe('What the command does, in 5-10 words, e.g. "Run the unit tests".'),
});

/** Input of the Bash tool. */
export type BashInput = z.infer<typeof bashInput>;

const SUBCOMMAND = /^[a-z][a-z0-9_-]*$/;

/** "Always allow" suggestion: `Bash(npm test:*)` for a single command, else the exact command. */
export function suggestBashRule(command: string): PermissionUpdate[] {
  const parsed = parseShellCommand(command);
  const only = parsed.commands.length === 1 && parsed.unsupported.length === 0 && !parsed.error ? parsed.commands[0] : undefined;
  let rule: string | undefined;
  if (only && only.words.length > 0 && only.words.every((word) => !word.hasExpansion)) {
    const [name, second] = only.words.map((word) => word.value);
    const prefix = second !== undefined && SUBCOMMAND.test(second) ? `${name} ${second}` : name;
    if (prefix && !/[()]/.test(prefix)) rule = `Bash(${prefix}:*)`;
  } else if (command.length <= 200 && !/[()\n]/.test(command)) {
    rule = `Bash(${command})`;
  }
  return rule ? [{ type: 'addRules', behavior: 'allow', rules: [rule], destination: 'session' }] : [];
}

function formatResult(result: ShellCommandResult, timeoutMs: number, maxChars: number) {
  if (result.spawnError) return toolOutput(`The shell could not be started: ${result.spawnError}`, { isError: true });
  // What the model reads and hosts render: the text, not the terminal's instructions.
  const readable = (output: string) => revealHiddenCharactersInOutput(stripTerminalEscapes(output)).trimEnd();
  const parts = [readable(result.stdout), readable(result.stderr)].filter((part) => part !== '');
  let status: string | undefined;
  if (result.aborted) status = 'The command was interrupted; it and everything it started were killed.';
  else if (result.timedOut) status = `The command timed out after ${timeoutMs} ms; it and everything it started were killed.`;
  else if (result.exitCode !== 0) status = `Exit code ${result.exitCode ?? 'unknown (killed by a signal)'}`;
  const body = truncateMiddle(parts.join('\n'), maxChars);
  const text = [body, status].filter((part) => part !== undefined && part !== '').join('\n\n') || '(no output)';
  return toolOutput(text, { isError: status !== undefined });
}

/**
 * Creates the Bash tool: runs a shell command in the working directory. Every command runs with
 * {@link gitSafeEnvironment}: git's pager, hooks, fsmonitor, external diff and signature programs
 * are pinned, so read-only git subcommands do not run programs named in a repository's config.
 * A command that only reads runs with {@link gitReadOnlyEnvironment} too (no git transport, so a
 * partial clone's missing object is not fetched with the repository's `core.sshCommand`), and is
 * read-only only when the programs it names are not found first in a workspace directory on
 * `PATH` or through a relative `PATH` entry; it runs with those entries left out of `PATH`, so
 * what it starts in its turn (a git driver of the user's configuration) is not the workspace's.
 * Textconv, external-diff and clean/smudge/process filter drivers cannot be pinned (their names
 * are the repository's): a git command in a repository whose own configuration (or a submodule's)
 * defines one is asked, also past allow rules, and refused in plan mode (see `gitDriverProblem`);
 * Write/Edit under `.git/` always ask, so the agent cannot add one to a repository without the host.
 */
export function createBashTool(context: WorkspaceContext): Tool<BashInput> {
  const { boundary } = context;
  const catastropheOptions = { cwd: boundary.cwd, workspace: [...boundary.roots] };
  // The commands' environment and the PATH directories (each one's real path: about 5 µs a
  // directory) are worked out at the tool's first command, not when it is made: an agent that
  // never runs Bash does not pay for them (the environment with git's pinned configuration, about
  // 20 µs). Both come from `context.env`, fixed when the tools were made.
  let judged: { env: Record<string, string | undefined>; searchPath: CommandSearchPath; readOnlyEnv: Record<string, string | undefined> } | undefined;
  const judgePath = () => {
    const env = gitSafeEnvironment(context.env);
    // With CDPATH, `cd name` may go to a directory outside the workspace that was not checked.
    delete env.CDPATH;
    const searchPath = commandSearchPath(env.PATH, boundary);
    // What a read-only command starts in its turn (a git driver of the user's configuration, `diff`)
    // is looked up only in the PATH entries outside the workspace.
    const trustedPath = trustedSearchPath(searchPath, env.PATH);
    return { env, searchPath, readOnlyEnv: gitReadOnlyEnvironment(trustedPath === undefined ? env : { ...env, PATH: trustedPath }) };
  };
  const judgedPath = () => (judged ??= judgePath());
  // Read-only only when every part is on the list and every name it runs is the system's program,
  // not one a workspace directory on PATH (or a relative PATH entry) puts in its place.
  const classify = (command: string): BashCommandClassification & { shadowed?: true } => {
    const classification = classifyBashCommand(command);
    if (!classification.readOnly) return classification;
    const shadowed = shadowedCommandProblem(command, judgedPath().searchPath);
    return shadowed ? { readOnly: false, reason: shadowed, shadowed: true } : classification;
  };
  // The permission pipeline asks `isReadOnlyCall` and then `checkPermissions` in one synchronous
  // stretch, and so do the loop's plan-mode guard and `execute` when the call starts: the second
  // takes the first's answer (the PATH lookups, about 34 µs a name) for the same command. Kept
  // only until the stretch ends (a microtask): every later question looks at the workspace as it
  // is then.
  let recent: { command: string; classification: ReturnType<typeof classify> } | undefined;
  const forget = () => {
    recent = undefined;
  };
  const classifyNow = (command: string): ReturnType<typeof classify> => {
    if (recent?.command === command) return recent.classification;
    if (recent === undefined) queueMicrotask(forget);
    recent = { command, classification: classify(command) };
    return recent.classification;
  };
  return defineTool({
    name: 'Bash',
    description: [
      `Runs a command with ${context.shell} in the working directory (${boundary.cwd}) and returns its output (stdout, then stderr) and exit code.`,
      `Each call starts a fresh shell there: \`cd\` and variables do not carry over. Stdin is empty. Timeout ${context.bashTimeoutMs} ms unless \`timeout\` is given (up to ${MAX_BASH_TIMEOUT_MS}); output beyond ${context.maxOutputChars} characters is cut in the middle.`,
      'Everything the command starts is killed when it ends: background processes do not survive the call.',
      'Prefer Read, Glob, Grep, Edit and Write over cat, find, grep, sed and echo >. Quote paths that contain spaces.',
      'Git runs with pagers, hooks, fsmonitor and signature programs turned off, and `git diff` shows a plain unified diff (diff.external is pinned).',
    ].join('\n'),
    inputSchema: bashInput,
    kind: 'execute',
    readOnly: false,
    concurrencySafe: false,
    ruleTarget: {
      field: 'command',
      kind: 'command',
      reads: (input) => bashReadTargets(boundary, (input as BashInput).command),
      writes: (input) => bashWriteTargets(boundary, (input as BashInput).command),
    },
    display: displayBash(boundary),
    isReadOnlyCall: (input) => classifyNow(input.command).readOnly,
    validateInput({ input }) {
      if (input.command.includes('\0')) return 'The command contains a NUL character, which no shell accepts.';
      const catastrophic = findCatastrophicCommand(input.command, catastropheOptions);
      if (catastrophic) return `Refused, in every permission mode: ${catastrophic}. This command is never run.`;
      return undefined;
    },
    async checkPermissions({ input, agent }) {
      const classification = classifyNow(input.command);
      if (classification.shadowed) {
        // An allow rule on a read (`Bash(ls:*)`) means the system's program, not the workspace's.
        return { behavior: 'ask', message: `This command may run a program of the workspace: ${classification.reason}.`, safety: true, suggestions: [] };
      }
      if (!classification.readOnly) {
        return { behavior: 'ask', message: `This command may change files or run programs: ${classification.reason}.`, suggestions: suggestBashRule(input.command) };
      }
      const { readOnlyEnv } = judgedPath();
      const found = await findOutsidePath(boundary, input.command, { gitEnvironment: readOnlyEnv });
      // The first finding ends the analysis: a driver further on must not hide behind an outside path an allow rule vouches for.
      const program = found === undefined || found.runsProgram ? found : await findOutsidePath(boundary, input.command, { programsOnly: true, gitEnvironment: readOnlyEnv });
      const outside = program?.runsProgram ? program : found;
      if (outside?.runsProgram) {
        // A program the repository names is not a read: in plan mode it never runs; otherwise the
        // host answers, not an allow rule written for a read (`Bash(git diff:*)`).
        if (agent.permissionMode === 'plan') return { behavior: 'deny', message: `Refused in plan mode: ${outside.message}` };
        return { behavior: 'ask', message: outside.message, safety: true, suggestions: [] };
      }
      if (outside) return { behavior: 'ask', message: outside.message, blockedPath: outside.blockedPath, suggestions: [] };
      return { behavior: 'passthrough' };
    },
    async execute({ input, signal, agent }) {
      // Checked again here: a host may have replaced the input when approving it.
      const catastrophic = findCatastrophicCommand(input.command, catastropheOptions);
      if (catastrophic) return toolOutput(`Refused, in every permission mode: ${catastrophic}. This command is never run.`, { isError: true });
      // Asked again now (the loop's plan-mode guard asked it a moment ago, in this same stretch).
      const classification = classifyNow(input.command);
      const readOnly = classification.readOnly;
      if (agent.permissionMode === 'plan') {
        // Looked at again: in plan mode only a read-only command runs, whatever changed since it
        // was allowed, and a git driver the repository names never runs (an allow rule or a hook
        // may have allowed the call past the tool's own check).
        if (!readOnly) {
          return toolOutput(`Refused: in plan mode only read-only commands run, and this one is not (${classification.reason}); it was allowed before that changed.`, { isError: true });
        }
        const program = await findOutsidePath(boundary, input.command, { programsOnly: true, gitEnvironment: judgedPath().readOnlyEnv });
        if (program?.runsProgram) return toolOutput(`Refused in plan mode: ${program.message}`, { isError: true });
      }
      const timeoutMs = input.timeout ?? context.bashTimeoutMs;
      const result = await runShellCommand({
        command: input.command,
        cwd: boundary.cwd,
        shell: context.shell,
        // A command that runs unasked cannot reach a git transport (a partial clone's lazy fetch).
        env: readOnly ? judgedPath().readOnlyEnv : judgedPath().env,
        timeoutMs,
        maxOutputChars: context.maxOutputChars,
        signal,
      });
      return formatResult(result, timeoutMs, context.maxOutputChars);
    },
  });
}
