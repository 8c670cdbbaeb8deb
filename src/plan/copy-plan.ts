import { createPlanUnderNewSlug } from './create-plan.js';
import { allocatePlanSlug, releasePlanName } from './allocate-plan-slug.js';
import type { RandomSource } from './generate-plan-slug.js';
import { planFileName } from './plan-name.js';
import type { PlanStore } from './plan-store.js';
import { recoverPlan, type PlanSource } from './recover-plan.js';
import type { SessionEntrySource } from './session-entry-source.js';
import { checkOptions, isEntrySource, isFunction, isNonEmptyString, isPlanStore, required, type OptionsSpec } from '../options/index.js';

/** Options of {@link copyPlanForResume}. */
export interface CopyPlanForResumeOptions {
  /** The store the resumed session writes its plan to. */
  store: PlanStore;
  /** The session's plan slug. */
  slug: string;
  /**
   * The subagent whose plan this is.
   * @default undefined (the main agent)
   */
  agentId?: string;
  /** The session's entries, to recover the plan from when the store lacks it. */
  entries: SessionEntrySource;
}

/** What {@link copyPlanForResume} did. */
export type CopyPlanForResumeResult =
  /** The store already had the plan (not empty or blank); nothing was written. */
  | { status: 'present'; name: string; text: string }
  /** The plan was recovered from the history and written to the store. */
  | { status: 'restored'; name: string; text: string; source: Exclude<PlanSource, 'store'> }
  /** No source has a plan; nothing was written. */
  | { status: 'not-found'; name: string };

const RESUME_OPTIONS: OptionsSpec<CopyPlanForResumeOptions> = {
  store: required(isPlanStore),
  slug: required(isNonEmptyString),
  agentId: isNonEmptyString,
  entries: required(isEntrySource),
};

/**
 * Makes sure a resumed session finds its plan in the store: when `{slug}.md` (or the subagent's
 * file) is missing, empty or blank, the plan is recovered from the history (`recoverPlan`) and written back.
 * @example
 * const result = await copyPlanForResume({ store, slug, entries });
 * if (result.status === 'restored') log(`plan restored from ${result.source}`);
 */
export async function copyPlanForResume(options: CopyPlanForResumeOptions): Promise<CopyPlanForResumeResult> {
  checkOptions<CopyPlanForResumeOptions>(options, RESUME_OPTIONS, { owner: 'copyPlanForResume', usage: 'copyPlanForResume({ store, slug, entries })' });
  const { store, slug, agentId, entries } = options;
  const name = planFileName({ slug, agentId });
  const existing = await store.read(name);
  // An empty or blank file counts as missing, as in recoverPlan.
  if (existing !== undefined && existing.trim().length > 0) return { status: 'present', name, text: existing };
  const recovered = await recoverPlan({ store, slug, agentId, entries });
  if (!recovered) return { status: 'not-found', name };
  await store.write(name, recovered.text);
  // The store was just found lacking the plan, so the source is never `store` here.
  return { status: 'restored', name, text: recovered.text, source: recovered.source as Exclude<PlanSource, 'store'> };
}

/** Options of {@link copyPlanForFork}. */
export interface CopyPlanForForkOptions {
  /** The store both sessions use. */
  store: PlanStore;
  /** The parent session's plan slug. */
  slug: string;
  /**
   * The subagent whose plan this is.
   * @default undefined (the main agent)
   */
  agentId?: string;
  /** The parent session's entries, to recover the plan from when the store lacks it. */
  entries: SessionEntrySource;
  /**
   * Numbers in `[0, 1)` for drawing the fork's slug.
   * @default crypto.getRandomValues when available, else Math.random
   */
  random?: RandomSource;
}

/** What {@link copyPlanForFork} did. */
export interface CopyPlanForForkResult {
  /** The fork's own plan slug (always new, free in the store). */
  slug: string;
  /** The fork's plan file name. */
  name: string;
  /** The plan copied to the fork, and where it was found; absent when the parent has no plan. */
  copied?: { text: string; source: PlanSource };
}

const FORK_OPTIONS: OptionsSpec<CopyPlanForForkOptions> = { ...RESUME_OPTIONS, random: isFunction };

/**
 * Gives a forked session its own plan: a new slug (drawn until its name is free) and, when the
 * parent has a plan, a copy of it under the new name — so parent and fork never overwrite each
 * other's plan.
 * @throws PlanNameCollisionError when no free slug is found.
 */
export async function copyPlanForFork(options: CopyPlanForForkOptions): Promise<CopyPlanForForkResult> {
  checkOptions<CopyPlanForForkOptions>(options, FORK_OPTIONS, { owner: 'copyPlanForFork', usage: 'copyPlanForFork({ store, slug, entries })' });
  const { store, slug, agentId, entries, random } = options;
  const recovered = await recoverPlan({ store, slug, agentId, entries });
  if (!recovered) {
    const forkSlug = await allocatePlanSlug({ store, agentId, ...(random ? { random } : {}) });
    const name = planFileName({ slug: forkSlug, agentId });
    // Nothing written under it: the name is not held in this process any longer.
    releasePlanName(store, name);
    return { slug: forkSlug, name };
  }
  // Created, never written over: a name another process took meanwhile is drawn again.
  const created = await createPlanUnderNewSlug({ store, agentId, text: recovered.text, random });
  return { ...created, copied: { text: recovered.text, source: recovered.source } };
}
