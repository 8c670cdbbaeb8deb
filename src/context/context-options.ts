/** Options of spilling long tool results (`context.spill`). */
export interface SpillOptions {
  /**
   * Results whose text is longer than this many characters are kept aside whole; the model gets
   * a preview (head and tail) and a handle to page with `ReadToolOutput`.
   * @default 40_000
   */
  maxChars?: number;
  /**
   * Characters of the beginning shown in the preview.
   * @default 2_000
   */
  headChars?: number;
  /**
   * Characters of the end shown in the preview.
   * @default 1_000
   */
  tailChars?: number;
}

/** Options of clearing stale tool results (`context.clearing`). */
export interface ClearingOptions {
  /**
   * Clear once the context reaches this fraction of the window.
   * @default 0.5
   */
  triggerFraction?: number;
  /**
   * Results answering the last this-many model messages are kept. The results answering the
   * model's last message, which it has not read yet, are always kept: `0` keeps those only.
   * @default 3
   */
  keepRecentTurns?: number;
  /**
   * Tools whose results are never cleared (the `Skill` tool's never are: its instructions hold for the whole conversation; nor are the user's answers to `AskUserQuestion`).
   * @default []
   */
  excludeTools?: string[];
  /**
   * Results with less text than this stay.
   * @default 500
   */
  minimumResultChars?: number;
  /**
   * Clear nothing unless at least this many characters go (each clearing rewrites the history,
   * one prompt-cache write).
   * @default 0.8 × the window in tokens (about a fifth of the window, at ~4 characters a token)
   */
  clearAtLeastChars?: number;
}

/** Options of automatic and reactive compaction (`context.compaction`). */
export interface CompactionOptions {
  /**
   * Compact before a request once the context reaches this fraction of the window (or the window
   * less `outputReserve`, whichever comes first). A compaction that leaves the context at or past
   * it (or an automatic one that fails) could not help: automatic compaction then waits until the
   * context has grown by `keepTokens` (at least a tenth of the window), announced by a `warning`
   * event (`source: 'compaction'`).
   * @default 0.9
   */
  threshold?: number;
  /**
   * Tokens kept free for the answer and the summary call. At most half the window counts (a
   * reserve sized for a large window, used by a subagent on a smaller model, would otherwise put
   * the threshold at zero and compact before every request).
   * @default 20_000
   */
  outputReserve?: number;
  /**
   * Tokens of the most recent history kept verbatim after the summary (as close as a cut with no
   * open tool call allows).
   * @default 10 % of the window
   */
  keepTokens?: number;
  /**
   * Instructions added to every summary request (e.g. what must always be kept).
   * @default undefined
   */
  instructions?: string;
  /**
   * Compact automatically near the window. A refused "prompt is too long" still compacts.
   * @default true
   */
  auto?: boolean;
}

/**
 * How the agent manages its context window (DESIGN §9), cheapest measure first: spill long tool
 * results, clear stale ones, compact near the window, compact on "prompt is too long".
 */
export interface ContextOptions {
  /**
   * The model's context window in tokens; wins over the table.
   * @default the table's entry for the model id (`DEFAULT_CONTEXT_WINDOWS` extended by `windows`), else 200,000
   */
  window?: number;
  /**
   * Entries that extend or override the context window table, by model id prefix, e.g.
   * `{ 'claude-sonnet-4-6': 1_000_000 }` for the 1M-token beta.
   * @default {}
   */
  windows?: Record<string, number>;
  /**
   * Keep long tool results aside whole (in the session state, so in the store and snapshots) and
   * give the model a preview and a handle; adds the read-only built-in `ReadToolOutput` tool,
   * which pages this agent's outputs only. A subagent spills too, into its own state, and gets a
   * `ReadToolOutput` of its own that pages its outputs only (never the parent's).
   * `true` for the defaults.
   * @default false (long results are truncated at `maxToolResultChars`)
   */
  spill?: boolean | SpillOptions;
  /**
   * Replace old tool results by stubs that say what was there and how to get it again, once the
   * context passes a threshold. `false` turns it off.
   * @default {} (on, with the defaults of {@link ClearingOptions})
   */
  clearing?: false | ClearingOptions;
  /**
   * Compaction: automatic near the window, reactive on "prompt is too long". `false` turns both off
   * (`agent.compact()` still works).
   * @default {} (on, with the defaults of {@link CompactionOptions})
   */
  compaction?: false | CompactionOptions;
}
