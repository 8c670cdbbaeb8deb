import type { SessionEntry } from '../state/entries.js';
import type { AgentCore } from './agent-core.js';
import { observeResumedUsage } from '../context/accounting/context-tracker.js';

/** Entries that rewrite the history (or the request prefix) rather than append to it. */
const REWRITES = new Set<string>(['checkpoint', 'results-cleared', 'compact-boundary', 'context-reset', 'prefix', 'answer-withheld']);

/**
 * Calibrates a resumed agent's context estimate as the agent that wrote the session had it: by
 * the usage the API reported for the latest model call, against the request that call was sent
 * (the history before its answer). Only when that history is still as it was sent: nothing
 * rewrote it after the call (a compaction, a clearing, a fresh context, a repair), and the answer
 * is one call's (not the sum of a `pause_turn` continuation). Otherwise the estimate stays
 * uncalibrated until the next reported usage, as for a new session.
 * @param core - the resumed agent, its state folded from `entries`.
 * @param entries - the session's transcript.
 */
export function calibrateResumedContext(core: AgentCore, entries: readonly SessionEntry[]): void {
  const { state } = core;
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index]!;
    if (entry.agentId !== state.agentId) continue;
    if (REWRITES.has(entry.kind)) return;
    if (entry.kind !== 'message' || entry.message.role !== 'assistant') continue;
    const usage = entry.usage;
    if (!usage) return;
    // Its answer is the history's last assistant message: anything after it was appended by the user's side.
    let at = state.messages.length - 1;
    while (at >= 0 && state.messages[at]!.role !== 'assistant') at--;
    const kept = state.messageUsage[at];
    // A continuation's usage is summed into the message's: not the figure of one request.
    if (at < 0 || !kept || JSON.stringify(kept) !== JSON.stringify(usage)) return;
    observeResumedUsage(core.context.tracker, { system: core.system, tools: core.toolDefinitions as never, messages: state.messages }, at, usage);
    return;
  }
}
