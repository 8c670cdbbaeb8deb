import { describe, expect, it } from 'vitest';
import { PlanNameCollisionError } from '../../src/errors/plan-name-collision-error.js';
import { copyPlanForFork, copyPlanForResume } from '../../src/plan/copy-plan.js';
import { generatePlanSlug } from '../../src/plan/generate-plan-slug.js';
import { memoryPlanStore } from '../../src/plan/memory-plan-store.js';
import type { PlanStore } from '../../src/plan/plan-store.js';
import { entry, streamed } from './entry-builders.js';

const SLUG = 'quiet-copper-lantern';

describe('copyPlanForResume', () => {
  it('leaves a plan the store already has alone', async () => {
    const store = memoryPlanStore({ initial: { [`${SLUG}.md`]: 'stored' } });
    const result = await copyPlanForResume({ store, slug: SLUG, entries: [entry.snapshot(SLUG, 'older snapshot')] });
    expect(result).toEqual({ status: 'present', name: `${SLUG}.md`, text: 'stored' });
    expect(await store.read(`${SLUG}.md`)).toBe('stored');
  });

  it('writes the plan recovered from the history back under the session name', async () => {
    const store = memoryPlanStore();
    const entries = [entry.toolUse('t1', 'ExitPlanMode', { plan: '# The plan' }), entry.toolResult('t1')];
    const result = await copyPlanForResume({ store, slug: SLUG, entries: streamed(entries) });
    expect(result).toEqual({ status: 'restored', name: `${SLUG}.md`, text: '# The plan', source: 'exit-plan-mode' });
    expect(await store.read(`${SLUG}.md`)).toBe('# The plan');
  });

  it("restores a subagent's plan under its own name", async () => {
    const store = memoryPlanStore();
    const result = await copyPlanForResume({ store, slug: SLUG, agentId: 'a7', entries: [entry.snapshot(SLUG, 'sub plan', 'a7')] });
    expect(result.status).toBe('restored');
    expect(await store.list()).toEqual([`${SLUG}-agent-a7.md`]);
  });

  it('treats an empty or blank stored plan as missing and restores it from the history', async () => {
    for (const stored of ['', '  \n']) {
      const store = memoryPlanStore({ initial: { [`${SLUG}.md`]: stored } });
      const result = await copyPlanForResume({ store, slug: SLUG, entries: [entry.snapshot(SLUG, '# real plan')] });
      expect(result).toEqual({ status: 'restored', name: `${SLUG}.md`, text: '# real plan', source: 'snapshot' });
      expect(await store.read(`${SLUG}.md`)).toBe('# real plan');
    }
  });

  it('reports when there is nothing to restore', async () => {
    const store = memoryPlanStore();
    expect(await copyPlanForResume({ store, slug: SLUG, entries: [entry.user('hello')] })).toEqual({ status: 'not-found', name: `${SLUG}.md` });
    expect(await store.list()).toEqual([]);
  });
});

describe('copyPlanForFork', () => {
  it('gives the fork a new slug and its own copy, so the two never overwrite each other', async () => {
    const store = memoryPlanStore({ initial: { [`${SLUG}.md`]: 'parent plan' } });
    const fork = await copyPlanForFork({ store, slug: SLUG, entries: [], random: () => 0.42 });
    expect(fork.slug).toBe(generatePlanSlug(() => 0.42));
    expect(fork.slug).not.toBe(SLUG);
    expect(fork).toEqual({ slug: fork.slug, name: `${fork.slug}.md`, copied: { text: 'parent plan', source: 'store' } });
    await store.write(fork.name, 'fork edited its plan');
    expect(await store.read(`${SLUG}.md`)).toBe('parent plan');
  });

  it("copies a plan found only in the parent's history", async () => {
    const store = memoryPlanStore();
    const fork = await copyPlanForFork({ store, slug: SLUG, entries: streamed([entry.snapshot(SLUG, 'from snapshot')]) });
    expect(fork.copied).toEqual({ text: 'from snapshot', source: 'snapshot' });
    expect(await store.read(fork.name)).toBe('from snapshot');
  });

  it('still allocates a slug when the parent has no plan, and writes nothing', async () => {
    const store = memoryPlanStore();
    const fork = await copyPlanForFork({ store, slug: SLUG, agentId: 'a1', entries: [] });
    expect(fork.copied).toBeUndefined();
    expect(fork.name).toBe(`${fork.slug}-agent-a1.md`);
    expect(await store.list()).toEqual([]);
  });

  it('draws past taken names and fails clearly when none is free', async () => {
    const taken = generatePlanSlug(() => 0.3);
    const store = memoryPlanStore({ initial: { [`${SLUG}.md`]: 'p', [`${taken}.md`]: 'other session' } });
    let calls = 0;
    const fork = await copyPlanForFork({ store, slug: SLUG, entries: [], random: () => (calls++ < 3 ? 0.3 : 0.9) });
    expect(fork.slug).toBe(generatePlanSlug(() => 0.9));

    const full: PlanStore = { ...memoryPlanStore({ initial: { [`${SLUG}.md`]: 'p' } }), exists: async () => true };
    await expect(copyPlanForFork({ store: full, slug: SLUG, entries: [] })).rejects.toSatisfy(PlanNameCollisionError.isInstance);
  });
});
