export { anthropicModel } from './anthropic-model.js';
export type { AnthropicModelOptions, AnthropicThinkingConfig } from './anthropic-model-options.js';
export {
  INCOMPLETE_TOOL_INPUT_KEY,
  isIncompleteToolInput,
  type IncompleteToolInput,
} from '../incomplete-tool-input.js';
