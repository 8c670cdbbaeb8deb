import { ConfigurationError } from '../../errors/configuration-error.js';
import type { PermissionOutcome } from '../decide-permission-types.js';
import { raceAbort } from '../race-abort.js';
import { readAnswer, type AnswerField } from '../../options/read-answer.js';
import type { PermissionResult, PermissionUpdate } from '../../types/permission.js';
import { validateToolInput } from '../validate-tool-input.js';
import { allow, defer, deny, interrupted, reportError, type AskRequest, type PipelineState } from './pipeline-state.js';
import { describeThrown } from '../../errors/describe-thrown.js';
import { describeJson } from '../../options/describe-json.js';
import { copyToolInput } from '../../hooks/copy-tool-input.js';
import { copyQuestionPart } from './copy-question-part.js';
import { copyDisplay } from './tool-display.js';

/** The documented fields of a `PermissionResult`: what is read of the answer. */
const PERMISSION_RESULT_FIELDS: ReadonlyArray<AnswerField<PermissionResult>> = ['behavior', 'updatedInput', 'updatedPermissions', 'clearContext', 'message', 'interrupt'];

function isPermissionResult(value: unknown): value is PermissionResult {
  if (typeof value !== 'object' || value === null) return false;
  const behavior = (value as { behavior?: unknown }).behavior;
  return behavior === 'allow' || behavior === 'defer' || (behavior === 'deny' && typeof (value as { message?: unknown }).message === 'string');
}

/**
 * Step 8c: the host's `canUseTool`, raced against the run's signal. Throwing or answering
 * nonsense denies (with an `error` event) and the run goes on; an abort while waiting denies as
 * interrupted. An edited input is validated again; `updatedPermissions` are returned for the
 * loop to apply.
 */
export async function canUseToolStep(
  state: PipelineState,
  ask: AskRequest,
  suggestions: PermissionUpdate[],
): Promise<PermissionOutcome> {
  const { canUseTool, tool, toolUseId, agent } = state.args;
  if (canUseTool === undefined) return defer(state, ask.reason, suggestions, ask.blockedPath);
  const { signal } = state.args;
  const agentId = state.args.agentId ?? agent.agentId;
  const context = {
    signal,
    toolUseId,
    ...(agentId === undefined ? {} : { agentId }),
    // Copies: the host's changes in place reach neither the approval the session keeps nor others.
    reason: copyQuestionPart(ask.reason),
    suggestions: copyQuestionPart(suggestions),
    ...(ask.blockedPath === undefined ? {} : { blockedPath: ask.blockedPath }),
    ...(state.display === undefined ? {} : { display: copyDisplay(state.display) }),
    ...(tool.annotations === undefined ? {} : { toolAnnotations: { ...tool.annotations } }),
  };
  let result: unknown;
  try {
    const raced = await raceAbort(() => canUseTool(tool.name, copyToolInput(state.input), context), signal);
    if (raced.aborted) return interrupted(state);
    // Read once, here: an answer whose fields throw when read is a callback that failed.
    result = readAnswer(raced.value, PERMISSION_RESULT_FIELDS);
  } catch (error) {
    reportError(state, error);
    const detail = describeThrown(error);
    return deny(
      state,
      { type: 'callback', message: `canUseTool threw: ${detail}` },
      `Permission to use ${tool.name} could not be obtained (the permission callback failed), so the call was not run.`,
    );
  }
  if (!isPermissionResult(result)) {
    const problem = `canUseTool returned ${describeJson(result)} for tool "${tool.name}"; return { behavior: 'allow' }, { behavior: 'deny', message } or { behavior: 'defer' }.`;
    reportError(state, new ConfigurationError(problem));
    return deny(state, { type: 'callback', message: problem }, `Permission to use ${tool.name} could not be obtained, so the call was not run.`);
  }
  switch (result.behavior) {
    case 'deny':
      return deny(state, { type: 'callback', message: result.message }, result.message, result.interrupt === true);
    case 'defer':
      return defer(state, ask.reason, suggestions, ask.blockedPath);
    default: {
      if (result.updatedInput !== undefined) {
        const validated = await validateToolInput({ tool, input: result.updatedInput, writtenBy: 'host', toolUseId, agent, signal });
        if (!validated.ok) {
          const message = `The edited input was rejected. ${validated.message}`;
          return deny(state, { type: 'validation', message }, message);
        }
        if (!('editedFrom' in state)) state.editedFrom = state.input;
        state.input = validated.value;
      }
      const allowed = allow(state, { type: 'callback' }, result.updatedPermissions);
      return result.clearContext === true ? { ...allowed, clearContext: true } : allowed;
    }
  }
}
