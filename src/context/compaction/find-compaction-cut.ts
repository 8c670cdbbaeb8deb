import type { Message } from '../../model/messages.js';
import { estimateMessageTokens } from '../accounting/estimate-tokens.js';
import { answersTools, callsTools } from '../message-blocks.js';
import { argumentError, isObjectValue } from '../../errors/argument-error.js';

/**
 * Whether the history may be cut before `messages[index]` (everything before it summarized,
 * everything from it kept): no tool call before the cut is answered after it. That is, the
 * message before the cut does not call tools and the message after it does not answer any; the
 * end of the history is a cut unless the last message calls tools still unanswered.
 * @param messages - the history.
 * @param index - the first kept message, from 1 (something is summarized) to `messages.length`
 *   (everything is).
 */
export function isSafeCut(messages: readonly Message[], index: number): boolean {
  if (!Number.isInteger(index) || index < 1 || index > messages.length) return false;
  return !callsTools(messages[index - 1]) && !answersTools(messages[index]);
}

/** Options of {@link findCompactionCut}. */
export interface FindCompactionCutOptions {
  /**
   * Tokens of recent history to keep verbatim after the summary. The cut keeps at least this
   * much when a safe cut allows it, else as close to it as a safe cut comes.
   * @default 0 (summarize everything that can be)
   */
  keepTokens?: number;
  /**
   * Estimates one message (pass a `ContextTracker`'s `messageTokens` to reuse its cache).
   * @default estimateMessageTokens
   */
  estimate?: (message: Message) => number;
}

/**
 * Finds where to cut the history for a compaction: the latest safe cut (see {@link isSafeCut})
 * that still keeps `keepTokens` of recent history; when none does, the earliest safe cut after
 * that point (keeping less rather than not compacting).
 * @param messages - the history.
 * @param options - see {@link FindCompactionCutOptions}.
 * @returns the index of the first kept message (`messages.length` when nothing is kept), or
 *   undefined when no safe cut exists (an empty history).
 */
export function findCompactionCut(messages: readonly Message[], options: FindCompactionCutOptions = {}): number | undefined {
  if (!Array.isArray(messages)) throw argumentError('findCompactionCut', 'messages', 'an array of messages', messages);
  if (!isObjectValue(options)) throw argumentError('findCompactionCut', 'options', 'an options object ({ keepTokens, estimate }) or nothing', options);
  const keep = options.keepTokens ?? 0;
  const estimate = options.estimate ?? estimateMessageTokens;
  let target = messages.length;
  let kept = 0;
  while (target > 0 && kept < keep) kept += estimate(messages[--target]!);
  for (let index = target; index >= 1; index--) if (isSafeCut(messages, index)) return index;
  for (let index = target + 1; index <= messages.length; index++) if (isSafeCut(messages, index)) return index;
  return undefined;
}
