import type { PermissionStep } from './pipeline-state.js';
import type { DecisionMatchOptions } from '../call-targets.js';

/**
 * Step 4: a `PreToolUse` hook that said `ask` or `defer`, or a matching ask rule, sends the call
 * to the ask step, in every mode (also `bypassPermissions`). A rule's question comes with no
 * "always allow" suggestions: this step comes before the mode and the allow rules, so an allow
 * rule or a mode the host echoed would not spare the next such call its question. (A hook's may:
 * the hook decides again each time.)
 */
export const askRulesStep: PermissionStep = (state) => {
  const verdict = state.hookVerdict;
  if (verdict?.decision === 'ask' || verdict?.decision === 'defer') {
    const reason = { type: 'hook', hookEvent: 'PreToolUse', ...(verdict.reason === undefined ? {} : { message: verdict.reason }) } as const;
    return { type: 'ask', ask: { reason, deferOnly: verdict.decision === 'defer' } };
  }
  const { rules, tool, cwd } = state.args;
  const options: DecisionMatchOptions = { cwd, targets: state.targets };
  const rule = rules?.match('ask', tool, state.input, options);
  if (rule !== undefined) return { type: 'ask', ask: { reason: { type: 'rule', behavior: 'ask', rule }, suggestions: [] } };
  // A command that hides what it runs (`$X`, `$(…)`) or does not parse, or a call that reads what
  // cannot be named in advance, cannot be checked against deny or ask rules: it is asked.
  for (const behavior of ['deny', 'ask'] as const) {
    const unchecked = rules?.uncheckable(behavior, tool, state.input, options);
    if (unchecked !== undefined) {
      if (tool.ruleTarget === undefined) {
        const message = `The ${behavior} rule "${unchecked}" has a pattern, but the tool "${tool.name}" has no ruleTarget to match it against, so the call is asked instead. Give the tool a ruleTarget (defineTool({ ruleTarget: { field, kind } })), or write the rule as "${tool.name}" to cover every call.`;
        return { type: 'ask', ask: { reason: { type: 'rule', behavior, rule: unchecked, message } } };
      }
      const what = unchecked.startsWith('Read(') && tool.name !== 'Read'
        ? 'reads files that cannot be named before it runs'
        : /^(Edit|Write)\(/.test(unchecked)
          ? 'writes files that cannot be named before it runs'
          : 'hides what it runs (behind a variable, a substitution, a file-name pattern, or in a script a shell reads from its input) or cannot be parsed';
      const message = `The call ${what}, so it cannot be checked against the ${behavior} rule "${unchecked}".`;
      return { type: 'ask', ask: { reason: { type: 'rule', behavior, rule: unchecked, message }, suggestions: [] } };
    }
  }
  return undefined;
};
