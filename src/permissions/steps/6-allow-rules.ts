import { allow, decided, type PermissionStep } from './pipeline-state.js';

/** Step 6: a `PreToolUse` hook that said `allow`, or a matching allow rule, allows. */
export const allowRulesStep: PermissionStep = (state) => {
  const verdict = state.hookVerdict;
  if (verdict?.decision === 'allow') {
    return decided(allow(state, { type: 'hook', hookEvent: 'PreToolUse', ...(verdict.reason === undefined ? {} : { message: verdict.reason }) }));
  }
  const { rules, tool, cwd } = state.args;
  const rule = rules?.match('allow', tool, state.input, { cwd });
  return rule === undefined ? undefined : decided(allow(state, { type: 'rule', behavior: 'allow', rule }));
};
