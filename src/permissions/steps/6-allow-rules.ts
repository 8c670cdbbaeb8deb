import { askFromToolCheck, getToolCheck } from './get-tool-check.js';
import { allow, decided, type PermissionStep } from './pipeline-state.js';
import type { PermissionReason } from '../../types/permission.js';

/**
 * Step 6: a `PreToolUse` hook that said `allow`, or a matching allow rule, allows. Neither answers
 * a question for the user: a question tool (`AskUserQuestion`) and a plan waiting for approval
 * (`ExitPlanMode`) still reach the host, and so does a safety question of the tool's own when only
 * a rule allows (a hook may answer it, as `ToolPermissionCheck.safety` says).
 */
export const allowRulesStep: PermissionStep = (state) => {
  const { rules, tool, cwd } = state.args;
  if (tool.requiresUserInteraction) return undefined;
  const verdict = state.hookVerdict;
  let reason: PermissionReason;
  const byHook = verdict?.decision === 'allow';
  if (byHook) {
    reason = { type: 'hook', hookEvent: 'PreToolUse', ...(verdict!.reason === undefined ? {} : { message: verdict!.reason }) };
  } else {
    const rule = rules?.match('allow', tool, state.input, { cwd });
    if (rule === undefined) return undefined;
    reason = { type: 'rule', behavior: 'allow', rule };
  }
  return getToolCheck(state).then((check) => {
    if (check.behavior === 'ask' && ((check.safety && !byHook) || check.askReason?.type === 'plan-approval')) return askFromToolCheck(check);
    return decided(allow(state, reason));
  });
};
