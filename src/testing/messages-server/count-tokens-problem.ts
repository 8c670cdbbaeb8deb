import { validateMessagesRequestBody, type ValidateMessagesRequestBodyOptions } from './validate-messages-request-body.js';

/** Fields of a Messages request that the token counting endpoint refuses. */
const refusedFields = ['max_tokens', 'stream', 'temperature', 'top_p', 'top_k', 'stop_sequences', 'metadata', 'service_tier'];

/**
 * Checks a `POST /v1/messages/count_tokens` body the way the real API does: the same rules as a
 * Messages request except that `max_tokens` is not taken, and generation-only fields are refused
 * as extra inputs.
 * @returns the API's `invalid_request_error` message, or undefined when the body is valid.
 */
export function countTokensProblem(body: unknown, options: ValidateMessagesRequestBodyOptions = {}): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'Input should be a valid dictionary';
  const request = body as Record<string, unknown>;
  const extra = refusedFields.find((field) => request[field] !== undefined);
  if (extra) return `${extra}: Extra inputs are not permitted`;
  // The shared rules require max_tokens; give them one so only the other rules speak.
  return validateMessagesRequestBody({ ...request, max_tokens: 1 }, options);
}
