import { ModelError } from '../../errors/model-error.js';
import { ScriptMismatchError } from '../../errors/script-mismatch-error.js';
import type { Message } from '../../model/messages.js';
import type { Model, ModelCapabilities, ModelRequest, ModelStreamEvent } from '../../model/model.js';
import type { Usage } from '../../model/usage.js';
import { resolveScriptItem, type ScriptItem, type ScriptedTurn } from './builders.js';
import { checkScriptItems } from './check-script-items.js';
import { checkOptions, isBoolean, isNonEmptyString, isPlainObject, isPositiveInteger, type OptionsSpec } from '../../options/index.js';
import { safeJson } from '../../model/safe-json.js';

/** A request as the scripted model recorded it. */
export interface RecordedRequest {
  /** The request as received (its `messages` is a copy of the array at call time). */
  request: ModelRequest;
  /** The messages at call time (a shallow copy of the array; the messages themselves are shared). */
  messages: Message[];
}

/** Options of {@link scriptedModel}. */
export interface ScriptedModelOptions {
  /**
   * Model id reported (used for pricing).
   * @default 'scripted'
   */
  modelId?: string;
  /**
   * Split streamed text into chunks of at most this many characters.
   * @default 16
   */
  chunkSize?: number;
  /**
   * Claim native structured output (`Model.structuredOutput`), so runs asked for a typed `output`
   * send `outputFormat` instead of showing the schema in the prompt. The script still decides the
   * answer: it is validated like any other.
   * @default false
   */
  structuredOutput?: boolean;
  /**
   * What the model says it supports, e.g. `{ toolSearch: 'server' }` to test deferred tools the
   * way the Messages API takes them (script the `server_tool_use` and `tool_search_tool_result`
   * blocks, or use the loopback Messages server, which runs the search).
   * @default {} (deferred tools are found through the client-side `ToolSearch`)
   */
  capabilities?: ModelCapabilities;
}

/** A fake {@link Model} that plays a script; see {@link scriptedModel}. */
export interface ScriptedModel extends Model {
  /** Every request received, in order. */
  readonly requests: readonly RecordedRequest[];
  /** How many script items have not been played yet. */
  readonly remaining: number;
  /** Appends items to the script. */
  push(...items: ScriptItem[]): void;
  /** Throws a {@link ScriptMismatchError} naming the unused items when the script is not fully played. */
  assertAllUsed(): void;
}

function* chunk(value: string, size: number): Generator<string> {
  if (value.length === 0) return;
  for (let index = 0; index < value.length; index += size) yield value.slice(index, index + size);
}

function fullUsage(partial: Partial<Usage> | undefined): Usage {
  return {
    inputTokens: partial?.inputTokens ?? 10,
    outputTokens: partial?.outputTokens ?? 10,
    cacheReadInputTokens: partial?.cacheReadInputTokens ?? 0,
    cacheCreationInputTokens: partial?.cacheCreationInputTokens ?? 0,
  };
}

function abortError(): ModelError {
  return new ModelError('The model request was aborted.', { errorType: 'aborted' });
}

const OPTIONS: OptionsSpec<ScriptedModelOptions> = { modelId: isNonEmptyString, chunkSize: isPositiveInteger, structuredOutput: isBoolean, capabilities: isPlainObject };

/**
 * A model that plays a script of turns, for tests and offline demos. It records every request,
 * streams text in chunks like a real model, and fails loudly when the run asks for a turn the
 * script does not have.
 * @throws ConfigurationError for a script item that cannot be played (a block given directly
 *   instead of in `turn(...)` or an array, say), naming its index; `push` checks its items the same way.
 * @example
 * const model = scriptedModel([
 *   turn('Reading the profile.', toolCall('profile_reader', {})),
 *   'Here is the outline.',
 * ]);
 */
