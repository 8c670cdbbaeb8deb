import type { Tool } from '../tools/types.js';
import { splitShellCommand } from './split-shell-command.js';
import { RUNS_ITS_ARGUMENTS } from './expanded-command-words.js';
import type { PermissionUpdate } from '../types/permission.js';
import { toWorkspacePath } from './workspace-path.js';
import { checkOptions, isString, type OptionsSpec } from '../options/index.js';
import { argumentError, isObjectValue } from '../errors/argument-error.js';

/** Options of {@link suggestPermissionUpdates}. */
export interface SuggestPermissionUpdatesOptions {
  /**
   * The workspace root, so absolute paths inside it become relative rule patterns.
   * @default undefined (paths are used as given)
   */
  cwd?: string;
}

/** Commands whose second word names a subcommand (`git diff`, `npm test`), so a rule keeps both. */
const SUBCOMMAND_PROGRAMS = new Set([
  'apt', 'apt-get', 'aws', 'az', 'brew', 'bun', 'bundle', 'cargo', 'composer', 'deno', 'docker',
  'dotnet', 'gcloud', 'gh', 'git', 'go', 'gradle', 'helm', 'kubectl', 'make', 'mvn', 'npm', 'npx',
  'pip', 'pip3', 'pnpm', 'poetry', 'rustup', 'terraform', 'uv', 'yarn',
]);

const SUBCOMMAND = /^[A-Za-z][A-Za-z0-9:._-]*$/;
const GLOB_SPECIAL = /[*?{}()[\]]/;

/**
 * Programs whose prefix rule would allow any command or any code at all (`sudo:*` runs anything
 * as root, `bash:*` and `python3:*` any script, `xargs:*` and `find:*` any program): a card
 * never offers to always allow them; the line is suggested exactly as written.
 */
const RUNS_ANYTHING = new Set([...RUNS_ITS_ARGUMENTS, 'python', 'python2', 'python3', 'node', 'perl', 'ruby', 'php', 'lua', 'tclsh', 'osascript', 'awk', 'gawk', 'mawk', 'nawk']);

/** The command prefix an "always allow" rule should name: the program, plus its subcommand. */
function commandPrefix(segment: string): string | undefined {
  const words = segment.split(' ');
  const program = words[0];
  if (program === undefined || program === '' || /[=()'"`$\\]/.test(program)) return undefined;
  if (RUNS_ANYTHING.has(program.slice(program.lastIndexOf('/') + 1))) return undefined;
  const second = words[1];
  if (second !== undefined && SUBCOMMAND_PROGRAMS.has(program) && SUBCOMMAND.test(second)) return `${program} ${second}`;
  return program;
}

function commandRules(toolName: string, command: string): string[] | undefined {
  const segments = splitShellCommand(command);
  // A line a prefix cannot describe safely is suggested exactly as written.
  const whole = command.replace(/\s+/g, ' ').trim();
  const exact = whole === '' || whole.endsWith(':*') ? undefined : [`${toolName}(${whole})`];
  if (segments.length === 0 || segments.some((segment) => segment.opaque)) return exact;
  const rules: string[] = [];
  for (const segment of segments) {
    const prefix = commandPrefix(segment.text);
    if (prefix === undefined) return exact;
    const rule = `${toolName}(${prefix}:*)`;
    if (!rules.includes(rule)) rules.push(rule);
  }
  return rules;
}

function pathRule(toolName: string, path: string, cwd: string | undefined): string | undefined {
  const located = toWorkspacePath(path, cwd);
  const shown = located.insideWorkspace ? located.relative : located.absolute ?? located.relative;
  const slash = shown.lastIndexOf('/');
  const directory = slash === -1 ? '' : shown.slice(0, slash);
  if (!located.insideWorkspace && directory === '') return undefined;
  if (GLOB_SPECIAL.test(directory)) return undefined;
  return directory === '' ? `${toolName}(**)` : `${toolName}(${directory}/**)`;
}

const OPTIONS: OptionsSpec<SuggestPermissionUpdatesOptions> = { cwd: isString };

/**
 * Ready-made "always allow" updates for a call, handed to `canUseTool` as `ctx.suggestions` for
 * the host to echo back in `updatedPermissions`: an allow rule on the command's program and
 * subcommand (`Bash(npm test:*)` for `npm test -- --watch`; one per part of a compound command;
 * the exact line when it hides a substitution or redirection, or when its program runs any other
 * command or code: `sudo`, `env`, `xargs`, `find`, a shell or an interpreter),
 * on the file's directory (`Edit(src/**)` for `src/a.ts`), or else on the bare tool name; for an
 * edit-kind tool also switching the session to `acceptEdits`.
 * @example
 * suggestPermissionUpdates(bash, { command: 'git diff HEAD' });
 * // [{ type: 'addRules', behavior: 'allow', rules: ['Bash(git diff:*)'], destination: 'session' }]
 */
export function suggestPermissionUpdates(
  tool: Pick<Tool, 'name' | 'kind' | 'ruleTarget'>,
  input: unknown,
  options: SuggestPermissionUpdatesOptions = {},
): PermissionUpdate[] {
  if (!isObjectValue(tool) || typeof tool.name !== 'string') throw argumentError('suggestPermissionUpdates', 'tool', 'a tool (defineTool(), or { name, kind, ruleTarget })', tool);
  checkOptions<SuggestPermissionUpdatesOptions>(options, OPTIONS, { owner: 'suggestPermissionUpdates', optional: true });
  let rules: string[] | undefined;
  const target = tool.ruleTarget;
  const value = target && typeof input === 'object' && input !== null ? (input as Record<string, unknown>)[target.field] : undefined;
  if (target !== undefined && typeof value === 'string') {
    if (target.kind === 'command') rules = commandRules(tool.name, value);
    else {
      const rule = pathRule(tool.name, value, options.cwd);
      rules = rule === undefined ? undefined : [rule];
    }
  }
  const updates: PermissionUpdate[] = [
    { type: 'addRules', behavior: 'allow', rules: rules ?? [tool.name], destination: 'session' },
  ];
  if (tool.kind === 'edit') updates.push({ type: 'setMode', mode: 'acceptEdits', destination: 'session' });
  return updates;
}
