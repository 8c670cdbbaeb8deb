import {
  compactionThreshold,
  createContextTracker,
  type ClearingOptions,
  type CompactionOptions,
  type ContextOptions,
  type ContextRequest,
  type ContextTracker,
  type ContextUsage,
  type SpillOptions,
  type SpillStore,
} from '../context/index.js';
import type { Model, ToolDefinition } from '../model/model.js';
import type { SessionState } from '../state/index.js';
import type { TextBlock } from '../model/messages.js';
import type { RequestTool } from '../model/model.js';

/** The settings of each measure, defaults applied; `undefined` when the measure is off. */
export interface ContextSettings {
  spill: Required<SpillOptions> | undefined;
  clearing: Required<ClearingOptions> | undefined;
  compaction: Required<Omit<CompactionOptions, 'instructions'>> & { instructions: string | undefined; enabled: boolean };
}

/**
 * Resolves `createAgent`'s `context` option against the window.
 * @param options - the host's option.
 * @param window - the model's context window.
 */
export function contextSettings(options: ContextOptions | undefined, window: number): ContextSettings {
  if (options === undefined) {
    // The defaults for a window, made once (the settings are only read).
    let settings = defaultSettings.get(window);
    if (!settings) defaultSettings.set(window, (settings = frozen(settingsFor(undefined, window))));
    return settings;
  }
  return settingsFor(options, window);
}

const defaultSettings = new Map<number, ContextSettings>();

/** Shared between agents, so frozen all the way down: a write to them would throw, not leak. */
function frozen(settings: ContextSettings): ContextSettings {
  for (const part of Object.values(settings)) {
    if (part && typeof part === 'object') {
      for (const value of Object.values(part)) if (value && typeof value === 'object') Object.freeze(value);
      Object.freeze(part);
    }
  }
  return Object.freeze(settings);
}

function settingsFor(options: ContextOptions | undefined, window: number): ContextSettings {
  const spill = options?.spill;
  const clearing = options?.clearing;
  const compaction = options?.compaction;
  return {
    spill: spill ? { maxChars: 40_000, headChars: 2_000, tailChars: 1_000, ...(spill === true ? {} : spill) } : undefined,
    clearing:
      clearing === false
        ? undefined
        : // A clearing is a cache write: it should free about a fifth of the window (~4 characters a token).
          { triggerFraction: 0.5, keepRecentTurns: 3, excludeTools: [], minimumResultChars: 500, clearAtLeastChars: Math.floor(window * 0.8), ...clearing },
    compaction: {
      threshold: 0.9,
      outputReserve: 20_000,
      keepTokens: Math.floor(window / 10),
      auto: true,
      ...(compaction || {}),
      instructions: compaction ? compaction.instructions : undefined,
      enabled: compaction !== false,
    },
  };
}

/**
 * The context window of one agent: the tracker that measures it (per-message estimates cached,
 * anchored on reported usage and exact counts) and the settings of spill, clearing and compaction.
 */
export class AgentContext {
  readonly tracker: ContextTracker;
  readonly settings: ContextSettings;
  /**
   * Characters of tool results cleared since the last checkpoint: text the transcript holds and
   * the state no longer does (see `checkpointAfterClearing`). Zero again at every checkpoint.
   */
  clearedSinceCheckpoint = 0;
  /** The state's size (characters of JSON) when `checkpointAfterClearing` last measured it. */
  stateCharsMeasured = 0;
  private readonly model: Model;

  constructor(model: Model, options: ContextOptions | undefined) {
    this.model = model;
    this.tracker = createContextTracker({
      modelId: model.modelId,
      ...(options?.window !== undefined ? { window: options.window } : {}),
      ...(options?.windows !== undefined ? { windows: options.windows } : {}),
    });
    this.settings = contextSettings(options, this.tracker.window);
  }

  /** The model's context window, in tokens. */
  get window(): number {
    return this.tracker.window;
  }

  /** The context size at which an automatic compaction runs. */
  get compactAt(): number {
    return compactionThreshold(this.window, this.settings.compaction);
  }

  /**
   * Where a compaction left the context (`tokensAfter`, or the size before it for one that
   * failed) decides whether automatic compaction pauses. Past the threshold, it could not help,
   * and neither would the next one before the context grows by `keepTokens` (at least a tenth of
   * the window): by then what it kept can be summarized too.
   * @returns the size at which automatic compaction resumes, or undefined when it does not pause.
   */
  pauseAfter(tokensAfter: number): number | undefined {
    if (tokensAfter < this.compactAt) return undefined;
    return tokensAfter + Math.max(this.settings.compaction.keepTokens, Math.floor(this.window / 10));
  }

  /** Whether the model counts requests exactly before each turn (`capabilities.countTokens`). */
  get counts(): boolean {
    return this.model.capabilities?.countTokens === true && typeof this.model.countTokens === 'function';
  }

  /** The parts of the next request that take context. */
  request(system: readonly TextBlock[], tools: readonly RequestTool[], state: SessionState): ContextRequest {
    return { system, tools: tools as readonly ToolDefinition[], messages: state.messages };
  }

  /** The size the next request would have now. */
  measure(request: ContextRequest): ContextUsage {
    return this.tracker.measure(request);
  }
}

/**
 * A {@link SpillStore} over the session state: outputs are recorded as `spill` entries (so they
 * are in the store and in snapshots) and read back from the state.
 */
export function stateSpillStore(state: () => SessionState, record: (output: { handle: string; toolUseId: string; toolName: string; text: string }) => void): SpillStore {
  return {
    save: (output) => record(output),
    load(handle) {
      // The handle is the model's input: "constructor" or "__proto__" must not find what every object inherits.
      const spilled = state().spilled;
      const kept = spilled && Object.hasOwn(spilled, handle) ? spilled[handle] : undefined;
      return kept ? { handle, ...kept } : undefined;
    },
  };
}
