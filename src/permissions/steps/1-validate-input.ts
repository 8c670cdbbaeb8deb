import { validateToolInput } from '../validate-tool-input.js';
import { decided, deny, type PermissionStep } from './pipeline-state.js';

/**
 * Step 1: the input must pass the tool's schema, then its own `validateInput`. A failure denies
 * with reason `validation` (not a permission matter, but one path for the loop); the model reads
 * which field is wrong.
 */
export const validateInputStep: PermissionStep = async (state) => {
  const { tool, toolUseId, agent, signal, rawInput } = state.args;
  const validated = await validateToolInput({ tool, input: rawInput, toolUseId, agent, signal });
  if (!validated.ok) return decided(deny(state, { type: 'validation', message: validated.message }, validated.message));
  state.input = validated.value;
  return undefined;
};
