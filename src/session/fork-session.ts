import { forkState, type ForkOptions } from './fork-state.js';
import { SessionNotFoundError } from '../errors/session-not-found-error.js';
import { createPlanUnderNewSlug } from '../plan/create-plan.js';
import { generatePlanSlug } from '../plan/generate-plan-slug.js';
import { planFileName } from '../plan/plan-name.js';
import type { PlanStore } from '../plan/plan-store.js';
import { foldEntries, settled } from '../state/index.js';
import { repairState } from '../state/repair-state.js';
import { Journal } from './journal.js';
import { loadEntries } from './load-entries.js';
import type { SessionStore } from './session-store.js';
import { validateForkSessionOptions } from './validate-fork-session-options.js';

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
 * @throws SessionConflictError when a session with the fork's id already exists.
 * @throws ConfigurationError when `store` is not a session store, or for a bad option.
 */
export async function forkSession(store: SessionStore, sessionId: string, options: ForkSessionOptions = {}): Promise<string> {
  validateForkSessionOptions(store, options);
  const entries = await loadEntries(store, sessionId);
  if (entries.length === 0) throw new SessionNotFoundError(sessionId);
  const source = foldEntries(entries, { sessionId });
  repairState(source);
  const { state: forked, plan } = forkState(source, options);
  // Calls that may have been running in the source are answered in the fork, never run again.
  const state = settled(forked);
  const journal = new Journal(store, state.sessionId, state.agentId);
  journal.record({ kind: 'session-meta', forkedFrom: sessionId }, { kind: 'checkpoint', state, reason: 'fork' });
  if (plan) {
    const { slug, name } = options.planStore
      ? await createPlanUnderNewSlug({ store: options.planStore, agentId: state.agentId, text: plan.text })
      : (() => {
          const drawn = generatePlanSlug();
          return { slug: drawn, name: planFileName({ slug: drawn, agentId: state.agentId }) };
        })();
    journal.record({ kind: 'session-meta', slug }, { kind: 'plan-snapshot', slug, name, text: plan.text });
  }
  await journal.flush();
  if (journal.failure) throw journal.failure;
  return state.sessionId;
}
