import { estimateMessageTokens, isSafeCut } from '../context/index.js';
import type { ContentBlock, Message, TextBlock } from '../model/messages.js';
import { latestPrompt } from './latest-prompt.js';

/** Where a compaction cuts, and the user's latest message when it is restated after the summary. */
export interface LatestPromptCut {
  /** The first kept message. */
  cut: number;
  /** The latest prompt's blocks, to restate after the summary (`buildCompactedHistory({ latestPrompt })`). */
  restated?: ContentBlock[];
}

/**
 * Makes sure a compaction never leaves the user's latest message only paraphrased in the summary,
 * whatever started it (the threshold, the host, a refused prompt): when that message is the last
 * of the history (the next turn answers it), the cut moves before it so it is kept as it is (and
 * left out of the summary request); when it lies further back among the summarized messages (a
 * run's prompt, mid-run), it is restated after the summary. A message that alone reaches the
 * compaction threshold cannot be kept verbatim, and is summarized with the rest.
 * @param messages - the history.
 * @param cut - the cut the compaction found (see `findCompactionCut`).
 * @param compactAt - the context size at which an automatic compaction runs, in tokens.
 * @param leaveOut - texts left out of a restated message: the mode reminders the loop queued on
 *   it, which may no longer hold (a plan approved since) and would otherwise follow the restated
 *   state, contradicting it. What the summary replaces is only the conversation's own words.
 */
export function keepLatestPrompt(messages: readonly Message[], cut: number, compactAt: number, leaveOut?: ReadonlySet<string>): LatestPromptCut {
  const latest = latestPrompt(messages);
  if (!latest || latest.index >= cut || estimateMessageTokens({ role: 'user', content: latest.blocks }) >= compactAt) return { cut };
  if (latest.index === messages.length - 1 && isSafeCut(messages, latest.index)) return { cut: latest.index };
  const restated = leaveOut?.size ? latest.blocks.filter((block) => block.type !== 'text' || !leaveOut.has((block as TextBlock).text)) : latest.blocks;
  return restated.length > 0 ? { cut, restated } : { cut };
}
