import type { Message, TextBlock } from '../../model/messages.js';
import type { ToolDefinition } from '../../model/model.js';
import { contentBlocks } from '../message-blocks.js';
import { UnsafeCompactionCutError } from '../../errors/unsafe-compaction-cut-error.js';
import { isSafeCut } from './find-compaction-cut.js';
import { buildHandoffSummaryPrompt } from './handoff-summary-prompt.js';
import { argumentError, isObjectValue } from '../../errors/argument-error.js';

/** Options of {@link buildSummaryRequest}. */
export interface BuildSummaryRequestOptions {
  /** The session's system prompt, unchanged (so the summary call reads the cached prefix). */
  system: readonly TextBlock[];
  /** The session's tool definitions, unchanged, for the same reason. */
  tools: readonly ToolDefinition[];
  /** The history. */
  messages: readonly Message[];
  /** The first message kept after compaction; `messages[0..cut)` are summarized. */
  cut: number;
  /**
   * Extra instructions for this summary.
   * @default undefined
   */
  instructions?: string;
}

/**
 * Builds the model request that asks for the handoff summary of `messages[0..cut)`. System and
 * tools are the session's own and the summarized messages are the same objects, so the call
 * reads the prompt cache the last turn wrote; the summary prompt is appended as user text (joined
 * to a last user message, after its tool results).
 * @param options - see {@link BuildSummaryRequestOptions}.
 * @throws UnsafeCompactionCutError when the cut is not safe.
 */
export function buildSummaryRequest(options: BuildSummaryRequestOptions): { system: TextBlock[]; tools: ToolDefinition[]; messages: Message[] } {
  if (!isObjectValue(options)) throw argumentError('buildSummaryRequest', 'options', 'an options object ({ messages, cut })', options);
  if (!Array.isArray(options.messages)) throw argumentError('buildSummaryRequest', 'options.messages', 'an array of messages', options.messages);
  const { messages, cut } = options;
  if (!isSafeCut(messages, cut)) {
    throw new UnsafeCompactionCutError(cut, messages.length);
  }
  const prompt: TextBlock = { type: 'text', text: buildHandoffSummaryPrompt({ instructions: options.instructions }) };
  const summarized = messages.slice(0, cut);
  const last = summarized[summarized.length - 1]!;
  const request =
    last.role === 'user'
      ? [...summarized.slice(0, -1), { role: 'user' as const, content: [...contentBlocks(last), prompt] }]
      : [...summarized, { role: 'user' as const, content: [prompt] }];
  return { system: [...options.system], tools: [...options.tools], messages: request };
}
