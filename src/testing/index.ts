/**
 * `agent-harness/testing`: test your agents without a network — a scripted model, and a
 * loopback Messages API server for driving the real `@anthropic-ai/sdk` client — and test your
 * own session and plan stores with the conformance suites every store of the library passes.
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
export {
  sessionStoreConformance,
  planStoreConformance,
  describeConformance,
  manualClock,
  StoreConformanceFailure,
  type SessionStoreConformanceOptions,
  type SessionStoreConformanceContext,
  type SessionStoreFixture,
  type PlanStoreConformanceOptions,
  type PlanStoreFixture,
  type ConformanceCase,
  type ConformanceTestFunction,
  type DescribeConformanceOptions,
  type ManualClock,
} from './store-conformance/index.js';
