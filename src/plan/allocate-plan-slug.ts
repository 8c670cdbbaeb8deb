import { PlanNameCollisionError } from '../errors/plan-name-collision-error.js';
import { generatePlanSlug, type RandomSource } from './generate-plan-slug.js';
import { planFileName } from './plan-name.js';
import type { PlanStore } from './plan-store.js';
import { checkOptions, isFunction, isNonEmptyString, isPlanStore, required, type OptionsSpec } from '../options/index.js';

/** How many slugs {@link allocatePlanSlug} draws before giving up. */
export const PLAN_SLUG_ATTEMPTS = 10;

/** Options of {@link allocatePlanSlug}. */
export interface AllocatePlanSlugOptions {
  /** The store whose names must not be reused. */
  store: PlanStore;
  /**
   * The subagent the plan belongs to; the name checked is then `{slug}-agent-{agentId}.md`.
   * @default undefined (the main agent, `{slug}.md`)
   */
  agentId?: string;
  /**
   * Numbers in `[0, 1)` for drawing slugs.
   * @default crypto.getRandomValues when available, else Math.random
   */
  random?: RandomSource;
}

const OPTIONS: OptionsSpec<AllocatePlanSlugOptions> = { store: required(isPlanStore), agentId: isNonEmptyString, random: isFunction };

/**
 * Names drawn in this process whose plan is not written yet, by store: two sessions drawing at
 * once (both asking `exists` before either wrote) would otherwise get the same name, and the
 * second plan would overwrite the first.
 */
const drawn = new WeakMap<PlanStore, Set<string>>();

/** Frees a name {@link allocatePlanSlug} drew once its plan is written (the store has it now). */
export function releasePlanName(store: PlanStore, name: string): void {
  drawn.get(store)?.delete(name);
}

/**
 * Draws a plan slug whose file name is free in the store, drawing again when it is taken, up to
 * {@link PLAN_SLUG_ATTEMPTS} times. A name drawn in this process is not given out again for the
 * same store object until its plan is written, so sessions that draw at once get different names.
 * @returns the slug (not the file name; use `planFileName({ slug, agentId })` for that).
 * @throws PlanNameCollisionError when every drawn name is taken.
 */
export async function allocatePlanSlug(options: AllocatePlanSlugOptions): Promise<string> {
  checkOptions<AllocatePlanSlugOptions>(options, OPTIONS, { owner: 'allocatePlanSlug', usage: 'allocatePlanSlug({ store })' });
  const { store, agentId, random } = options;
  const tried: string[] = [];
  let names = drawn.get(store);
  if (!names) drawn.set(store, (names = new Set()));
  for (let attempt = 0; attempt < PLAN_SLUG_ATTEMPTS; attempt++) {
    const slug = generatePlanSlug(random);
    const name = planFileName({ slug, agentId });
    // Held before the store is asked, so a draw under way at the same time passes over it.
    if (!names.has(name)) {
      names.add(name);
      if (!(await store.exists(name))) return slug;
      names.delete(name);
    }
    tried.push(name);
  }
  throw new PlanNameCollisionError(tried);
}
