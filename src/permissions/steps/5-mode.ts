import type { PermissionOutcome } from '../decide-permission-types.js';
import { DEFAULT_PLAN_MODE_DENY_MESSAGE } from '../mode-reminder.js';
import { toWorkspacePath } from '../workspace-path.js';
import { withToolCheck } from './get-tool-check.js';
import type { ToolPermissionCheck } from '../../types/permission.js';
import { allow, decided, deny, type PermissionStep, type PipelineState, type StepResult } from './pipeline-state.js';

/**
 * The target path of an edit when it is not known to lie inside the workspace: outside `cwd`, or
 * any path when the agent has no `cwd` (no workspace, so nothing is inside it).
 */
export function pathOutsideWorkspace(state: PipelineState): string | undefined {
  const { tool, cwd } = state.args;
  const target = tool.ruleTarget;
  if (target?.kind !== 'path' || typeof state.input !== 'object' || state.input === null) return undefined;
  const path = (state.input as Record<string, unknown>)[target.field];
  if (typeof path !== 'string') return undefined;
  if (cwd === undefined) return path;
  return toWorkspacePath(path, cwd).insideWorkspace ? undefined : path;
}

/** Plan mode: a call that is not read-only is refused at once, without asking anyone. */
export function planModeDenial(state: PipelineState): PermissionOutcome {
  const message = state.args.planModeDenyMessage ?? DEFAULT_PLAN_MODE_DENY_MESSAGE;
  return deny(state, { type: 'mode', mode: 'plan', message }, message);
}

function acceptEdits(state: PipelineState): StepResult | Promise<StepResult> {
  if (state.args.tool.kind !== 'edit') return undefined;
  // A tool with its own check knows its workspace (additional directories, symlinks) better than
  // a literal comparison with cwd; without one, the literal comparison is all there is.
  const outside = state.args.tool.checkPermissions ? undefined : pathOutsideWorkspace(state);
  if (outside !== undefined) {
    state.outsidePath = outside;
    return undefined;
  }
  // The tool's own check (e.g. a path outside the workspace) still stands. Its question goes on
  // to the allow rules, as in `default` mode (they answer it as they would there), then is asked.
  return withToolCheck(state, (check) => fromEditCheck(state, check));
}

/** What `acceptEdits` does with the tool's own check of an edit inside the workspace. */
function fromEditCheck(state: PipelineState, check: ToolPermissionCheck): StepResult {
  if (check.behavior === 'deny') return decided(deny(state, { type: 'tool-check', message: check.message }, check.message));
  if (check.behavior === 'ask') return undefined;
  return decided(allow(state, { type: 'mode', mode: 'acceptEdits' }));
}

/**
 * Step 5: the mode. `bypassPermissions` allows; `plan` denies what is not read-only (read-only
 * calls go on); `acceptEdits` allows edit-kind calls inside the workspace unless the tool's own
 * check asks or denies (with no `cwd` there is no workspace: a path edit of a tool without its own
 * check goes on, and is asked unless a rule or hook allows it). `default`, `auto` and `dontAsk` go on.
 */
export const modeStep: PermissionStep = (state) => {
  const { mode, tool } = state.args;
  switch (mode) {
    case 'bypassPermissions':
      // A question for the user is still asked: nobody else can answer it.
      return tool.requiresUserInteraction ? undefined : decided(allow(state, { type: 'mode', mode }));
    case 'plan':
      return state.targets.readOnly(tool, state.input) ? undefined : decided(planModeDenial(state));
    case 'acceptEdits':
      return acceptEdits(state);
    default:
      return undefined;
  }
};
