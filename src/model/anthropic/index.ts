export { anthropicModel } from './anthropic-model.js';
export {
  CONTEXT_MANAGEMENT_BETA,
  type AnthropicModelOptions,
  type AnthropicThinkingConfig,
  type AnthropicContextManagement,
  type AnthropicEffort,
  type AnthropicPromptCaching,
} from './anthropic-model-options.js';
export {
  INCOMPLETE_TOOL_INPUT_KEY,
  isIncompleteToolInput,
  type IncompleteToolInput,
} from '../incomplete-tool-input.js';
