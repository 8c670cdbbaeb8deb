import { describe, expect, it } from 'vitest';
import { BUILTIN_AGENTS, createAgent, memoryPlanStore, PlanNameCollisionError, PlanStoreIfAbsentError, type PlanStore } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { createPlan, createPlanUnderNewSlug } from '../../src/plan/create-plan.js';

/** Another process's view of the same plans: another store object over the same data. */
const otherProcess = (store: PlanStore): PlanStore => ({ read: store.read, write: store.write, exists: store.exists, list: store.list });

import { drawSlugs } from './draw-slugs.js';

describe('createPlan', () => {
  it('writes only where no plan is', async () => {
    const store = memoryPlanStore({ initial: { 'taken.md': 'theirs' } });
    expect(await createPlan(store, 'taken.md', 'mine')).toBe(false);
    expect(await store.read('taken.md')).toBe('theirs');
    expect(await createPlan(store, 'free.md', 'mine')).toBe(true);
    expect(await store.read('free.md')).toBe('mine');
  });

  it('createPlanUnderNewSlug creates under a name nobody holds, and gives up with PlanNameCollisionError when every name is held', async () => {
    const plans = memoryPlanStore({ initial: { 'steady-amber-lantern.md': 'theirs' } });
    const created = await createPlanUnderNewSlug({ store: plans, text: 'mine' });
    expect(await plans.read(created.name)).toBe('mine');
    const full: PlanStore = { ...plans, exists: async () => true };
    await expect(createPlanUnderNewSlug({ store: full, text: 'mine' })).rejects.toSatisfy(PlanNameCollisionError.isInstance);
  });
});

