import type { AssistantMessage, Message, TextBlock } from '../../model/messages.js';
import { promptTokensUnchecked } from './context-usage.js';
import type { ToolDefinition } from '../../model/model.js';
import type { Usage } from '../../model/usage.js';
import { contextWindowFor } from './context-windows.js';
import { contextUsage, type ContextUsage } from './context-usage.js';
import { cachedToolDefinitionTokens, estimateMessageTokensUnchecked, estimatePrefixTokensWith } from './estimate-tokens.js';
import { argumentError, isObjectValue } from '../../errors/argument-error.js';

/**
 * How many of its latest per-message estimates a tracker keeps at hand: a turn estimates the
 * messages after the anchor (an answer and its results) and reads them again when the next
 * answer moves the anchor.
 */
const RECENT_ESTIMATES = 4;

/** The parts of a request that take context: the same fields as a `ModelRequest`. */
export interface ContextRequest {
  system: readonly TextBlock[];
  tools: readonly ToolDefinition[];
  messages: readonly Message[];
}

/** Options of {@link createContextTracker}. */
export interface ContextTrackerOptions {
  /**
   * The model id, to look the window up in the context window table.
   * @default undefined (then `window` or the 200,000-token default applies)
   */
  modelId?: string;
  /**
   * The context window in tokens; wins over the table.
   * @default the table's entry for `modelId`, else {@link DEFAULT_CONTEXT_WINDOW}
   */
  window?: number;
  /**
   * Entries that extend or override the context window table, by model id prefix.
   * @default {}
   */
  windows?: Readonly<Record<string, number>>;
  /**
   * Estimates one message; called once per message object.
   * @default estimateMessageTokens
   */
  estimateMessage?: (message: Message) => number;
}

/** The window assumed for a model the table does not know. */
export const DEFAULT_CONTEXT_WINDOW = 200_000;

/** Estimates are never scaled by less than this or more than {@link maxRatio}. */
const minRatio = 0.25;
const maxRatio = 4;

/**
 * Keeps a session's context size. Per-message estimates are computed once per message object
 * (a WeakMap; the history is append-only and shared by reference) and the running sum only
 * visits messages appended since the last call, so a measure costs the same at turn 2,000 as at
 * turn 2. Reported usage and exact counts anchor the figure: the next request is that figure plus
 * the appended messages, whose estimates are scaled by how far the heuristic was off last time.
 */
export interface ContextTracker {
  /** The model's context window, in tokens. */
  readonly window: number;
  /** The size the request would have if sent now: exact when anchored on its own count, else calibrated. */
  measure(request: ContextRequest): ContextUsage;
  /**
   * Feeds the usage the API reported for `request`. Pass the assistant `message` the call produced
   * when it will be appended as is: its size is then known exactly (its output tokens).
   * @returns the context after the call: the prompt plus the output.
   */
  observeUsage(request: ContextRequest, usage: Usage, message?: AssistantMessage): ContextUsage;
  /** Feeds an exact count of `request` (the token counting endpoint). */
  observeCount(request: ContextRequest, inputTokens: number): ContextUsage;
  /** The (cached) estimate of one message. */
  messageTokens(message: Message): number;
}

interface Anchor {
  messages: readonly Message[];
  system: readonly TextBlock[];
  tools: readonly ToolDefinition[];
  count: number;
  last: Message | undefined;
  tokens: number;
  source: 'usage' | 'count';
}

/**
 * Creates a {@link ContextTracker}.
 * @param options - the model and its window; see {@link ContextTrackerOptions}.
 * @example
 * const tracker = createContextTracker({ modelId: 'claude-sonnet-4-6' });
 * const before = tracker.measure(request);          // { tokens, window, fraction, source: 'estimate' }
 * tracker.observeUsage(request, response.usage, response.message);
 */
export function createContextTracker(options: ContextTrackerOptions = {}): ContextTracker {
  if (!isObjectValue(options)) throw argumentError('createContextTracker', 'options', 'an options object ({ window, modelId, windows, estimateMessage }) or nothing', options);
  const window = options.window ?? (options.modelId ? contextWindowFor(options.modelId, { windows: options.windows }) : undefined) ?? DEFAULT_CONTEXT_WINDOW;
  return new Tracker(window, options.estimateMessage);
}

interface RunningSum {
  messages: readonly Message[];
  count: number;
  last: Message | undefined;
  total: number;
}

/** The tracker: a class, so the many agents of a server share its methods (one per agent holds only its fields). */
class Tracker implements ContextTracker {
  readonly window: number;
  readonly #estimate: (message: Message) => number;
  /** Every estimate of a host's `estimateMessage` (a tokenizer may be costly); undefined for the default. */
  readonly #estimates: WeakMap<Message, number> | undefined;
  readonly #recentMessages: Array<Message | undefined> = new Array<Message | undefined>(RECENT_ESTIMATES).fill(undefined);
  readonly #recentTokens: number[] = new Array<number>(RECENT_ESTIMATES).fill(0);
  #nextRecent = 0;
  /**
   * The last answer's exact output tokens, as the API reported them. Only messages after the
   * anchor are ever summed, and every report moves the anchor to just before its answer: the
   * latest answer is the only one whose exact count can still be read.
   */
  #exact: { message: Message; tokens: number } | undefined;
  #ratio: number | undefined;
  #anchor: Anchor | undefined;
  /** The running sum of estimates over one history array. */
  #sum: RunningSum | undefined;
  /** The prefix estimated last (the same system and tools every turn of an agent). */
  #prefix: { system: ContextRequest['system']; tools: ContextRequest['tools']; tokens: number } | undefined;

