import type { PermissionStep } from './pipeline-state.js';

/**
 * Step 4: a `PreToolUse` hook that said `ask` or `defer`, or a matching ask rule, sends the call
 * to the ask step, in every mode (also `bypassPermissions`).
 */
export const askRulesStep: PermissionStep = (state) => {
  const verdict = state.hookVerdict;
  if (verdict?.decision === 'ask' || verdict?.decision === 'defer') {
    const reason = { type: 'hook', hookEvent: 'PreToolUse', ...(verdict.reason === undefined ? {} : { message: verdict.reason }) } as const;
    return { type: 'ask', ask: { reason, deferOnly: verdict.decision === 'defer' } };
  }
  const { rules, tool, cwd } = state.args;
  const rule = rules?.match('ask', tool, state.input, { cwd });
  if (rule === undefined) return undefined;
  return { type: 'ask', ask: { reason: { type: 'rule', behavior: 'ask', rule } } };
};
