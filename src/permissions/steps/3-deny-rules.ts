import { READ_TOOL_NAME, readTargetsOf, recordReadRules } from '../read-rules.js';
import { decided, deny, type PermissionStep } from './pipeline-state.js';
import type { DecisionMatchOptions } from '../call-targets.js';

/**
 * Step 3: a matching deny rule denies, in every mode (also `bypassPermissions`). Deny rules on
 * `Read(...)` hold for what any tool reads. A tool that searches directories and skips what the
 * rules keep from reading gets the session's `Read` deny and ask rules recorded for this call.
 */
export const denyRulesStep: PermissionStep = (state) => {
  const { rules, tool, cwd, agent, toolUseId } = state.args;
  const options: DecisionMatchOptions = { cwd, targets: state.targets };
  const rule = rules?.match('deny', tool, state.input, options);
  if (rule === undefined) {
    // Only a tool that reads directories records the Read rules; the others skip copying them (twice per call).
    if (tool.ruleTarget?.reads === undefined) return undefined;
    const { deny: denied, ask } = rules?.toJSON() ?? { deny: [], ask: [] };
    const readRules = [...denied, ...ask].filter((candidate) => candidate.startsWith(`${READ_TOOL_NAME}(`));
    if (readRules.length === 0) return undefined;
    const targets = state.targets.reads(tool, state.input, () => readTargetsOf(tool, state.input));
    if (targets?.skipsRuleMatches && (targets.directories ?? []).length > 0) recordReadRules(agent.toolState, toolUseId, readRules);
    return undefined;
  }
  return decided(
    deny(state, { type: 'rule', behavior: 'deny', rule }, `Permission to use ${tool.name} was denied by the rule "${rule}". Do not retry this call; find another way or ask the user.`),
  );
};