export function scriptedModel(script: ScriptItem[], options: ScriptedModelOptions = {}): ScriptedModel {
  checkOptions<ScriptedModelOptions>(options, OPTIONS, { owner: 'scriptedModel', optional: true });
  checkScriptItems(script, 'scriptedModel');
  const items = [...script];
  const requests: RecordedRequest[] = [];
  const chunkSize = options.chunkSize ?? 16;
  let played = 0;

  async function* stream(request: ModelRequest): AsyncGenerator<ModelStreamEvent> {
    requests.push({ request, messages: [...request.messages] });
    const index = played;
    const item = items[index];
    if (item === undefined) {
      throw new ScriptMismatchError(
        `The scripted model was asked for turn ${index + 1}, but the script has only ${items.length} turn(s). Add a turn to the script, or check why the run made another model call (the last message was: ${describeLast(request.messages)}).`,
      );
    }
    played++;
    const scripted: ScriptedTurn = await resolveScriptItem(item, request, index);
    let heldOrFailed = false;
    const afterFirstDelta = async () => {
      if (heldOrFailed) return;
      heldOrFailed = true;
      if (scripted.hold) await scripted.hold(request.signal);
      if (request.signal?.aborted) throw abortError();
      if (scripted.error) throw scripted.error;
    };
    for (const [blockIndex, block] of scripted.content.entries()) {
      if (request.signal?.aborted) throw abortError();
      if (block.type === 'text') {
        for (const piece of chunk((block as { text: string }).text, chunkSize)) {
          yield { type: 'text-delta', index: blockIndex, text: piece };
          await afterFirstDelta();
        }
      } else if (block.type === 'thinking') {
        for (const piece of chunk((block as { thinking: string }).thinking, chunkSize)) {
          yield { type: 'thinking-delta', index: blockIndex, thinking: piece };
          await afterFirstDelta();
        }
      } else if (block.type === 'tool_use') {
        const toolUse = block as { id: string; name: string; input: unknown };
        yield { type: 'tool-input-start', index: blockIndex, id: toolUse.id, name: toolUse.name };
        // An input JSON cannot write (a script playing a hostile model: nested thousands of levels,
        // a cycle, a BigInt) streams nothing; the response carries it for the loop to judge.
        yield { type: 'tool-input-delta', index: blockIndex, partialJson: safeJson(toolUse.input ?? {}) };
        await afterFirstDelta();
      }
    }
    await afterFirstDelta();
    const hasToolCalls = scripted.content.some((block) => block.type === 'tool_use');
    yield {
      type: 'response',
      response: {
        id: `msg_scripted_${index + 1}`,
        model: options.modelId ?? 'scripted',
        message: { role: 'assistant', content: scripted.content.map((block) => ({ ...block })) },
        stopReason: scripted.stopReason ?? (hasToolCalls ? 'tool_use' : 'end_turn'),
        ...(scripted.stopDetails ? { stopDetails: { ...scripted.stopDetails } } : {}),
        usage: fullUsage(scripted.usage),
      },
    };
  }

  return {
    specificationVersion: 'v1',
    provider: 'scripted',
    modelId: options.modelId ?? 'scripted',
    ...(options.structuredOutput ? { structuredOutput: true } : {}),
    ...(options.capabilities ? { capabilities: { ...options.capabilities } } : {}),
    stream,
    get requests() {
      return requests;
    },
    get remaining() {
      return items.length - played;
    },
    push(...more) {
      checkScriptItems(more, 'model.push', items.length);
      items.push(...more);
    },
    assertAllUsed() {
      if (played < items.length) {
        throw new ScriptMismatchError(
          `The run ended with ${items.length - played} scripted turn(s) unused (turns ${played + 1}-${items.length} of ${items.length}). Remove them from the script, or check why the run stopped early.`,
        );
      }
    },
  };
}

function describeLast(messages: readonly Message[]): string {
  const last = messages[messages.length - 1];
  if (!last) return 'none';
  const content = typeof last.content === 'string' ? [{ type: 'text' }] : last.content;
  return `${last.role} message with ${content.map((block) => block.type).join(', ') || 'no blocks'}`;
}
