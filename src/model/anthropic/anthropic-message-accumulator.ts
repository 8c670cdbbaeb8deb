import type { ContentBlock } from '../messages.js';
import type { ModelResponse, ModelStreamEvent, StopDetails, StopReason } from '../model.js';
import { emptyUsage, type Usage } from '../usage.js';
import type { AnthropicStreamEvent, AnthropicWireUsage } from './anthropic-stream-event.js';
import { INCOMPLETE_TOOL_INPUT_KEY, parseToolInputJson, type IncompleteToolInput } from '../incomplete-tool-input.js';
import { ModelError } from '../../errors/model-error.js';
import { setOwnField } from '../set-own-field.js';

type MutableBlock = { type: string; [key: string]: unknown };

/**
 * Stop reasons that end a response wherever the output was, also inside a tool call's input: the
 * output limit, the model's context window, a streaming refusal.
 */
const CUT_STOP_REASONS: ReadonlySet<string> = new Set(['max_tokens', 'model_context_window_exceeded', 'refusal']);

/** Blocks that take tool input deltas: `tool_use`, `server_tool_use`, `mcp_tool_use`, and later kinds of call. */
const takesInput = (type: string) => type.endsWith('tool_use');

/**
 * Blocks whose shape the API checks when they are sent back (text, thinking, calls and their
 * results): a delta of a type unknown here is not merged into them, so it can never add a field
 * the API refuses or overwrite an id, a name or a signature. Blocks of other types take it.
 */
const hasKnownShape = (type: string) => type === 'text' || type === 'thinking' || type === 'redacted_thinking' || type.endsWith('tool_use') || type.endsWith('tool_result');

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A count the API could have sent: a finite number, 0 or more (anything else is ignored, as null is). */
const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

/** What a value is, in a sentence's words ("an object", "a number"), for an error naming it. */
function describeKind(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  const kind = typeof value;
  return kind === 'object' || kind === 'undefined' ? `an ${kind}` : `a ${kind}`;
}

/**
 * The text a delta carries in `field` (`text_delta.text`, `thinking_delta.thinking`,
 * `input_json_delta.partial_json`): a string, or '' when absent or null. Anything else is a
 * malformed stream: joined, it would put "[object Object]" in the answer (and in every later request),
 * so the event is refused (the stream's reader fails the attempt with a retryable `ModelError`).
 */
function deltaString(delta: { type: string; [key: string]: unknown }, field: string): string {
  const value = delta[field];
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  throw new TypeError(`${delta.type}.${field} is ${describeKind(value)}, not a string`);
}

/** The longest `stop_details` text kept (a category, an explanation); longer text is cut. */
const MAX_STOP_DETAIL_CHARS = 2000;

/** A `stop_details` text field: a string (bounded), else null. */
function detailText(value: unknown): string | null {
  return typeof value === 'string' ? value.slice(0, MAX_STOP_DETAIL_CHARS) : null;
}

/** The API's `stop_details` as {@link StopDetails}, or undefined when it is not an object with a string `type`. */
function stopDetailsOf(value: unknown): StopDetails | undefined {
  if (!isObject(value) || typeof value.type !== 'string') return undefined;
  return { type: value.type.slice(0, 100), category: detailText(value.category), explanation: detailText(value.explanation) };
}

/** No input given: absent, or an object without keys (how the API opens a streamed `tool_use`). */
function isEmptyInput(input: unknown): boolean {
  return input === undefined || input === null || (typeof input === 'object' && !Array.isArray(input) && Object.keys(input).length === 0);
}

/**
 * Assembles one assistant message from Messages API stream events, and translates each event into
 * the {@link ModelStreamEvent} delta it stands for. It owns the blocks it builds and mutates them in
 * place (no per-delta copies).
 *
 * Rules, matching the SDK's `MessageStream` except where the SDK drops data:
 * - `tool_use` (and any block receiving `input_json_delta`, e.g. `server_tool_use`,
 *   `mcp_tool_use`) gets its input parsed once, at `content_block_stop`, from the concatenated
 *   `partial_json`; `""` becomes `{}`; JSON that does not parse becomes
 *   `{ __incomplete_json__: raw }` (see `isIncompleteToolInput`). A block still open when the
 *   message ends is finalized the same way. A `tool_use` that is the last block of a message
 *   stopped where it was (`max_tokens`, `model_context_window_exceeded`, `refusal`), and got no
 *   input (none in its start, no non-empty delta), was cut before its input: it gets the marker
 *   with `""`, not `{}` (a call that completed with no input, stop reason `tool_use`, keeps `{}`).
 * - `citations_delta` appends to a text block's `citations`; `signature_delta` sets a thinking
 *   block's `signature` (a string); `input_json_delta` feeds blocks of a `…tool_use` type. A
 *   delta sent to a block of another type is dropped: kept, it would add a field the API refuses
 *   when the message is sent back.
 * - An unknown delta type is merged into its block field by field (its `type` aside), which is
 *   how `compaction_delta` carries a block's final value, unless the block is text, thinking, a
 *   call or a call's result (their shape is checked by the API; the delta is dropped). Unknown
 *   block types pass through as sent.
 * - Usage: the last reported value of each counter wins; counters are never summed.
 * - Blocks and a stop reason already present in `message_start` are kept (programmatic tool calling).
 * - Events after `message_stop` are ignored.
 */
