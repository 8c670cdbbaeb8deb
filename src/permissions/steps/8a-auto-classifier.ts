import type { PermissionOutcome } from '../decide-permission-types.js';
import { raceAbort } from '../race-abort.js';
import { readAnswer } from '../../options/read-answer.js';
import { copyToolInput } from '../../hooks/copy-tool-input.js';
import { allow, deny, interrupted, reportError, type AskRequest, type PipelineState } from './pipeline-state.js';

function available(state: PipelineState): boolean {
  const { autoMode } = state.args;
  if (autoMode === undefined) return false;
  try {
    return autoMode.isAvailable?.() ?? true;
  } catch (error) {
    reportError(state, error);
    return false;
  }
}

/**
 * Step 8a, `auto` mode only: the host's classifier decides what would be asked. Undecided, failed
 * or unavailable → `undefined` (the question goes on to the host). Plan approvals and questions
 * for the user are never classified: they are the host's. The classifier gets its own copy of the
 * input, as hooks and `canUseTool` do: a change in place reaches neither the host's question nor
 * the call that runs.
 */
export async function autoClassifierStep(state: PipelineState, ask: AskRequest): Promise<PermissionOutcome | undefined> {
  const { mode, autoMode, tool, toolUseId } = state.args;
  if (mode !== 'auto' || ask.reason.type === 'plan-approval' || tool.requiresUserInteraction || !available(state)) return undefined;
  const { signal } = state.args;
  let verdict;
  try {
    const raced = await raceAbort(() => autoMode!.classify({ toolName: tool.name, input: copyToolInput(state.input), toolUseId, signal }), signal);
    if (raced.aborted) return interrupted(state);
    verdict = readAnswer(raced.value, ['behavior', 'message']) as typeof raced.value;
  } catch (error) {
    reportError(state, error);
    return undefined;
  }
  if (verdict?.behavior === 'allow') {
    return allow(state, { type: 'classifier', ...(verdict.message === undefined ? {} : { message: verdict.message }) });
  }
  if (verdict?.behavior === 'deny') {
    const message = verdict.message ?? `The automatic permission classifier refused this ${tool.name} call.`;
    return deny(state, { type: 'classifier', message }, message);
  }
  return undefined;
}
