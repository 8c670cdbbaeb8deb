import { SessionStoreCorruptError } from '../errors/session-store-corrupt-error.js';
import { loadEntries, loadTranscript, type LoadedTranscript } from '../session/load-entries.js';
import type { SessionStore } from '../session/session-store.js';
import type { SessionEntry } from '../state/entries.js';

/** What {@link loadForResume} loaded. */
export interface ResumeTranscript {
  /** The transcript, whole or from the agent's last checkpoint on. */
  transcript: LoadedTranscript;
  /** The load's warnings, one sentence each. */
  warnings: string[];
  /** True when it starts at a checkpoint after the first entry: what is before it was not read. */
  partial: boolean;
}

/**
 * A session's transcript for resuming it: from the agent's last checkpoint on where the store can
 * start there (`partial`; everything before it is replaced by it, and neither read nor checked),
 * else whole. When the part from the checkpoint does not load (damaged or edited there) the
 * transcript is loaded again whole, so it fails, with the same error, as it always did.
 */
export async function loadForResume(store: SessionStore, sessionId: string, agentId: string | undefined): Promise<ResumeTranscript> {
  const fromCheckpoint = agentId !== undefined ? { agentId } : {};
  const tailWarnings: string[] = [];
  try {
    const transcript = await loadTranscript(store, sessionId, { onWarning: (warning) => tailWarnings.push(warning.message), fromCheckpoint });
    const first = transcript.entries[0];
    // A store that ignored the hint, or found no checkpoint to start at, gave the whole transcript.
    const partial = first !== undefined && first.kind === 'checkpoint' && first.seq > 1;
    return { transcript, warnings: tailWarnings, partial };
  } catch (error) {
    if (!SessionStoreCorruptError.isInstance(error)) throw error;
  }
  const warnings: string[] = [];
  const transcript = await loadTranscript(store, sessionId, { onWarning: (warning) => warnings.push(warning.message) });
  return { transcript, warnings, partial: false };
}

/** A session's whole transcript, loaded when first read (an async iterable). */
export function wholeTranscript(store: SessionStore, sessionId: string): AsyncIterable<SessionEntry> {
  return {
    async *[Symbol.asyncIterator]() {
      yield* await loadEntries(store, sessionId);
    },
  };
}