describe('a session saving its first plan', () => {
  it('never writes over the plan of another session that drew the same name since this one drew it (a subagent run drew it, the plan came later)', async () => {
    const plans = memoryPlanStore();
    // Session A draws slug [0,0,0] when it starts a subagent; session B draws the same one later and saves its plan; A draws [3,3,3] again.
    drawSlugs([0, 0, 0], [0, 0, 0], [3, 3, 3]);
    const child = scriptedModel(['found it']);
    const a = createAgent({ model: scriptedModel([turn(toolCall('Agent', { description: 'look', prompt: 'look', subagent_type: 'explore' }, 'call_agent')), 'Done.']), planStore: plans, agents: { explore: { ...BUILTIN_AGENTS.explore, model: child } } });
    expect((await a.run('research first').result).status).toBe('completed');
    const b = createAgent({ model: scriptedModel([]), planStore: otherProcess(plans) });
    const saved = await b.savePlan('Plan of B');
    const mine = await a.savePlan('Plan of A');
    expect(mine.name).not.toBe(saved.name);
    expect(await plans.read(saved.name)).toBe('Plan of B');
    expect(await plans.read(mine.name)).toBe('Plan of A');
    // A's session keeps its new name: a second plan replaces its own.
    await a.savePlan('Plan of A, revised');
    expect(await plans.read(mine.name)).toBe('Plan of A, revised');
    expect(await plans.read(saved.name)).toBe('Plan of B');
    expect(a.plan?.name).toBe(mine.name);
  });
  it('two agents (other store objects over the same plans, as two processes) saving at once under one drawn name: each keeps its own plan', async () => {
    const plans = memoryPlanStore();
    drawSlugs([5, 5, 5], [5, 5, 5], [6, 6, 6]);
    const one = createAgent({ model: scriptedModel([]), planStore: otherProcess(plans) });
    const two = createAgent({ model: scriptedModel([]), planStore: otherProcess(plans) });
    const [first, second] = await Promise.all([one.savePlan('Plan of one'), two.savePlan('Plan of two')]);
    expect(first.name).not.toBe(second.name);
    expect(await plans.read(first.name)).toBe('Plan of one');
    expect(await plans.read(second.name)).toBe('Plan of two');
  });

  it('a wrapper whose write drops the ifAbsent option is still called, and the plan is saved', async () => {
    const plans = memoryPlanStore();
    const written: string[] = [];
    const logging: PlanStore = { ...plans, write: async (name, text) => (written.push(name), plans.write(name, text)) };
    const agent = createAgent({ model: scriptedModel([]), planStore: logging });
    const saved = await agent.savePlan('The plan');
    expect(written).toEqual([saved.name]);
    expect(await plans.read(saved.name)).toBe('The plan');
  });

  it('two agents (two processes) saving at once under one drawn name through a store that ignores ifAbsent: never both under that name; the one whose plan was overwritten fails naming the store and the fix', async () => {
    const plans = memoryPlanStore();
    // What a custom store that drops the option does: it writes (over anything) and says nothing.
    const ignoring = (): PlanStore => ({ read: plans.read, exists: plans.exists, list: plans.list, write: async (name, text) => void (await plans.write(name, text)) });
    drawSlugs([5, 5, 5], [5, 5, 5], [6, 6, 6]);
    const one = createAgent({ model: scriptedModel([]), planStore: ignoring() });
    const two = createAgent({ model: scriptedModel([]), planStore: ignoring() });
    const outcomes = await Promise.allSettled([one.savePlan('Plan of one'), two.savePlan('Plan of two')]);
    const saved = outcomes.filter((outcome) => outcome.status === 'fulfilled').map((outcome) => (outcome as PromiseFulfilledResult<{ name: string; text: string }>).value);
    const failed = outcomes.filter((outcome) => outcome.status === 'rejected').map((outcome) => (outcome as PromiseRejectedResult).reason as Error);
    // Each saved plan is what its store name holds: no session believes it owns another's plan.
    for (const plan of saved) expect(await plans.read(plan.name)).toBe(plan.text);
    expect(new Set(saved.map((plan) => plan.name)).size).toBe(saved.length);
    expect(failed).toHaveLength(1);
    expect(PlanStoreIfAbsentError.isInstance(failed[0]), String(failed[0])).toBe(true);
    expect(failed[0]!.message).toMatch(/ignored write\(".*\.md", text, \{ ifAbsent: true \}\).*found another plan.*resolve true when it wrote and false when it did not/s);
    expect((failed[0] as PlanStoreIfAbsentError).planName).toBe(saved[0]!.name);
  });

  it('createPlan through a store that ignores ifAbsent: the plan read back is its own, so it counts as written; another plan read back fails loudly', async () => {
    const plans = memoryPlanStore();
    class SloppyPlanStore {
      read = plans.read;
      exists = plans.exists;
      list = plans.list;
      // Another writer lands between this write and the read back.
      write = async (name: string, text: string) => void (await plans.write(name, text), await plans.write(name, 'theirs'));
    }
    expect(await createPlan({ ...plans, write: async (name, text) => void (await plans.write(name, text)) }, 'mine.md', 'mine')).toBe(true);
    const error = await createPlan(new SloppyPlanStore(), 'raced.md', 'mine').then(() => undefined, (caught: unknown) => caught);
    expect(PlanStoreIfAbsentError.isInstance(error), String(error)).toBe(true);
    expect((error as Error).message).toMatch(/^The plan store SloppyPlanStore ignored write\("raced\.md"/);
  });

  it('a save repeated with the text already under its name (a crash between the write and its record) keeps the name', async () => {
    const plans = memoryPlanStore();
    const child = scriptedModel(['found it']);
    const a = createAgent({ model: scriptedModel([turn(toolCall('Agent', { description: 'look', prompt: 'look', subagent_type: 'explore' }, 'call_agent')), 'Done.']), planStore: plans, agents: { explore: { ...BUILTIN_AGENTS.explore, model: child } } });
    await a.run('research first').result;
    const slug = a.snapshot().planSlug!;
    // What the crashed save left: the file written, its record not.
    await plans.write(`${slug}.md`, 'The plan');
    expect((await a.savePlan('The plan')).name).toBe(`${slug}.md`);
    expect(await plans.list()).toEqual([`${slug}.md`]);
  });
});
