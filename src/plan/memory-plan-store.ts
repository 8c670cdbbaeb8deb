import { assertPlanName } from './plan-name.js';
import type { PlanStore } from './plan-store.js';
import { checkOptions, isString, recordOf, type OptionsSpec } from '../options/index.js';

/** Options of {@link memoryPlanStore}. */
export interface MemoryPlanStoreOptions {
  /**
   * Plans to start with, by name.
   * @default {}
   */
  initial?: Record<string, string>;
}

const OPTIONS: OptionsSpec<MemoryPlanStoreOptions> = { initial: recordOf(isString, 'an object of plan texts by plan name') };

/**
 * A plan store held in memory: the default. Plans live as long as the store object does; pass
 * the same store to agents that should share plans (a resumed or forked session).
 * @throws ConfigurationError (from its methods) for an invalid plan name.
 */
export function memoryPlanStore(options: MemoryPlanStoreOptions = {}): PlanStore {
  checkOptions<MemoryPlanStoreOptions>(options, OPTIONS, { owner: 'memoryPlanStore', optional: true });
  const plans = new Map<string, string>();
  for (const [name, text] of Object.entries(options.initial ?? {})) {
    assertPlanName(name);
    plans.set(name, text);
  }
  return {
    async read(name) {
      assertPlanName(name);
      return plans.get(name);
    },
    async write(name, text, writeOptions) {
      assertPlanName(name);
      if (writeOptions?.ifAbsent) {
        if (plans.has(name)) return false;
        plans.set(name, text);
        return true;
      }
      plans.set(name, text);
    },
    async exists(name) {
      assertPlanName(name);
      return plans.has(name);
    },
    async list() {
      return [...plans.keys()].sort();
    },
  };
}
