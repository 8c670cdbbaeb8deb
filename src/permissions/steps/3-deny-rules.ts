import { decided, deny, type PermissionStep } from './pipeline-state.js';

/** Step 3: a matching deny rule denies, in every mode (also `bypassPermissions`). */
export const denyRulesStep: PermissionStep = (state) => {
  const { rules, tool, cwd } = state.args;
  const rule = rules?.match('deny', tool, state.input, { cwd });
  if (rule === undefined) return undefined;
  return decided(
    deny(state, { type: 'rule', behavior: 'deny', rule }, `Permission to use ${tool.name} was denied by the rule "${rule}". Do not retry this call; find another way or ask the user.`),
  );
};
