import { accepts, checkOptions, type OptionsSpec } from '../../options/index.js';

/**
 * A tool output too long for the context, kept aside whole. Plain JSON, so a session's state or
 * transcript can hold it (e.g. as an entry) and a resumed session can still page through it.
 */
export interface SpilledOutput {
  /** What the model pages with (`ReadToolOutput({ handle })`); derived from the call id. */
  handle: string;
  /** The call whose result this is. */
  toolUseId: string;
  /** The tool that produced it. */
  toolName: string;
  /** The whole text of the output. */
  text: string;
}

/**
 * Where spilled outputs are kept. The core ships {@link memorySpillStore}; a session store or the
 * agent's state can implement it too. Methods may be synchronous or return promises.
 */
export interface SpillStore {
  /** Keeps an output; a second save under the same handle replaces the first. */
  save(output: SpilledOutput): void | Promise<void>;
  /** The output under `handle`, or undefined when there is none. */
  load(handle: string): SpilledOutput | undefined | Promise<SpilledOutput | undefined>;
}

/** Options of {@link memorySpillStore}. */
export interface MemorySpillStoreOptions {
  /**
   * At most this many characters are kept over all outputs; the oldest outputs are dropped first
   * (paging through a dropped one then says it is no longer available).
   * @default Infinity
   */
  maxTotalChars?: number;
}

const OPTIONS: OptionsSpec<MemorySpillStoreOptions> = {
  maxTotalChars: accepts('a number of characters above 0 (Infinity for no limit)', (value) => typeof value === 'number' && value > 0),
};

/**
 * A {@link SpillStore} in memory, for one process.
 * @param options - see {@link MemorySpillStoreOptions}.
 * @throws ConfigurationError for an unknown option or a `maxTotalChars` that is not above 0.
 */
export function memorySpillStore(options: MemorySpillStoreOptions = {}): SpillStore & { readonly size: number } {
  checkOptions<MemorySpillStoreOptions>(options, OPTIONS, { owner: 'memorySpillStore', usage: 'memorySpillStore({ maxTotalChars: 1_000_000 })' });
  const limit = options.maxTotalChars ?? Number.POSITIVE_INFINITY;
  const outputs = new Map<string, SpilledOutput>();
  let total = 0;
  return {
    get size() {
      return outputs.size;
    },
    save(output) {
      const previous = outputs.get(output.handle);
      if (previous) {
        total -= previous.text.length;
        outputs.delete(output.handle);
      }
      outputs.set(output.handle, { ...output });
      total += output.text.length;
      // Insertion order is age order: drop the oldest until the rest fits (the newest always stays).
      for (const [handle, kept] of outputs) {
        if (total <= limit || handle === output.handle) break;
        outputs.delete(handle);
        total -= kept.text.length;
      }
    },
    load(handle) {
      const output = outputs.get(handle);
      return output ? { ...output } : undefined;
    },
  };
}
