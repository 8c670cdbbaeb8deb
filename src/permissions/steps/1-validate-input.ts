import { checkWithTool, parseToolInput, type ValidatedInput } from '../validate-tool-input.js';
import { decided, deny, type PermissionStep, type PipelineState, type StepResult } from './pipeline-state.js';

/**
 * Step 1: the input must pass the tool's schema, then its own `validateInput`. A failure denies
 * with reason `validation` (not a permission matter, but one path for the loop); the model reads
 * which field is wrong.
 */
export const validateInputStep: PermissionStep = (state) => {
  const { tool, rawInput } = state.args;
  const parsed = parseToolInput(tool, rawInput);
  // Synchronous unless the tool has its own validateInput: no promise per call for the others,
  // and no signal read (a run's signal is made on first read, see RunAbort).
  if (!parsed.ok || tool.validateInput === undefined) return accept(state, parsed);
  const { toolUseId, agent, signal } = state.args;
  return checkWithTool({ tool, input: rawInput, toolUseId, agent, signal }, parsed.value).then((answer) => accept(state, answer));
};

function accept(state: PipelineState, validated: ValidatedInput): StepResult {
  if (!validated.ok) return decided(deny(state, { type: 'validation', message: validated.message }, validated.message));
  state.input = validated.value;
  return undefined;
}
