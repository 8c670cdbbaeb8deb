import { ModelError } from '../../errors/model-error.js';

/** What a "prompt is too long" refusal says: the prompt's size and the window, when given. */
export interface PromptTooLong {
  /** Tokens of the refused prompt. */
  tokens?: number;
  /** The model's maximum. */
  maximum?: number;
}

const pattern = /prompt is too long(?::\s*(\d+)\s*tokens\s*>\s*(\d+)\s*maximum)?/i;

/**
 * Recognizes the API's refusal of a prompt over the context window (HTTP 400
 * `invalid_request_error`, "prompt is too long: 219898 tokens > 200000 maximum"), the signal for
 * a reactive compaction and one retry.
 * @param error - anything a model call threw.
 * @returns the figures the message gives, or undefined when the error is something else.
 */
export function promptTooLong(error: unknown): PromptTooLong | undefined {
  if (!ModelError.isInstance(error)) return undefined;
  if (error.status !== undefined && error.status !== 400) return undefined;
  if (error.errorType !== undefined && error.errorType !== 'invalid_request_error') return undefined;
  const match = pattern.exec(error.message);
  if (!match) return undefined;
  return match[1] === undefined ? {} : { tokens: Number(match[1]), maximum: Number(match[2]) };
}
