import { askFromToolCheck, getToolCheck } from './get-tool-check.js';
import { allow, decided, type PermissionStep } from './pipeline-state.js';

/** Step 6: a `PreToolUse` hook that said `allow`, or a matching allow rule, allows. */
export const allowRulesStep: PermissionStep = (state) => {
  const verdict = state.hookVerdict;
  if (verdict?.decision === 'allow') {
    return decided(allow(state, { type: 'hook', hookEvent: 'PreToolUse', ...(verdict.reason === undefined ? {} : { message: verdict.reason }) }));
  }
  const { rules, tool, cwd } = state.args;
  // An allow rule can grant permission, not answer a question.
  if (tool.requiresUserInteraction) return undefined;
  const rule = rules?.match('allow', tool, state.input, { cwd });
  if (rule === undefined) return undefined;
  // A safety question of the tool's own (a write into .git, say) is asked whatever the rules say.
  return getToolCheck(state).then((check) => {
    if (check.behavior === 'ask' && check.safety) return askFromToolCheck(check);
    return decided(allow(state, { type: 'rule', behavior: 'allow', rule }));
  });
};
