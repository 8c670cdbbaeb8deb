import { forkSnapshot, type ForkOptions } from '../agent/fork-snapshot.js';
import { SessionNotFoundError } from '../errors/session-not-found-error.js';
import { allocatePlanSlug } from '../plan/allocate-plan-slug.js';
import { generatePlanSlug } from '../plan/generate-plan-slug.js';
import { planFileName } from '../plan/plan-name.js';
import type { PlanStore } from '../plan/plan-store.js';
import { loadEntries } from './load-entries.js';
import { entriesToSnapshot } from './entries-to-snapshot.js';
import { Journal } from './journal.js';
import type { SessionStore } from './session-store.js';
import { snapshotToEntries } from './snapshot-to-entries.js';

/** Options of {@link forkSession}. */
export interface ForkSessionOptions extends ForkOptions {
  /** Where the plans live; the fork gets its own copy of the plan under a new name. @default no plan copy (the fork's transcript still holds the plan text) */
  planStore?: PlanStore;
}

/**
 * Forks a stored session without creating an agent: writes a new session with its own id, a
 * copy of the history (up to `upTo` messages) and of the state, and its own copy of the plan.
 * Resume it with `createAgent({ store, resume: newSessionId })`.
 * @returns the new session id.
 * @throws SessionNotFoundError when the store has no such session.
 */
export async function forkSession(store: SessionStore, sessionId: string, options: ForkSessionOptions = {}): Promise<string> {
  const entries = await loadEntries(store, sessionId);
  if (entries.length === 0) throw new SessionNotFoundError(sessionId);
  const snapshot = forkSnapshot(entriesToSnapshot(sessionId, entries), options);
  const plan = snapshot.plan;
  delete snapshot.plan;
  delete snapshot.planSlug;
  const journal = new Journal(store, snapshot.sessionId, snapshot.agentId);
  journal.record(...snapshotToEntries(snapshot, { forkedFrom: sessionId }));
  if (plan) {
    const slug = options.planStore ? await allocatePlanSlug({ store: options.planStore, agentId: snapshot.agentId }) : generatePlanSlug();
    const name = planFileName({ slug, agentId: snapshot.agentId });
    if (options.planStore) await options.planStore.write(name, plan.text);
    journal.record({ kind: 'session-meta', slug }, { kind: 'plan-snapshot', slug, name, text: plan.text });
  }
  await journal.flush();
  if (journal.failure) throw journal.failure;
  return snapshot.sessionId;
}
