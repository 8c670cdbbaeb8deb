import { PlanNameCollisionError } from '../errors/plan-name-collision-error.js';
import { allocatePlanSlug, PLAN_SLUG_ATTEMPTS, releasePlanName } from './allocate-plan-slug.js';
import type { RandomSource } from './generate-plan-slug.js';
import { planFileName } from './plan-name.js';
import type { PlanStore } from './plan-store.js';

/**
 * Writes a plan under `name` only if no plan holds that name: `exists`, then
 * `write(name, text, { ifAbsent: true })`, which every store of the library does atomically (two
 * processes never both write the name). Through `write` itself, so a wrapper that overrides it
 * (to log, to encrypt) is never bypassed; one that drops the option writes as before.
 * @returns whether the plan was written (false: another plan holds the name; nothing written).
 */
export async function createPlan(store: PlanStore, name: string, text: string): Promise<boolean> {
  if (await store.exists(name)) return false;
  return (await store.write(name, text, { ifAbsent: true })) !== false;
}
/** Options of {@link createPlanUnderNewSlug}. */
export interface CreatePlanUnderNewSlugOptions {
  store: PlanStore;
  /** The subagent the plan belongs to (`{slug}-agent-{agentId}.md`); undefined for the main agent. */
  agentId?: string | undefined;
  text: string;
  random?: RandomSource | undefined;
}

/**
 * Draws a slug whose name is free and creates the plan under it, drawing again when another plan
 * took the name first (another process drew it at the same time), up to `PLAN_SLUG_ATTEMPTS`.
 * @throws PlanNameCollisionError when no name drawn could be created.
 */
export async function createPlanUnderNewSlug(options: CreatePlanUnderNewSlugOptions): Promise<{ slug: string; name: string }> {
  const { store, agentId, text, random } = options;
  const tried: string[] = [];
  while (tried.length < PLAN_SLUG_ATTEMPTS) {
    const slug = await allocatePlanSlug({ store, ...(agentId !== undefined ? { agentId } : {}), ...(random ? { random } : {}) });
    const name = planFileName({ slug, agentId });
    try {
      if (await createPlan(store, name, text)) return { slug, name };
    } finally {
      releasePlanName(store, name);
    }
    tried.push(name);
  }
  throw new PlanNameCollisionError(tried);
}
