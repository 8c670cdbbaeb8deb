export { startMessagesServer } from './start-messages-server.js';
export type {
  FaultResponse,
  MessagesRequestBody,
  MessagesRequestInfo,
  MessagesServer,
  MessagesServerOptions,
  MessagesServerResponse,
  RecordingResponse,
  MessagesServerTurn,
  StaticMessagesResponse,
} from './messages-server-types.js';
export { validateMessagesRequest } from './validate-messages-request.js';
export { validateMessagesRequestBody, type ValidateMessagesRequestBodyOptions } from './validate-messages-request-body.js';
export { DEFAULT_MINIMUM_CACHEABLE_TOKENS, type PromptCachingOptions } from './prompt-cache.js';
