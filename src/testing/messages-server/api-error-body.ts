/** The JSON body the real API sends with an error, e.g. `{ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' }, request_id }`. */
export interface ApiErrorBody {
  type: 'error';
  error: { type: string; message: string };
  request_id: string;
}

/**
 * Builds an error body in the real API's shape.
 * @param errorType - e.g. `invalid_request_error`, `rate_limit_error`, `overloaded_error`, `api_error`.
 * @param message - the human-readable message.
 * @param requestId - the `request_id`, also sent as the `request-id` header.
 */
export function apiErrorBody(errorType: string, message: string, requestId: string): ApiErrorBody {
  return { type: 'error', error: { type: errorType, message }, request_id: requestId };
}
