import { ConfigurationError } from '../../errors/configuration-error.js';
import { nearestName } from './nearest-name.js';
import type { WorkspaceToolName, WorkspaceToolsOptions } from './workspace-tools-options.js';

/** Every tool `workspaceTools` can create, in the order it returns them. */
export const WORKSPACE_TOOL_NAMES: readonly WorkspaceToolName[] = ['Read', 'Write', 'Edit', 'Glob', 'Grep', 'Bash'];

const OPTION_NAMES: ReadonlyArray<keyof WorkspaceToolsOptions> = [
  'cwd', 'additionalDirectories', 'tools', 'maxReadBytes', 'maxReadLines', 'maxOutputChars', 'bashTimeoutMs', 'grepTimeoutMs', 'shell', 'env', 'inheritEnv',
];
const ENV_NAME = /^(\*|[A-Za-z_][A-Za-z0-9_]*\*?)$/;

const show = (value: unknown) => (typeof value === 'string' ? JSON.stringify(value) : typeof value === 'object' && value !== null ? (Array.isArray(value) ? 'an array' : 'an object') : String(value));
const suggestion = (value: string, candidates: readonly string[]) => {
  const near = nearestName(value, candidates);
  return near === undefined ? '' : ` Did you mean "${near}"?`;
};

function stringArray(option: string, value: unknown, check?: (entry: string, index: number) => string | undefined): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) throw new ConfigurationError(`workspaceTools: ${option} must be an array of strings, got ${show(value)}.`);
  value.forEach((entry: unknown, index) => {
    if (typeof entry !== 'string' || entry === '') throw new ConfigurationError(`workspaceTools: ${option}[${index}] must be a non-empty string, got ${show(entry)}.`);
    const problem = check?.(entry, index);
    if (problem) throw new ConfigurationError(`workspaceTools: ${option}[${index}] is ${show(entry)}: ${problem}`);
  });
}

/**
 * Checks the type and value of every option of `workspaceTools`, and that no unknown option is
 * given, with an error that names the option, the bad value, what is accepted and, for a likely
 * typo, the nearest accepted name.
 * @throws ConfigurationError for the first problem found.
 */
export function validateWorkspaceToolsOptions(options: unknown): asserts options is WorkspaceToolsOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new ConfigurationError(`workspaceTools expects an options object such as { cwd: '/srv/project' }, got ${show(options)}.`);
  }
  const record = options as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!(OPTION_NAMES as readonly string[]).includes(key)) {
      throw new ConfigurationError(`workspaceTools: unknown option "${key}".${suggestion(key, OPTION_NAMES)} Accepted options: ${OPTION_NAMES.join(', ')}.`);
    }
  }
  if (typeof record.cwd !== 'string' || record.cwd === '') {
    throw new ConfigurationError(`workspaceTools: cwd is required; pass the directory the agent works in (a non-empty string), got ${show(record.cwd)}.`);
  }
  stringArray('additionalDirectories', record.additionalDirectories);
  stringArray('tools', record.tools, (name) =>
    (WORKSPACE_TOOL_NAMES as readonly string[]).includes(name) ? undefined : `not a workspace tool.${suggestion(name, WORKSPACE_TOOL_NAMES)} Accepted names: ${WORKSPACE_TOOL_NAMES.join(', ')}.`,
  );
  if (record.shell !== undefined && (typeof record.shell !== 'string' || record.shell === '')) {
    throw new ConfigurationError(`workspaceTools: shell must be the path of a shell (a non-empty string), got ${show(record.shell)}.`);
  }
  if (record.env !== undefined) {
    if (typeof record.env !== 'object' || record.env === null || Array.isArray(record.env)) {
      throw new ConfigurationError(`workspaceTools: env must be an object of variable names to string values, got ${show(record.env)}.`);
    }
    for (const [name, value] of Object.entries(record.env)) {
      if (value !== undefined && typeof value !== 'string') {
        throw new ConfigurationError(`workspaceTools: env.${name} must be a string (or undefined to remove it), got ${show(value)}.`);
      }
    }
  }
  stringArray('inheritEnv', record.inheritEnv, (name) =>
    ENV_NAME.test(name) ? undefined : 'not a variable name or a PREFIX* pattern; use names like "NODE_OPTIONS" or "AWS_*", or "*" for everything.',
  );
}
