/**
 * `agent-harness/testing`: test your agents without a network — a scripted model, and a
 * loopback Messages API server for driving the real `@anthropic-ai/sdk` client.
 * @packageDocumentation
 */
export { scriptedModel, type ScriptedModel, type ScriptedModelOptions, type RecordedRequest } from './scripted-model/scripted-model.js';
export {
  text,
  thinking,
  toolCall,
  turn,
  type ScriptedTurn,
  type ScriptedTurnOptions,
  type ScriptedTurnFactory,
  type ScriptItem,
} from './scripted-model/builders.js';
export {
  startMessagesServer,
  validateMessagesRequest,
  validateMessagesRequestBody,
  type ValidateMessagesRequestBodyOptions,
  type FaultResponse,
  type MessagesRequestBody,
  type MessagesRequestInfo,
  type MessagesServer,
  type MessagesServerOptions,
  type MessagesServerResponse,
  type RecordingResponse,
  type MessagesServerTurn,
  type StaticMessagesResponse,
  DEFAULT_MINIMUM_CACHEABLE_TOKENS,
  type PromptCachingOptions,
} from './messages-server/index.js';
