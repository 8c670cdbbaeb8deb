import type { Message } from '../model/messages.js';

/**
 * What the loop keeps of an agent's history between requests, so that each request looks at the
 * new messages only (see `sendableHistory`): one per agent, made at its first request.
 */
export interface HistoryScan {
  /** The history array whose images and documents `tally` counts (see `capRequestImages`). */
  messages?: readonly Message[];
  /** That tally, in the loop's own shape. */
  tally?: unknown;
  /** The history array searched last for tool blocks, for a request without tools (see `toolBlocksAsText`). */
  scanned?: readonly Message[];
  /**
   * How many of its first messages are settled: they hold no tool block (while `written` is
   * undefined), or their text form is kept in `written`.
   */
  clean?: number;
  /** The last of those, to tell an array changed in place (cut back, its message replaced). */
  cleanLast?: Message | undefined;
  /**
   * The history as sent last without tools, once it held a tool block (its first `clean` messages
   * are the text forms of the history's, reused by the next request: only the messages after them
   * are written out again), and the tool names of the calls among those messages, by call id (what
   * their results are told by).
   */
  written?: { sent: Message[]; names: Map<string, string> } | undefined;
}
