import { composePreToolUse } from '../../hooks/compose-pre-tool-use.js';
import { runHooksUnchecked } from '../../hooks/run-hooks.js';
import { isReadOnlyCallUnchecked } from '../is-read-only-call.js';
import { hasHooks } from '../../hooks/has-hooks.js';
import { toolHookInput } from './tool-hook-input.js';
import { validateToolInput } from '../validate-tool-input.js';
import { interrupted, decided, deny, reportError, type PermissionStep, type PipelineState, type StepResult } from './pipeline-state.js';

/**
 * Step 2: `PreToolUse` hooks. A hook that throws, times out or returns nonsense denies the call
 * (fail closed). Composed verdict: `deny` decides here; `ask`, `defer` and `allow` are kept for
 * steps 4 and 6, so deny rules and plan mode still apply to them. A rewritten input is validated
 * again like the model's.
 */
export const preToolUseHooksStep: PermissionStep = (state) => (hasHooks(state.args.hooks, 'PreToolUse') ? runPreToolUseHooks(state) : undefined);

async function runPreToolUseHooks(state: PipelineState): Promise<StepResult> {
  const { hooks, tool, toolUseId, agent, signal } = state.args;
  const { outputs, errors } = await runHooksUnchecked({
    event: 'PreToolUse',
    input: Object.assign(toolHookInput(state), { tool: { readOnly: isReadOnlyCallUnchecked(tool, state.input), kind: tool.kind } }),
    hooks,
    signal,
  });
  // An interrupt is not a hook failure: no error event, no denial in the audit log.
  if (signal.aborted) return decided(interrupted(state));
  if (errors.length > 0) {
    for (const error of errors) reportError(state, error);
    const message = errors[0]!.message;
    return decided(
      deny(state, { type: 'hook', hookEvent: 'PreToolUse', message }, `The call was not run because a PreToolUse hook failed: ${message}`),
    );
  }
  const verdict = composePreToolUse(outputs);
  if (verdict.decision === 'deny') {
    const message = verdict.reason ?? `A PreToolUse hook denied this ${tool.name} call.`;
    return decided(deny(state, { type: 'hook', hookEvent: 'PreToolUse', message }, message));
  }
  if (verdict.hasUpdatedInput) {
    const validated = await validateToolInput({ tool, input: verdict.updatedInput, writtenBy: 'host', toolUseId, agent, signal });
    if (!validated.ok) {
      const message = `A PreToolUse hook rewrote the input into an invalid one. ${validated.message}`;
      return decided(deny(state, { type: 'validation', message }, message));
    }
    // The model is told its input was rewritten, as for the host's other edits (a question's
    // answers and a plan are the host's answer there, not an edit: their tools read it so).
    if (!('editedFrom' in state) && !tool.requiresUserInteraction && !tool.handlesHostAnswer) state.editedFrom = state.input;
    state.input = validated.value;
  }
  if (verdict.decision !== undefined) state.hookVerdict = verdict;
  return undefined;
}
