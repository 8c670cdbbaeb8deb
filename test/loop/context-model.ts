import { estimateMessageTokens, estimatePrefixTokens } from '../../src/context/index.js';
import type { AssistantMessage, ContentBlock, Message, TextBlock } from '../../src/model/messages.js';
import type { Model, ModelRequest, ModelResponse, ToolDefinition } from '../../src/model/model.js';
import { ModelError } from '../../src/errors/model-error.js';
import { validateMessagesRequest } from '../../src/testing/messages-server/validate-messages-request.js';

/** The text of a request's last user message. */
export function lastUserText(request: ModelRequest): string {
  const last = request.messages[request.messages.length - 1]!;
  return typeof last.content === 'string' ? last.content : last.content.map((block) => (block.type === 'text' ? (block as TextBlock).text : '')).join('\n');
}

/** Whether the request asks for a handoff summary. */
export const asksForSummary = (request: ModelRequest) => lastUserText(request).includes('is about to be replaced by a summary');

/** The size of a request by the same heuristic the tracker starts from. */
export function requestTokens(request: ModelRequest): number {
  return estimatePrefixTokens({ system: request.system, tools: request.tools as ToolDefinition[] }) + request.messages.reduce((sum, message) => sum + estimateMessageTokens(message), 0);
}

export interface ContextModel extends Model {
  /** Every request, with its messages copied at call time, and whether the API would have accepted it. */
  readonly calls: Array<{ request: ModelRequest; messages: Message[]; problem: string | undefined; tokens: number }>;
}

/**
 * A model for context tests: answers through `respond`, reports usage as the estimate of the
 * request (so the tracker is calibrated at 1), refuses a request over `window` like the API
 * ("prompt is too long"), and records whether each request is valid by the API's rules.
 */
export function contextModel(respond: (request: ModelRequest, index: number) => ContentBlock[], options: { window?: number } = {}): ContextModel {
  const calls: ContextModel['calls'] = [];
  return {
    specificationVersion: 'v1',
    provider: 'test',
    modelId: 'claude-sonnet-4-6',
    calls,
    async *stream(request) {
      const tokens = requestTokens(request);
      calls.push({ request, messages: [...request.messages], problem: validateMessagesRequest(request.messages), tokens });
      if (options.window !== undefined && tokens > options.window) {
        throw new ModelError(`prompt is too long: ${tokens} tokens > ${options.window} maximum`, { status: 400, errorType: 'invalid_request_error' });
      }
      const content = respond(request, calls.length - 1);
      const message: AssistantMessage = { role: 'assistant', content: content as AssistantMessage['content'] };
      const response: ModelResponse = {
        message,
        stopReason: content.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn',
        usage: { inputTokens: tokens, outputTokens: estimateMessageTokens(message), cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
      };
      yield { type: 'response', response };
    },
  };
}
