/**
 * `agent-harness/testing/messages-server`: a loopback Messages API server for tests that drive
 * the real `@anthropic-ai/sdk` client — scripted turns, recorded streams, faults, and the API's
 * own 400s for an invalid request. Node only (it listens on a port); `agent-harness/testing`
 * stays free of Node built-ins, so `scriptedModel` bundles for a browser.
 * @packageDocumentation
 */
export { startMessagesServer } from './start-messages-server.js';
export type {
  FaultResponse,
  HttpFaultTiming,
  MessagesRequestBody,
  MessagesRequestInfo,
  MessagesServer,
  MessagesServerOptions,
  MessagesServerResponse,
  RecordingResponse,
  MessagesServerTurn,
  StaticMessagesResponse,
} from './messages-server-types.js';
export { DEFAULT_MINIMUM_CACHEABLE_TOKENS, type PromptCachingOptions } from './prompt-cache.js';
