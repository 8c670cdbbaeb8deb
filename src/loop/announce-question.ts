import type { AgentCore } from '../runtime/agent-core.js';
import type { UserQuestion } from '../events/agent-event.js';
import type { PermissionReason } from '../types/permission.js';

/**
 * The typed event of a question the host is asked, by its reason (the loop knows reasons, not
 * tools): a plan approval becomes `plan-approval-request`, a question for the user `user-question`.
 */
export function announceQuestion(core: AgentCore, reason: PermissionReason, toolUseId: string, input: unknown): void {
  if (reason.type === 'plan-approval') {
    const plan = (input as { plan?: unknown } | undefined)?.plan;
    core.emit({ type: 'plan-approval-request', toolUseId, plan: typeof plan === 'string' ? plan : '' });
  } else if (reason.type === 'question') {
    const questions = (input as { questions?: unknown } | undefined)?.questions;
    core.emit({ type: 'user-question', toolUseId, questions: Array.isArray(questions) ? (structuredClone(questions) as UserQuestion[]) : [] });
  }
}

/** What the model reads when the host rejects its plan (and the `plan-rejected` event). */
export function planRejected(core: AgentCore, toolUseId: string, feedback: string): string {
  core.emit({ type: 'plan-rejected', toolUseId, feedback });
  // The host may have left plan mode while the plan waited: the model is told the mode it is in.
  if (core.mode !== 'plan') {
    return [
      `The user did not approve your plan, and nothing of it was saved. The user has left plan mode: the permission mode is now "${core.mode}".`,
      '',
      `The user's feedback: ${feedback}`,
      '',
      'Go on with the task as the feedback says (ask the user if something is unclear); there is no plan to present now.',
    ].join('\n');
  }
  return [
    'The user did not approve your plan. You are still in plan mode, and nothing was changed.',
    '',
    `The user's feedback: ${feedback}`,
    '',
    'Revise the plan with this feedback in mind (ask the user if something is unclear), then present it again with ExitPlanMode.',
  ].join('\n');
}
