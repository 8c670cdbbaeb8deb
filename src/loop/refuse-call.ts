import type { AgentCore } from '../runtime/agent-core.js';
import type { BatchCall, OpenBatch } from '../state/index.js';
import { resultCharLimit } from './result-char-limit.js';
import { truncateText } from './tool-result-content.js';
import { REFUSED_WITHOUT_REASON } from '../history/empty-error-result.js';

/** The result of a call left waiting for approval when the user sent a new prompt instead (it joins that prompt's message). */
export const SUPERSEDED_BY_PROMPT = 'The user sent a new message instead of answering this permission request, so the call was not run.';

/**
 * Answers a call with an error result (denied, failed, interrupted) and announces it. The message
 * is bounded like a tool's output (`maxToolResultChars`, or spilled when long results are): a
 * thrown error or a host's denial can be as long as any output. A blank message (a host's
 * `{ behavior: 'deny', message: '' }`, a hook's empty reason) becomes {@link REFUSED_WITHOUT_REASON}:
 * the API refuses an error result with empty content, and the history is sent on every later
 * request, so one empty denial would end the session.
 */
export function refuseCall(core: AgentCore, call: BatchCall, message: string): void {
  const content = truncateText(typeof message === 'string' && message.trim() !== '' ? message : REFUSED_WITHOUT_REASON, resultCharLimit(core));
  core.answerCall(call, core.spillResult(call.toolName, { type: 'tool_result', tool_use_id: call.toolUseId, content, is_error: true }));
}

/** Refuses every call of the batch that has no answer yet (interrupted, superseded, failed run). */
export function refuseOpenCalls(core: AgentCore, batch: OpenBatch, message: string): void {
  for (const call of batch.calls) if (call.state !== 'done') refuseCall(core, call, message);
}
