import { askFromToolCheck, withToolCheck } from './get-tool-check.js';
import type { ToolPermissionCheck } from '../../types/permission.js';
import { allow, decided, deny, type PermissionStep, type PipelineState, type StepResult } from './pipeline-state.js';

/**
 * Step 7: the tool's own `checkPermissions` (cached if the mode step already asked it). With no
 * opinion (`passthrough`), read-only calls are allowed and anything else is asked.
 */
export const toolCheckStep: PermissionStep = (state) => {
  // A tool without its own check (not asked yet) has no opinion: decided without a promise.
  if (state.toolCheck === undefined && state.args.tool.checkPermissions === undefined) return fromCheck(state, PASSTHROUGH);
  // A check that answered synchronously is decided without a promise too.
  return withToolCheck(state, (check) => fromCheck(state, check));
};

const PASSTHROUGH: ToolPermissionCheck = { behavior: 'passthrough' };

function fromCheck(state: PipelineState, check: ToolPermissionCheck): StepResult {
  switch (check.behavior) {
    case 'deny':
      return decided(deny(state, { type: 'tool-check', message: check.message }, check.message));
    case 'ask':
      return askFromToolCheck(check, state.outsidePath);
    case 'allow':
      return decided(allow(state, { type: 'tool-check' }));
    default:
      if (state.targets.readOnly(state.args.tool, state.input)) return decided(allow(state, { type: 'read-only' }));
      return { type: 'ask', ask: { reason: { type: 'default' }, ...(state.outsidePath === undefined ? {} : { blockedPath: state.outsidePath }) } };
  }
}
