import type { Tool } from '../tools/types.js';
import { createBashTool } from './workspace-tools/bash-tool.js';
import { createEditTool } from './workspace-tools/edit-tool.js';
import { createGlobTool } from './workspace-tools/glob-tool.js';
import { createGrepTool } from './workspace-tools/grep-tool.js';
import { createReadTool } from './workspace-tools/read-tool.js';
import { resolveWorkspaceContext, type WorkspaceContext } from './workspace-tools/workspace-context.js';
import type { WorkspaceToolName, WorkspaceToolsOptions } from './workspace-tools/workspace-tools-options.js';
import { createWriteTool } from './workspace-tools/write-tool.js';
import { validateWorkspaceToolsOptions, WORKSPACE_TOOL_NAMES } from './validate-workspace-tools-options.js';

export type { WorkspaceToolName, WorkspaceToolsOptions } from './workspace-tools/workspace-tools-options.js';
import type { DEFAULT_INHERITED_ENV } from './workspace-tools/bash-environment.js';

const FACTORIES: Record<WorkspaceToolName, (context: WorkspaceContext) => Tool> = {
  Read: createReadTool,
  Write: createWriteTool,
  Edit: createEditTool,
  Glob: createGlobTool,
  Grep: createGrepTool,
  Bash: createBashTool,
};


/**
 * Creates the built-in workspace tools, with the names and inputs Claude Code users know:
 * `Read`, `Write`, `Edit`, `Glob`, `Grep` and `Bash`, scoped to `cwd` and `additionalDirectories`.
 *
 * Safety does not depend on the model: every path is resolved through symbolic links and a path
 * outside the workspace makes `checkPermissions` ask the host (`blockedPath` set), and is checked
 * again when the call executes; `Edit` and `Write` over an existing file require a current `Read`
 * by the same agent (tracked in `agent.toolState`); `Bash` commands are classified, so only
 * allow-listed read-only commands run in plan mode or without asking, and a few catastrophic
 * commands are refused in every mode. `Write` and `Edit` inside a `.git` directory, or of a file
 * with several hard links, ask the host even in `acceptEdits`; `Bash` pins git's configuration
 * (no pager, hooks, fsmonitor or external diff from the repository).
 *
 * Known limits: a read through a hard link to an outside file is not detected (asking whenever
 * `nlink > 1` would ask for every dependency in a pnpm store, and making such a link needs `ln`,
 * which Bash asks about); a git command in a repository whose own configuration defines a
 * textconv, external-diff or clean/smudge/process filter driver is asked (refused in plan mode)
 * rather than pinned (driver names are arbitrary), which a driver from the user's own global
 * configuration is not. Not a sandbox: run untrusted repositories in a container.
 * `Bash` runs commands with a scrubbed environment: only {@link DEFAULT_INHERITED_ENV} and what
 * `inheritEnv` names are inherited from the host, plus the host's explicit `env`.
 * @throws ConfigurationError for an unknown option or tool name (naming the nearest accepted one),
 * a value of the wrong type or out of range, or a directory that does not exist.
 * @example
 * const agent = createAgent({ model, tools: workspaceTools({ cwd: '/srv/project' }), permissionMode: 'default' });
 */
export function workspaceTools(options: WorkspaceToolsOptions): Tool[] {
  validateWorkspaceToolsOptions(options);
  const context = resolveWorkspaceContext(options);
  const names = options.tools ?? WORKSPACE_TOOL_NAMES;
  // Fixed order, whatever order the host lists them in: the tool list is part of the cached prefix.
  return WORKSPACE_TOOL_NAMES.filter((name) => names.includes(name)).map((name) => FACTORIES[name](context));
}
