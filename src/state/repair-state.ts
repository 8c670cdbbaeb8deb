import { repairHistory } from '../history/repair-history.js';
import { isEmptyErrorResult, REFUSED_WITHOUT_REASON } from '../history/empty-error-result.js';
import type { ToolUseBlock } from '../model/messages.js';
import type { BatchCall, SessionState } from './session-state.js';

/**
 * Repairs a loaded state's history in place so the API accepts it (see `repairHistory`), keeping
 * the open batch in step with the last message: calls it still has keep their state, new ones are
 * undecided. Usage per message is kept when the messages kept their places.
 * @returns what was changed, one sentence each (empty when nothing was).
 */
export function repairState(state: SessionState): string[] {
  // A result waiting in the open batch joins the history when the batch ends: mended first.
  const mended: string[] = [];
  for (const call of state.openBatch?.calls ?? []) {
    if (!isEmptyErrorResult(call.result)) continue;
    call.result = { ...call.result!, content: REFUSED_WITHOUT_REASON };
    mended.push(`the error result of call ${call.toolUseId} had no content (refused by the API) and was given one`);
  }
  const { messages, changes } = repairHistory(state.messages);
  if (changes.length === 0) return mended;
  changes.unshift(...mended);
  const samePlaces = messages.length === state.messages.length && messages.every((message, index) => message.role === state.messages[index]!.role);
  state.messages = messages;
  state.messageUsage = samePlaces ? state.messageUsage : messages.map(() => null);
  const last = messages[messages.length - 1];
  const uses = last?.role === 'assistant' ? last.content.filter((block): block is ToolUseBlock => block.type === 'tool_use') : [];
  if (uses.length === 0) {
    delete state.openBatch;
    return changes;
  }
  const known = new Map((state.openBatch?.calls ?? []).map((call) => [call.toolUseId, call]));
  // The calls of a refused answer stay refused (never run) however the repair reshaped them.
  const refused = state.openBatch?.refused === true || state.endedOnRefusal === true;
  state.openBatch = {
    calls: uses.map((use): BatchCall => {
      const call = known.get(use.id);
      return call && call.toolName === use.name ? call : { toolUseId: use.id, toolName: use.name, state: 'undecided' };
    }),
  };
  if (refused) state.openBatch.refused = true;
  return changes;
}
