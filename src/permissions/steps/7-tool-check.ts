import { isReadOnlyCall } from '../is-read-only-call.js';
import { askFromToolCheck, getToolCheck } from './get-tool-check.js';
import { allow, decided, deny, type PermissionStep } from './pipeline-state.js';

/**
 * Step 7: the tool's own `checkPermissions` (cached if the mode step already asked it). With no
 * opinion (`passthrough`), read-only calls are allowed and anything else is asked.
 */
export const toolCheckStep: PermissionStep = async (state) => {
  const check = await getToolCheck(state);
  switch (check.behavior) {
    case 'deny':
      return decided(deny(state, { type: 'tool-check', message: check.message }, check.message));
    case 'ask':
      return askFromToolCheck(check, state.outsidePath);
    case 'allow':
      return decided(allow(state, { type: 'tool-check' }));
    default:
      if (isReadOnlyCall(state.args.tool, state.input)) return decided(allow(state, { type: 'read-only' }));
      return { type: 'ask', ask: { reason: { type: 'default' }, ...(state.outsidePath === undefined ? {} : { blockedPath: state.outsidePath }) } };
  }
};
