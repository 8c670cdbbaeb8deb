import { PlanNameCollisionError } from '../errors/plan-name-collision-error.js';
import { allocatePlanSlug, PLAN_SLUG_ATTEMPTS, releasePlanName } from '../plan/allocate-plan-slug.js';
import { createPlan } from '../plan/create-plan.js';
import { planFileName } from '../plan/plan-name.js';
import type { AgentCore } from './agent-core.js';

// How an agent's session names and saves its approved plans. The AgentCore methods of the same
// names call these.

/** Details of a {@link savePlan}. */
export interface SavePlanDetails {
  /** The host edited the plan before approving it. */
  edited?: boolean;
  /** The approval asked for a fresh context. */
  clearContext?: boolean;
  /** Runs right after, its entries recorded in the same append as the plan's. */
  alongside?: (name: string) => void;
  /**
   * The signal of the call that saves the plan: aborted while the plan store writes, the plan is
   * not recorded (the session keeps its plan and mode; the call was already answered as
   * interrupted) and the save rejects with the signal's reason.
   */
  signal?: AbortSignal;
}

/** A slug draw under way, by agent: calls at the same time share it. */
const slugDraws = new WeakMap<AgentCore, Promise<string>>();
/** The last plan write of each agent: the next one waits for it. */
const planWrites = new WeakMap<AgentCore, Promise<unknown>>();
/** Names an agent wrote its plan under in this process (its snapshot of one may not be recorded yet). */
const writtenNames = new WeakMap<AgentCore, Set<string>>();

/**
 * The session's plan slug, drawn on first use. Calls at the same time (two plans saved at once,
 * parallel `Agent` calls) share one draw, so the session keeps one name.
 */
export function ensurePlanSlug(core: AgentCore): Promise<string> {
  if (core.state.planSlug !== undefined) return Promise.resolve(core.state.planSlug);
  let draw = slugDraws.get(core);
  if (draw === undefined) {
    draw = allocatePlanSlug({ store: core.planStore, agentId: core.agentId })
      .then((slug) => {
        core.commit({ kind: 'session-meta', slug });
        return slug;
      })
      .finally(() => slugDraws.delete(core));
    slugDraws.set(core, draw);
  }
  return draw;
}

/**
 * Writes the plan under the session's name: over the plan this session saved there before, else
 * only if the name is free (`createPlan`). A name another session's plan holds (it drew the same
 * slug, in this process or another) is never written over: the session draws a new slug, up to
 * `PLAN_SLUG_ATTEMPTS` times. The same text already there counts as written (a save repeated
 * after a crash between the write and its record).
 * @throws PlanNameCollisionError when every name drawn is held by another plan.
 */
function writePlan(core: AgentCore, text: string): Promise<{ slug: string; name: string }> {
  // One at a time per agent: a second save made while the first is under way follows it, so it
  // finds the name the first took as the session's own (and the last saved is the plan kept).
  const write = (planWrites.get(core) ?? Promise.resolve())
    .catch(() => undefined)
    .then(() => writePlanNow(core, text));
  planWrites.set(core, write);
  return write;
}

/**
 * Settles once the agent's plan writes under way have ended, whether they wrote or failed
 * (`undefined` when it never saved a plan). An interrupted save stops waiting for its write, which
 * the store finishes on its own: `close()` waits for it, so nothing of the agent's lands after.
 */
export function planWritesSettled(core: AgentCore): Promise<void> | undefined {
  return planWrites.get(core)?.then(
    () => undefined,
    () => undefined,
  );
}

/** {@link writePlan}, once the agent's earlier saves are done. */
async function writePlanNow(core: AgentCore, text: string): Promise<{ slug: string; name: string }> {
  const tried: string[] = [];
  for (;;) {
    const slug = await ensurePlanSlug(core);
    const name = planFileName({ slug, agentId: core.agentId });
    let written: boolean;
    try {
      if (core.state.plan?.name === name || writtenNames.get(core)?.has(name)) {
        await core.planStore.write(name, text);
        written = true;
      } else {
        // What holds the name may not read as a plan (a directory): then it is simply not ours.
        written = (await createPlan(core.planStore, name, text)) || (await core.planStore.read(name).catch(() => undefined)) === text;
      }
    } finally {
      releasePlanName(core.planStore, name);
    }
    if (written) {
      let names = writtenNames.get(core);
      if (names === undefined) writtenNames.set(core, (names = new Set()));
      names.add(name);
      return { slug, name };
    }
    tried.push(name);
    if (tried.length >= PLAN_SLUG_ATTEMPTS) throw new PlanNameCollisionError(tried);
    // Drawn again: held by nobody in this process, and free in the store when asked.
    if (core.state.planSlug === slug) {
      const next = await allocatePlanSlug({ store: core.planStore, agentId: core.agentId });
      if (core.state.planSlug === slug) core.commit({ kind: 'session-meta', slug: next });
      else releasePlanName(core.planStore, planFileName({ slug: next, agentId: core.agentId }));
    }
  }
}

/**
 * Writes an approved plan to the plan store under the session's name and keeps it in state.
 * `details.alongside` runs right after, its entries recorded in the same append as the plan's.
 */
export async function savePlan(core: AgentCore, text: string, toolUseId?: string, details: SavePlanDetails = {}): Promise<{ name: string; text: string }> {
  const { slug, name } = await writePlan(core, text);
  // Interrupted while the store wrote: the call is answered as interrupted, so the approval must
  // not take effect after it (the model would read "did not complete" in a session that left plan
  // mode). The text under the session's name is written over by its next save.
  if (details.signal?.aborted) throw details.signal.reason ?? new Error('interrupted');
  core.inOneWrite(() => {
    core.commit({ kind: 'plan-snapshot', slug, name, text });
    // Recorded: an interrupt from here on (a plan-approved listener's) lets the call answer itself.
    if (toolUseId !== undefined && core.running.has(toolUseId)) (core.recordedCalls ??= new Set()).add(toolUseId);
    core.emit({
      type: 'plan-approved',
      plan: text,
      name,
      ...(toolUseId ? { toolUseId } : {}),
      ...(details.edited ? { edited: true } : {}),
      ...(details.clearContext ? { clearContext: true } : {}),
    });
    details.alongside?.(name);
  });
  return { name, text };
}
