import type { AgentCore } from '../runtime/agent-core.js';
import { ModelError } from '../errors/model-error.js';
import type { ModelRequest, ModelResponse } from '../model/model.js';

/**
 * Streams one model turn, forwarding text and thinking deltas as events, and returns the
 * assembled response. A retryable failure in the middle of the stream (an `overloaded_error`
 * frame, a dropped connection) repeats the turn up to `maxRetries` times; nothing is added to
 * the history until a response is complete, so a retry duplicates nothing.
 * @throws ModelError (or the model's own error) when the turn cannot be completed.
 */
export async function streamTurn(core: AgentCore, request: ModelRequest, maxRetries: number): Promise<ModelResponse> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await streamOnce(core, request);
    } catch (error) {
      // HTTP-level failures were already retried by the adapter (the SDK's own retry); only
      // failures inside a stream, which carry no HTTP status, are retried here.
      const retryable = ModelError.isInstance(error) && error.retryable && error.status === undefined;
      if (!retryable || attempt >= maxRetries || request.signal?.aborted) throw error;
      core.emit({ type: 'error', error: error as Error, fatal: false });
    }
  }
}

async function streamOnce(core: AgentCore, request: ModelRequest): Promise<ModelResponse> {
  let response: ModelResponse | undefined;
  for await (const event of core.options.model.stream(request)) {
    switch (event.type) {
      case 'text-delta':
        core.emit({ type: 'text-delta', text: event.text });
        break;
      case 'thinking-delta':
        core.emit({ type: 'thinking-delta', thinking: event.thinking });
        break;
      case 'response':
        response = event.response;
        break;
      default:
        break;
    }
  }
  if (!response) {
    throw new ModelError(`The model "${core.options.model.modelId}" ended its stream without a response event; a Model must yield exactly one { type: 'response' } event last.`, { retryable: true });
  }
  return response;
}