  constructor(window: number, estimateMessage: ((message: Message) => number) | undefined) {
    this.window = window;
    this.#estimate = estimateMessage ?? estimateMessageTokensUnchecked;
    // The default estimate is one pass over the message's text: cheaper to make again, for the
    // rare history rewritten as a new array (a clearing, a compaction), than to keep in a table
    // per message (a WeakMap entry per message cost a sixth of a turn, most of it in GC).
    this.#estimates = estimateMessage ? new WeakMap() : undefined;
    // Handed out on its own (`findCompactionCut({ estimate: tracker.messageTokens })`).
    this.messageTokens = this.messageTokens.bind(this);
  }

  messageTokens(message: Message): number {
    const recent = this.#recentMessages;
    for (let index = 0; index < RECENT_ESTIMATES; index++) if (recent[index] === message) return this.#recentTokens[index]!;
    let tokens = this.#estimates?.get(message);
    if (tokens === undefined) {
      tokens = this.#estimate(message);
      this.#estimates?.set(message, tokens);
    }
    const slot = this.#nextRecent;
    this.#nextRecent = (slot + 1) % RECENT_ESTIMATES;
    recent[slot] = message;
    this.#recentTokens[slot] = tokens;
    return tokens;
  }

  measure(request: ContextRequest): ContextUsage {
    const base = this.#anchored(request);
    if (!base) {
      const raw = this.#rawTokens(request);
      return this.#ratio === undefined ? contextUsage(raw, this.window, 'estimate') : contextUsage(raw * this.#ratio, this.window, 'calibrated');
    }
    let appended = 0;
    for (let index = base.count; index < request.messages.length; index++) {
      const message = request.messages[index]!;
      appended += this.#exact?.message === message ? this.#exact.tokens : this.messageTokens(message) * (this.#ratio ?? 1);
    }
    return contextUsage(base.tokens + appended, this.window, request.messages.length === base.count ? base.source : 'calibrated');
  }

  observeUsage(request: ContextRequest, usage: Usage, message?: AssistantMessage): ContextUsage {
    this.#setAnchor(request, promptTokensUnchecked(usage), 'usage');
    this.#exact = message ? { message, tokens: usage.outputTokens } : undefined;
    return contextUsage(promptTokensUnchecked(usage) + usage.outputTokens, this.window, 'usage');
  }

  /**
   * {@link observeUsage} for a call whose request was the first `count` messages of
   * `request.messages` and whose answer is the message at `count` (a resumed session's last call):
   * anchored on the live history itself, so that the next measure of it continues from the
   * reported count (a copy of its first part would never match it again, and stayed with every
   * idle resumed agent).
   */
  observeUsageOfPrefix(request: ContextRequest, count: number, usage: Usage): void {
    this.#setAnchor(request, promptTokensUnchecked(usage), 'usage', count);
    const answer = request.messages[count];
    this.#exact = answer?.role === 'assistant' ? { message: answer, tokens: usage.outputTokens } : undefined;
  }

  observeCount(request: ContextRequest, inputTokens: number): ContextUsage {
    this.#setAnchor(request, inputTokens, 'count');
    return contextUsage(inputTokens, this.window, 'count');
  }

  #prefixTokens(request: ContextRequest): number {
    // System and tools are the same objects every turn: each pair is estimated once per tracker.
    // (Not in a WeakMap shared by trackers: each agent has arrays of its own, so it never hit, and
    // its entries outlived young-generation GCs.) Each tool's estimate is shared (cachedToolDefinitionTokens).
    const last = this.#prefix;
    if (last !== undefined && last.system === request.system && last.tools === request.tools) return last.tokens;
    const tokens = estimatePrefixTokensWith(request, cachedToolDefinitionTokens);
    this.#prefix = { system: request.system, tools: request.tools, tokens };
    return tokens;
  }

  /** The estimate of the request made of the first `count` messages (all of them by default). */
  #rawTokens(request: ContextRequest, count = request.messages.length): number {
    const { messages } = request;
    const sum = this.#sum;
    const continues = sum !== undefined && sum.messages === messages && count >= sum.count && (sum.count === 0 || messages[sum.count - 1] === sum.last);
    let total = continues ? sum.total : 0;
    for (let index = continues ? sum.count : 0; index < count; index++) total += this.messageTokens(messages[index]!);
    this.#sum = { messages, count, last: messages[count - 1], total };
    return this.#prefixTokens(request) + total;
  }

  #anchored(request: ContextRequest): Anchor | undefined {
    const anchor = this.#anchor;
    // A history rewritten as a new array (a clearing, a compaction) is measured afresh.
    if (!anchor || anchor.messages !== request.messages || anchor.system !== request.system || anchor.tools !== request.tools) return undefined;
    const { messages } = request;
    if (messages.length < anchor.count || (anchor.count > 0 && messages[anchor.count - 1] !== anchor.last)) return undefined;
    return anchor;
  }

  #setAnchor(request: ContextRequest, tokens: number, source: Anchor['source'], count = request.messages.length): void {
    const raw = this.#rawTokens(request, count);
    if (raw > 0) this.#ratio = Math.min(maxRatio, Math.max(minRatio, tokens / raw));
    const { messages } = request;
    this.#anchor = { messages, system: request.system, tools: request.tools, count, last: messages[count - 1], tokens, source };
  }
}

/**
 * Feeds a resumed session's last reported usage: for the request made of the first `count`
 * messages of `request.messages`, answered by the message at `count`. The library's tracker
 * anchors on the history itself; another one is fed that part as a copy.
 */
export function observeResumedUsage(tracker: ContextTracker, request: ContextRequest, count: number, usage: Usage): void {
  if (tracker instanceof Tracker) tracker.observeUsageOfPrefix(request, count, usage);
  else tracker.observeUsage({ ...request, messages: request.messages.slice(0, count) }, usage);
}
