import type { AgentCore } from '../runtime/agent-core.js';
import type { BatchCall, OpenBatch } from '../state/index.js';

/** Answers a call with an error result (denied, failed, interrupted) and announces it. */
export function refuseCall(core: AgentCore, call: BatchCall, message: string): void {
  core.answerCall(call, { type: 'tool_result', tool_use_id: call.toolUseId, content: message, is_error: true });
}

/** Refuses every call of the batch that has no answer yet (interrupted, superseded, failed run). */
export function refuseOpenCalls(core: AgentCore, batch: OpenBatch, message: string): void {
  for (const call of batch.calls) if (call.state !== 'done') refuseCall(core, call, message);
}
