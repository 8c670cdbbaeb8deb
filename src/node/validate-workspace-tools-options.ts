import {
  accepts,
  either,
  arrayOf,
  checkOptions,
  isNonEmptyString,
  isPositiveInteger,
  isString,
  isBoolean,
  isFunction,
  shape,
  oneOf,
  recordOf,
  required,
  type OptionsSpec,
} from '../options/index.js';
import type { WorkspaceToolName, WorkspaceToolsOptions } from './workspace-tools/workspace-tools-options.js';

/** Every tool `workspaceTools` can create, in the order it returns them. */
export const WORKSPACE_TOOL_NAMES: readonly WorkspaceToolName[] = ['Read', 'Write', 'Edit', 'Glob', 'Grep', 'Bash'];

const ENV_NAME = /^(\*|[A-Za-z_][A-Za-z0-9_]*\*?)$/;
const isUndefined = accepts('undefined', (value) => value === undefined);

const SPEC: OptionsSpec<WorkspaceToolsOptions> = {
  cwd: required(isNonEmptyString),
  additionalDirectories: arrayOf(isNonEmptyString, 'an array of directory paths'),
  tools: arrayOf(oneOf(WORKSPACE_TOOL_NAMES), 'an array of tool names'),
  maxReadBytes: isPositiveInteger,
  maxReadLines: isPositiveInteger,
  maxOutputChars: isPositiveInteger,
  bashTimeoutMs: isPositiveInteger,
  grepTimeoutMs: isPositiveInteger,
  maxSearchEntries: isPositiveInteger,
  searchTimeBudgetMs: isPositiveInteger,
  now: isFunction,
  shell: isNonEmptyString,
  env: recordOf(either('a string, or undefined to remove it', isString, isUndefined), 'an object of environment variables (string values)'),
  readOnlyDirectories: arrayOf(isNonEmptyString, 'an array of directory paths'),
  checkpoints: either(
    'true, false, or { maxBytes, maxFileBytes } (positive integers)',
    isBoolean,
    shape<{ maxBytes?: number; maxFileBytes?: number }>({ maxBytes: isPositiveInteger, maxFileBytes: isPositiveInteger }, { usage: 'checkpoints: { maxBytes: 8_388_608 }' }),
  ),
  inheritEnv: arrayOf(
    accepts('a variable name or a PREFIX* pattern, e.g. "NODE_OPTIONS", "AWS_*", or "*" for everything', (value) => typeof value === 'string' && ENV_NAME.test(value)),
    'an array of variable names or PREFIX* patterns',
  ),
};


/**
 * Checks `workspaceTools`' options: known keys only, each of the right type, and tool names that
 * exist (`'Red'` gets "did you mean "Read"?"). Directories and ranges are checked where the
 * workspace is resolved.
 * @throws ConfigurationError naming the option and what it accepts.
 */
export function validateWorkspaceToolsOptions(options: unknown): asserts options is WorkspaceToolsOptions {
  checkOptions<WorkspaceToolsOptions>(options, SPEC, {
    owner: 'workspaceTools',
    usage: "workspaceTools({ cwd: '/srv/project' })",
    hints: { allowedTools: "choose the tools with `tools: ['Read', 'Grep']`; permission rules are createAgent's `rules`." },
  });
}
