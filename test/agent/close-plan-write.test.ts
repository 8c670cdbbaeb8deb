// close() while an approved plan is being written: the call is answered as interrupted and the run
// ends, but the plan store goes on writing. close() resolves only once that write has landed, so a
// host that removes the plans' folder (or exits) right after close() never races it; a plan store
// that never answers holds close() no longer than `storeWriteGraceMs`.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAgent, memoryPlanStore, memorySessionStore, type PlanStore } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { tick } from '../helpers.js';

/** A plan store whose writes wait until the test lets them through. */
function heldPlanStore() {
  const inner = memoryPlanStore();
  const state: { release?: () => void; landed: boolean } = { landed: false };
  const store: PlanStore = {
    ...inner,
    write: async (name, text, options) => {
      await new Promise<void>((resolve) => (state.release = resolve));
      const written = await inner.write(name, text, options);
      state.landed = true;
      return written;
    },
  };
  return { store, state };
}

/** An agent parked on its plan's approval, then the approval answered: the save is under way. */
async function savingPlan(planStore: PlanStore, storeWriteGraceMs?: number) {
  const agent = createAgent({
    model: scriptedModel([turn(toolCall('ExitPlanMode', { plan: '# Plan\n1. Do it.' }, 'toolu_exit')), 'Done.']),
    permissionMode: 'plan',
    planStore,
    // The grace is an option of an agent with a session store.
    ...(storeWriteGraceMs !== undefined ? { storeWriteGraceMs, store: memorySessionStore() } : {}),
  });
  expect((await agent.run('Plan it.').result).status).toBe('awaiting-approval');
  const resolving = agent.resolveApproval(agent.pendingApprovals[0]!.id, { behavior: 'allow' });
  return { agent, resolving };
}


describe('close() while a plan is written', () => {
  afterEach(() => void vi.useRealTimers());

  it('resolves once the write has landed, the call answered as interrupted', async () => {
    const { store, state } = heldPlanStore();
    const { agent, resolving } = await savingPlan(store);
    while (!state.release) await tick();
    let closed = false;
    const closing = agent.close().then(() => (closed = true));
    for (let index = 0; index < 5; index++) await tick();
    // The run has ended (interrupted); close() still waits for the plan store.
    expect((await resolving.result).status).toBe('interrupted');
    expect(closed).toBe(false);
    state.release();
    await closing;
    expect(state.landed).toBe(true);
  });

  it('a plan store that never answers holds close() for storeWriteGraceMs, no longer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { store, state } = heldPlanStore();
    const { agent } = await savingPlan(store, 5_000);
    while (!state.release) await tick();
    let closed = false;
    const closing = agent.close().then(() => (closed = true));
    for (let index = 0; index < 5; index++) await tick();
    await vi.advanceTimersByTimeAsync(4_999);
    expect(closed).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await closing;
    expect(closed).toBe(true);
    expect(state.landed).toBe(false);
  });

  it('an agent that saved no plan closes without waiting on the plan store', async () => {
    const { store, state } = heldPlanStore();
    const agent = createAgent({ model: scriptedModel(['Hi.']), planStore: store });
    await agent.run('Hello.').result;
    await agent.close();
    expect(state.release).toBeUndefined();
  });
});
