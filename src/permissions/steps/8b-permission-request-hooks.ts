import { composePermissionRequest } from '../../hooks/compose-permission-request.js';
import { runHooksUnchecked } from '../../hooks/run-hooks.js';
import { hasHooks } from '../../hooks/has-hooks.js';
import type { PermissionOutcome } from '../decide-permission-types.js';
import type { PermissionUpdate } from '../../types/permission.js';
import { validateToolInput } from '../validate-tool-input.js';
import { allow, deny, interrupted, reportError, type AskRequest, type PipelineState } from './pipeline-state.js';
import { toolHookInput } from './tool-hook-input.js';
import { copyQuestionPart } from './copy-question-part.js';

/**
 * Step 8b: `PermissionRequest` hooks may answer instead of the host (deny > allow). A hook that
 * fails (throws, times out, answers nonsense) is reported in an `error` event; another hook's
 * deny still decides, but an allow does not (the failed one might have denied): the host is
 * asked. An interrupt while they run denies as interrupted. An allowing hook's rewritten input
 * is validated again.
 */
export async function permissionRequestHooksStep(
  state: PipelineState,
  ask: AskRequest,
  suggestions: PermissionUpdate[],
): Promise<PermissionOutcome | undefined> {
  const { hooks, tool, toolUseId, agent } = state.args;
  if (!hasHooks(hooks, 'PermissionRequest')) return undefined;
  const { signal } = state.args;
  const { outputs, errors } = await runHooksUnchecked({
    event: 'PermissionRequest',
    input: Object.assign(toolHookInput(state), { reason: copyQuestionPart(ask.reason), suggestions: copyQuestionPart(suggestions) }),
    hooks,
    signal,
  });
  // An interrupt is not a hook failure, and no hook's allow answers for a run that was stopped.
  if (signal.aborted) return interrupted(state);
  for (const error of errors) reportError(state, error);
  const answer = composePermissionRequest(outputs);
  if (answer.decision === 'deny') {
    const message = answer.message ?? `A PermissionRequest hook denied this ${tool.name} call.`;
    return deny(state, { type: 'hook', hookEvent: 'PermissionRequest', message }, message);
  }
  // A hook that failed may have been the one to deny: another's allow does not answer for it
  // (fail closed), the question goes on to the host.
  if (answer.decision !== 'allow' || errors.length > 0) return undefined;
  if (answer.hasUpdatedInput) {
    const validated = await validateToolInput({ tool, input: answer.updatedInput, writtenBy: 'host', toolUseId, agent, signal });
    if (!validated.ok) {
      const message = `A PermissionRequest hook rewrote the input into an invalid one. ${validated.message}`;
      return deny(state, { type: 'validation', message }, message);
    }
    if (!('editedFrom' in state)) state.editedFrom = state.input;
    state.input = validated.value;
  }
  return allow(state, { type: 'hook', hookEvent: 'PermissionRequest' });
}
