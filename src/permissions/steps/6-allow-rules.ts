import { askFromToolCheck, withToolCheck } from './get-tool-check.js';
import { allow, decided, type PermissionStep, type PipelineState, type StepResult } from './pipeline-state.js';
import type { PermissionReason } from '../../types/permission.js';
import { isHomePath } from '../workspace-path.js';

/**
 * Step 6: a `PreToolUse` hook that said `allow`, or a matching allow rule, allows. Neither answers
 * a question for the user: a question tool (`AskUserQuestion`) and a plan waiting for approval
 * (`ExitPlanMode`) still reach the host, and so does a safety question of the tool's own when only
 * a rule allows (a hook may answer it, as `ToolPermissionCheck.safety` says), and a question about
 * a path outside the workspace that a path rule's glob does not cover (a link inside the
 * workspace leading out of it: `Write(**)` never writes there).
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
  return withToolCheck(state, (check): StepResult => {
    if (check.behavior === 'ask' && ((check.safety && !byHook) || check.askReason?.type === 'plan-approval')) return askFromToolCheck(check);
    if (check.behavior === 'ask' && reason.type === 'rule' && check.blockedPath !== undefined && tool.ruleTarget?.kind === 'path') {
      const covering = ruleForRealPath(state, check.blockedPath);
      if (covering === undefined) return askFromToolCheck(check);
      reason = { type: 'rule', behavior: 'allow', rule: covering };
    }
    return decided(allow(state, reason));
  });
};

/**
 * The allow rule that covers the path the tool says the call really reaches (`blockedPath`,
 * outside the workspace, links followed), if any: a path rule allows such a call only when it
 * would allow that path as written (`Read(/srv/shared/**)`, the bare `Read`), never through a link
 * in the workspace that leads out of it (`Write(**)` on `link/x` with `link` → `/etc`).
 */
function ruleForRealPath(state: PipelineState, blockedPath: string): string | undefined {
  const { rules, tool, cwd } = state.args;
  const target = tool.ruleTarget!;
  if (typeof state.input !== 'object' || state.input === null) return undefined;
  // The real path, and its spelling from home when the tool knows one (`Read(~/notes/**)`).
  let spellings = [blockedPath];
  try {
    spellings = spellings.concat((target.aliases?.(blockedPath) ?? []).filter(isHomePath));
  } catch {
    // No other spelling.
  }
  for (const spelling of spellings) {
    const rule = rules?.match('allow', tool, { ...(state.input as Record<string, unknown>), [target.field]: spelling }, { cwd });
    if (rule !== undefined) return rule;
  }
  return undefined;
}
