// What anthropicModel needs only once it is called (the request body, reading the stream, the
// errors), in one module it loads by dynamic import on its first call, as it does the SDK: a
// browser host does not download it up front. Named exports read the same from the ES module
// build and the CommonJS one.
export { mapAnthropicError } from './map-anthropic-error.js';
export { streamAnthropicTurn } from './stream-anthropic-turn.js';
export { toAnthropicRequest, toCountTokensRequest } from './to-anthropic-request.js';
export { sharedPrefixGateFor } from './shared-prefix-gate.js';
