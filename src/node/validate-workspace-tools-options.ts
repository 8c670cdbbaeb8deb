import {
  arrayOf,
  checkOptions,
  isNonEmptyString,
  isPositiveInteger,
  isString,
  oneOf,
  recordOf,
  required,
  type OptionsSpec,
} from '../options/index.js';
import type { WorkspaceToolName, WorkspaceToolsOptions } from './workspace-tools/workspace-tools-options.js';

/** Every tool `workspaceTools` can create, in the order it returns them. */
export const WORKSPACE_TOOL_NAMES: readonly WorkspaceToolName[] = ['Read', 'Write', 'Edit', 'Glob', 'Grep', 'Bash'];

const SPEC: OptionsSpec<WorkspaceToolsOptions> = {
  cwd: required(isNonEmptyString),
  additionalDirectories: arrayOf(isNonEmptyString, 'an array of directory paths'),
  tools: arrayOf(oneOf(WORKSPACE_TOOL_NAMES), 'an array of tool names'),
  maxReadBytes: isPositiveInteger,
  maxReadLines: isPositiveInteger,
  maxOutputChars: isPositiveInteger,
  bashTimeoutMs: isPositiveInteger,
  shell: isNonEmptyString,
  env: recordOf(isString, 'an object of environment variables (string values)'),
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
