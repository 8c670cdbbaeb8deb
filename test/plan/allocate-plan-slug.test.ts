import { describe, expect, it } from 'vitest';
import { PlanNameCollisionError } from '../../src/errors/plan-name-collision-error.js';
import { allocatePlanSlug, PLAN_SLUG_ATTEMPTS } from '../../src/plan/allocate-plan-slug.js';
import { generatePlanSlug } from '../../src/plan/generate-plan-slug.js';
import { memoryPlanStore } from '../../src/plan/memory-plan-store.js';
import type { PlanStore } from '../../src/plan/plan-store.js';

/** A source whose n-th slug is predictable: three numbers per slug. */
function slugSource(...picks: number[]): () => number {
  let index = 0;
  return () => {
    const value = picks[Math.floor(index / 3) % picks.length] as number;
    index++;
    return value;
  };
}

describe('allocatePlanSlug', () => {
  it('returns the first slug when its name is free', async () => {
    const store = memoryPlanStore();
    const slug = await allocatePlanSlug({ store, random: slugSource(0.1) });
    expect(slug).toBe(generatePlanSlug(() => 0.1));
  });

  it('draws again when the name is taken', async () => {
    const taken = generatePlanSlug(() => 0.1);
    const store = memoryPlanStore({ initial: { [`${taken}.md`]: 'someone else' } });
    const slug = await allocatePlanSlug({ store, random: slugSource(0.1, 0.1, 0.7) });
    expect(slug).toBe(generatePlanSlug(() => 0.7));
  });

  it('checks the subagent file name for a subagent', async () => {
    const taken = generatePlanSlug(() => 0.1);
    const store = memoryPlanStore({ initial: { [`${taken}.md`]: 'main plan' } });
    // Only the main name is taken, so the subagent may use the same slug.
    expect(await allocatePlanSlug({ store, agentId: 'sub1', random: slugSource(0.1) })).toBe(taken);
  });

  it(`gives up after ${PLAN_SLUG_ATTEMPTS} taken names with a clear error`, async () => {
    const checked: string[] = [];
    const full: PlanStore = {
      ...memoryPlanStore(),
      exists: async (name) => {
        checked.push(name);
        return true;
      },
    };
    const error = await allocatePlanSlug({ store: full }).catch((caught: unknown) => caught);
    expect(PlanNameCollisionError.isInstance(error)).toBe(true);
    expect(checked).toHaveLength(PLAN_SLUG_ATTEMPTS);
    expect((error as PlanNameCollisionError).triedNames).toEqual(checked);
    expect((error as Error).message).toMatch(/after 10 attempts/);
    expect((error as PlanNameCollisionError).code).toBe('plan-name-collision');
  });
});
