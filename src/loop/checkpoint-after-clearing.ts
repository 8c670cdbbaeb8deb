import type { ClearedToolResult } from '../context/index.js';
import type { AgentCore } from '../runtime/agent-core.js';

/**
 * Cleared text since the last checkpoint below which no checkpoint is considered: a store reads a
 * transcript under 256 KiB whole anyway (`TAIL_MIN_SIZE`), and a small state is cheap to fold.
 */
export const CLEARED_CHARS_BEFORE_CHECKPOINT = 64 * 1024;

/**
 * After a clearing (of `cleared`): stores a checkpoint of the state once the tool results cleared since the last
 * checkpoint hold at least as much text as the whole state (its JSON) does now.
 *
 * A clearing makes the state smaller than the transcript: the results it replaced by stubs stay in
 * the transcript, and a resume reads them all again to fold them away. A session that clears and
 * never compacts (the defaults, with large tool results, keep it under the compaction threshold for
 * good) has no checkpoint after its first entry, so every resume read the whole transcript (a
 * 400-turn session of 20 KB reads: 16.7 MB, about 150 ms from the file store). From this
 * checkpoint on, a store that loads from the last checkpoint reads the state once and what came
 * after it.
 *
 * What it writes is bounded by what the clearings freed: a checkpoint is no larger than the text
 * cleared since the one before, so checkpoints add at most as much to the transcript as the
 * cleared results took in it. The state is measured only when the cleared text has reached both
 * {@link CLEARED_CHARS_BEFORE_CHECKPOINT} and the size measured last time (it grows slowly), so a
 * session whose state stays larger than what it clears is not measured at every clearing.
 *
 * Only the session's own agent (not a subagent, whose checkpoints the stores do not start a
 * resume at), and only with a store.
 */
export function checkpointAfterClearing(core: AgentCore, cleared: readonly ClearedToolResult[]): void {
  if (!core.journal || core.sessionParent !== undefined) return;
  const context = core.context;
  for (const call of cleared) context.clearedSinceCheckpoint += call.chars;
  if (context.clearedSinceCheckpoint < Math.max(CLEARED_CHARS_BEFORE_CHECKPOINT, context.stateCharsMeasured)) return;
  const stateChars = JSON.stringify(core.state).length;
  context.stateCharsMeasured = stateChars;
  if (context.clearedSinceCheckpoint < stateChars) return;
  // The state as the entries just folded it (the reducer copies it for the live state); the commit resets the count.
  core.commit({ kind: 'checkpoint', state: { ...core.state }, reason: 'results-cleared' });
}
