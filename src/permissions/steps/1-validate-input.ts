import { validateToolInputNow, type ValidatedInput } from '../validate-tool-input.js';
import { decided, deny, type PermissionStep, type PipelineState, type StepResult } from './pipeline-state.js';

/**
 * Step 1: the input must pass the tool's schema, then its own `validateInput`. A failure denies
 * with reason `validation` (not a permission matter, but one path for the loop); the model reads
 * which field is wrong.
 */
export const validateInputStep: PermissionStep = (state) => {
  const { tool, rawInput } = state.args;
  // Synchronous unless the tool has its own validateInput: no promise per call for the others.
  // The arguments are the context: their signal is read only if that check runs.
  const validated = validateToolInputNow(tool, rawInput, state.args);
  return validated instanceof Promise ? validated.then((answer) => accept(state, answer)) : accept(state, validated);
};

function accept(state: PipelineState, validated: ValidatedInput): StepResult {
  if (!validated.ok) return decided(deny(state, { type: 'validation', message: validated.message }, validated.message));
  state.input = validated.value;
  return undefined;
}
