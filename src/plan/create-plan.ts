import { PlanNameCollisionError } from '../errors/plan-name-collision-error.js';
import { PlanStoreIfAbsentError } from '../errors/plan-store-if-absent-error.js';
import { allocatePlanSlug, PLAN_SLUG_ATTEMPTS, releasePlanName } from './allocate-plan-slug.js';
import type { RandomSource } from './generate-plan-slug.js';
import { planFileName } from './plan-name.js';
import type { PlanStore } from './plan-store.js';

/** How an error names a plan store: its class, or `The plan store` for a plain object. */
function storeLabel(store: PlanStore): string {
  const name = (Object.getPrototypeOf(store) as { constructor?: { name?: unknown } } | null)?.constructor?.name;
  return typeof name === 'string' && name !== '' && name !== 'Object' ? `The plan store ${name}` : 'The plan store';
}

/**
 * Writes a plan under `name` only if no plan holds that name: `exists`, then
 * `write(name, text, { ifAbsent: true })`, which every store of the library does atomically (two
 * processes never both write the name). Through `write` itself, so a wrapper that overrides it
 * (to log, to encrypt) is never bypassed. A store that does not say whether it wrote (resolves
 * `undefined`: it ignores the option) is checked by reading the name back: another plan there
 * means another session wrote the same name at the same moment, and the save fails loudly.
 * @returns whether the plan was written (false: another plan holds the name; nothing written).
 * @throws PlanStoreIfAbsentError when a store that ignores `ifAbsent` let another plan take the name.
 */
export async function createPlan(store: PlanStore, name: string, text: string): Promise<boolean> {
  if (await store.exists(name)) return false;
  const wrote = await store.write(name, text, { ifAbsent: true });
  if (wrote !== undefined) return wrote !== false;
  const stored = await store.read(name);
  if (stored !== text) throw new PlanStoreIfAbsentError({ store: storeLabel(store), name, found: stored === undefined ? 'no plan' : 'another plan' });
  return true;
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
