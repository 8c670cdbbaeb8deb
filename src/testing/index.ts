/**
 * `agent-harness/testing`: test your agents without a network — a scripted model, the Messages
 * API's own rules for a request (to check a history your agent built), and the conformance
 * suites every session and plan store of the library passes. Free of Node built-ins (it bundles
 * for a browser); the loopback Messages API server for driving the real `@anthropic-ai/sdk`
 * client is in `agent-harness/testing/messages-server`.
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
export { validateMessagesRequest } from './messages-server/validate-messages-request.js';
export { validateMessagesRequestBody, type ValidateMessagesRequestBodyOptions } from './messages-server/validate-messages-request-body.js';
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
