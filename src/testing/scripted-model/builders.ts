import type { ContentBlock, TextBlock, ThinkingBlock, ToolUseBlock } from '../../model/messages.js';
import type { ModelRequest, StopDetails, StopReason } from '../../model/model.js';
import type { Usage } from '../../model/usage.js';
import { accepts, checkOptions, describeOptionValue, isFunction, isNonEmptyString, isPlainObject, type OptionsSpec } from '../../options/index.js';
import { ConfigurationError } from '../../errors/configuration-error.js';
import { checkFactoryTurn, describeScriptValue } from './check-script-items.js';

let nextToolUseNumber = 1;

/**
 * A text block for a scripted turn.
 * @throws ConfigurationError when `value` is not a string.
 */
export function text(value: string): TextBlock {
  if (typeof value !== 'string') throw new ConfigurationError(`text() takes the block's text as a string, got ${describeOptionValue(value)}; e.g. text('Done.').`);
  return { type: 'text', text: value };
}

/** A thinking block for a scripted turn. */
export function thinking(value: string, signature = 'scripted-signature'): ThinkingBlock {
  return { type: 'thinking', thinking: value, signature };
}

/**
 * A tool call for a scripted turn.
 * @param name - the tool's name.
 * @param input - the call's input, as the model sends it (not checked: a script may play a model
 *   that sends a wrong one).
 * @param id - the `tool_use` id; a unique `toolu_scripted_N` when omitted.
 * @throws ConfigurationError when `name` is not a non-empty string.
 */
export function toolCall(name: string, input: unknown = {}, id?: string): ToolUseBlock {
  if (typeof name !== 'string' || name === '') {
    throw new ConfigurationError(`toolCall() takes the tool's name first, got ${describeOptionValue(name)}; e.g. toolCall('Read', { file_path: 'a.md' }).`);
  }
  return { type: 'tool_use', id: id ?? `toolu_scripted_${nextToolUseNumber++}`, name, input };
}

/** Options of one scripted turn. */
export interface ScriptedTurnOptions {
  /**
   * The stop reason reported.
   * @default 'tool_use' when the turn has tool calls, else 'end_turn'
   */
  stopReason?: StopReason;
  /** The `stopDetails` reported with it (e.g. a refusal's category and explanation). @default undefined */
  stopDetails?: StopDetails;
  /** Usage reported for the turn. @default 10 input and 10 output tokens */
  usage?: Partial<Usage>;
  /**
   * Awaited after the first streamed delta and before the rest: lets a test interrupt mid-stream
   * or hold a turn open. Receives the request's abort signal.
   */
  hold?: (signal: AbortSignal | undefined) => Promise<void>;
  /** Throw this error instead of finishing (after the first delta), e.g. a retryable `ModelError`. */
  error?: Error;
}

/** One scripted model turn. */
export interface ScriptedTurn extends ScriptedTurnOptions {
  readonly kind: 'scripted-turn';
  content: ContentBlock[];
}

/** A turn computed from the request, e.g. to answer with what the tools returned. */
export type ScriptedTurnFactory = (request: ModelRequest, index: number) => ScriptedTurn | Promise<ScriptedTurn>;

/** What a script item may be: a turn, a factory, a bare string (one text block), or an array of blocks. */
export type ScriptItem = ScriptedTurn | ScriptedTurnFactory | string | ContentBlock[];

const TURN_OPTIONS: OptionsSpec<ScriptedTurnOptions> = {
  stopReason: isNonEmptyString,
  stopDetails: isPlainObject,
  usage: isPlainObject,
  hold: isFunction,
  error: accepts('an Error', (value) => value instanceof Error),
};

/**
 * Builds a scripted turn from blocks (strings become text blocks) and options.
 * @throws ConfigurationError for a part that is neither a string, a block nor turn options.
 * @example turn('Let me check.', toolCall('Read', { file_path: 'a.md' }))
 */
export function turn(...parts: Array<ContentBlock | string | ScriptedTurnOptions>): ScriptedTurn {
  const content: ContentBlock[] = [];
  let options: ScriptedTurnOptions = {};
  for (const part of parts) {
    if (typeof part === 'string') content.push(text(part));
    else if (typeof part !== 'object' || part === null || Array.isArray(part)) {
      throw new ConfigurationError(`turn() takes blocks, strings and turn options, got ${describeScriptValue(part)}; e.g. turn('Let me check.', toolCall('Read', { file_path: 'a.md' }), { stopReason: 'tool_use' }).`);
    } else if ('type' in part && typeof part.type === 'string') content.push(part as ContentBlock);
    else {
      checkOptions<ScriptedTurnOptions>(part, TURN_OPTIONS, { owner: 'turn', usage: "turn('text', { stopReason: 'max_tokens' })" });
      options = { ...options, ...part };
    }
  }
  return { kind: 'scripted-turn', content, ...options };
}

/** Normalizes any script item (checked by `checkScriptItems`) to a turn. */
export async function resolveScriptItem(item: ScriptItem, request: ModelRequest, index: number): Promise<ScriptedTurn> {
  if (typeof item === 'function') return checkFactoryTurn(await item(request, index), index);
  if (typeof item === 'string') return turn(item);
  if (Array.isArray(item)) return turn(...item);
  return item;
}