export class AnthropicMessageAccumulator {
  /** The assembled content blocks so far. */
  readonly content: ContentBlock[] = [];
  /** Message id from `message_start`. */
  id: string | undefined;
  /** Model id from `message_start`. */
  model: string | undefined;
  /** Stop reason from `message_delta` (the last one reported, except that `refusal` stays); null until it arrives. */
  stopReason: StopReason | null = null;
  /** `stop_details` from `message_delta` (kept with a refusal, like the stop reason). */
  stopDetails: StopDetails | undefined;
  /** Usage, last known value of each counter. */
  readonly usage: Usage = emptyUsage();
  /** True once `message_start` arrived. */
  started = false;
  /** True once `message_stop` arrived. */
  stopped = false;
  readonly #jsonParts = new Map<number, string[]>();
  /** `tool_use` blocks that got no input yet (an empty one in their start, no non-empty delta). */
  readonly #awaitingInput = new Set<number>();

  /**
   * Applies one event and returns the delta event to yield for it, if any.
   * @param event - one parsed server-sent event.
   */
  apply(event: AnthropicStreamEvent): ModelStreamEvent | undefined {
    if (this.stopped) return undefined; // one response holds one message; nothing follows message_stop
    if (!isObject(event)) return undefined; // not an event: nothing to apply
    switch (event.type) {
      case 'message_start': {
        this.started = true;
        const message = isObject(event.message) ? event.message : {};
        if (typeof message.id === 'string') this.id = message.id;
        if (typeof message.model === 'string') this.model = message.model;
        // Usually empty, but a response may open with blocks already complete (programmatic tool
        // calling sends tool_use blocks and the stop reason right in message_start).
        if (Array.isArray(message.content)) {
          for (const block of message.content) if (isObject(block) && typeof block.type === 'string') this.content.push({ ...block } as ContentBlock);
        }
        if (typeof message.stop_reason === 'string') this.stopReason = message.stop_reason;
        if (isObject(message.usage)) this.#updateUsage(message.usage);
        return undefined;
      }
      case 'content_block_start':
        return this.#startBlock(event.index, event.content_block);
      case 'content_block_delta':
        return isObject(event.delta) && typeof event.delta.type === 'string' ? this.#applyDelta(event.index, event.delta as { type: string }) : undefined;
      case 'content_block_stop':
        this.#finishToolInput(event.index);
        return undefined;
      case 'message_delta': {
        const delta: Record<string, unknown> = isObject(event.delta) ? event.delta : {};
        // A refusal is final: a later stop reason (a second message_delta) cannot unsay it, or the
        // refused answer's calls would run and the loop would go on from it.
        if ((typeof delta.stop_reason === 'string' || delta.stop_reason === null) && this.stopReason !== 'refusal') {
          this.stopReason = delta.stop_reason;
          const details = stopDetailsOf(delta.stop_details);
          if (details) this.stopDetails = details;
        }
        if (isObject(event.usage)) this.#updateUsage(event.usage);
        return undefined;
      }
      case 'message_stop':
        this.stopped = true;
        this.finish();
        return undefined;
      default:
        return undefined; // ping, and event types added to the API later
    }
  }

