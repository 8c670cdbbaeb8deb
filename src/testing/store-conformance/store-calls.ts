import { AgentHarnessError } from '../../errors/agent-harness-error.js';
import type { SessionEntry } from '../../state/entries.js';
import type { SessionStore, SessionStoreWarning } from '../../session/session-store.js';
import { check, show } from './check.js';

/** Everything a load yields, and the warnings it reported. */
export async function loadAll(store: SessionStore, sessionId: string): Promise<{ entries: SessionEntry[]; warnings: SessionStoreWarning[] }> {
  const warnings: SessionStoreWarning[] = [];
  const entries: SessionEntry[] = [];
  for await (const entry of store.load(sessionId, { onWarning: (warning) => warnings.push(warning) })) entries.push(entry);
  return { entries, warnings };
}

/** Everything a load yields; a load that warns here is a failure (the data is sound). */
export async function loadClean(store: SessionStore, sessionId: string): Promise<SessionEntry[]> {
  const { entries, warnings } = await loadAll(store, sessionId);
  check(warnings.length === 0, `Loading the sound session "${sessionId}" reported warnings: ${show(warnings)}`);
  return entries;
}

/** Appends entries made by an entry maker after the revision just before the first one. */
export function appendNext(store: SessionStore, sessionId: string, entries: readonly SessionEntry[], fencingToken?: number): Promise<void> {
  const first = entries[0]?.seq ?? 1;
  return store.append(sessionId, entries, { expectedRevision: first - 1, ...(fencingToken !== undefined ? { fencingToken } : {}) });
}

/** The ids of a list of entries, for compact comparisons. */
export const idsOf = (entries: readonly SessionEntry[]): string[] => entries.map((entry) => entry.id);

/** Sorted copy, for comparing `list()` results (stores may return ids in any order). */
export const sorted = (ids: readonly string[]): string[] => [...ids].sort();

/** True for any agent-harness error with `code`. */
export const hasCode =
  (...codes: readonly string[]) =>
  (error: unknown): boolean =>
    AgentHarnessError.isInstance(error) && codes.includes(error.code);