  /**
   * Finalizes tool inputs of blocks that never received `content_block_stop`, and marks a last
   * `tool_use` cut by `max_tokens` before any of its input arrived.
   */
  finish(): void {
    for (const index of [...this.#jsonParts.keys()]) this.#finishToolInput(index);
    // Only the last block can be the one the limit cut; an earlier call without input was whole.
    const last = this.content.length - 1;
    if (this.stopReason !== null && CUT_STOP_REASONS.has(this.stopReason) && this.#awaitingInput.has(last)) {
      (this.content[last] as MutableBlock).input = { [INCOMPLETE_TOOL_INPUT_KEY]: '' } satisfies IncompleteToolInput;
    }
    this.#awaitingInput.clear();
  }

  /** The assembled response; call after the stream ended. */
  toResponse(): ModelResponse {
    this.finish();
    const response: ModelResponse = {
      message: { role: 'assistant', content: this.content },
      stopReason: this.stopReason,
      usage: this.usage,
    };
    if (this.id !== undefined) response.id = this.id;
    if (this.model !== undefined) response.model = this.model;
    if (this.stopDetails !== undefined) response.stopDetails = this.stopDetails;
    return response;
  }

  #startBlock(index: number, started: unknown): ModelStreamEvent | undefined {
    // Like the SDK, blocks are appended in arrival order; deltas address them by index. The API
    // numbers them 0, 1, 2, …: a start at another index (repeated, skipped) would send later
    // deltas into the wrong block, so the answer is refused (and the turn retried) instead.
    if (index !== this.content.length) {
      throw new ModelError(
        `The response stream started content block ${JSON.stringify(index)} where block ${this.content.length} comes next (a repeated or skipped content_block_start); the answer was discarded.`,
        { retryable: true },
      );
    }
    // A block without a type cannot be sent back, and dropping it would renumber the ones after it.
    if (!isObject(started) || typeof started.type !== 'string') {
      throw new ModelError(`The response stream started content block ${index} without a block type (got ${JSON.stringify(started)?.slice(0, 100)}); the answer was discarded.`, { retryable: true });
    }
    // A text or thinking block opened with a text that is not a string: the deltas would be joined to "[object Object]".
    const field = started.type === 'text' ? 'text' : started.type === 'thinking' ? 'thinking' : undefined;
    if (field !== undefined && started[field] !== undefined && typeof started[field] !== 'string') {
      throw new ModelError(`The response stream started ${started.type} block ${index} whose ${field} is ${describeKind(started[field])}, not a string; the answer was discarded.`, { retryable: true });
    }
    const block = { ...started } as MutableBlock;
    this.content.push(block as ContentBlock);
    if (block.type === 'tool_use' && isEmptyInput(block.input)) this.#awaitingInput.add(index);
    if (block.type === 'tool_use' && typeof block.id === 'string' && typeof block.name === 'string') {
      return { type: 'tool-input-start', index, id: block.id, name: block.name };
    }
    return undefined;
  }

  #applyDelta(index: number, delta: { type: string; [key: string]: unknown }): ModelStreamEvent | undefined {
    const block = this.content[index] as MutableBlock | undefined;
    if (!block) return undefined; // a delta for a block that never started: nothing to attach it to
    switch (delta.type) {
      case 'text_delta': {
        const text = deltaString(delta, 'text');
        if (block.type !== 'text') return undefined;
        block.text = String(block.text ?? '') + text;
        return { type: 'text-delta', index, text };
      }
      case 'thinking_delta': {
        const thinking = deltaString(delta, 'thinking');
        if (block.type !== 'thinking') return undefined;
        block.thinking = String(block.thinking ?? '') + thinking;
        return { type: 'thinking-delta', index, thinking };
      }
      case 'signature_delta':
        if (block.type === 'thinking' && typeof delta.signature === 'string') block.signature = delta.signature;
        return undefined;
      case 'citations_delta': {
        if (block.type !== 'text') return undefined;
        const citations = Array.isArray(block.citations) ? (block.citations as unknown[]) : [];
        block.citations = [...citations, delta.citation];
        return undefined;
      }
      case 'input_json_delta': {
        if (!takesInput(block.type)) return undefined;
        const partialJson = deltaString(delta, 'partial_json');
        const parts = this.#jsonParts.get(index);
        if (parts) parts.push(partialJson);
        else this.#jsonParts.set(index, [partialJson]);
        if (partialJson !== '') this.#awaitingInput.delete(index);
        return block.type === 'tool_use' ? { type: 'tool-input-delta', index, partialJson } : undefined;
      }
      default:
        if (hasKnownShape(block.type)) return undefined;
        for (const [key, value] of Object.entries(delta)) if (key !== 'type') setOwnField(block, key, value);
        return undefined;
    }
  }

  #finishToolInput(index: number): void {
    const parts = this.#jsonParts.get(index);
    const block = this.content[index] as MutableBlock | undefined;
    if (!parts || !block) return;
    this.#jsonParts.delete(index);
    const raw = parts.join('');
    // No deltas beyond an empty one: the input given in content_block_start stands.
    if (raw === '' && typeof block.input === 'object' && block.input !== null && Object.keys(block.input).length > 0) return;
    block.input = parseToolInputJson(raw);
  }

  #updateUsage(usage: AnthropicWireUsage): void {
    if (isCount(usage.input_tokens)) this.usage.inputTokens = usage.input_tokens;
    if (isCount(usage.output_tokens)) this.usage.outputTokens = usage.output_tokens;
    if (isCount(usage.cache_read_input_tokens)) this.usage.cacheReadInputTokens = usage.cache_read_input_tokens;
    if (isCount(usage.cache_creation_input_tokens)) this.usage.cacheCreationInputTokens = usage.cache_creation_input_tokens;
  }
}
