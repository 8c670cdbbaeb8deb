import type { AgentCore } from '../agent/agent-core.js';
import { answerWithError, type BatchCall, type OpenBatch } from './open-batch.js';

/**
 * Answers a call with an error result and announces it as a `tool-result` event (which is also
 * what the transcript records), so the model and the host see the same answer.
 */
export function refuseCall(core: AgentCore, call: BatchCall, message: string): void {
  answerWithError(call, message);
  core.emit({ type: 'tool-result', toolUseId: call.toolUseId, toolName: call.toolName, content: message, isError: true });
}

/** Refuses every call of the batch that has no answer yet (interrupted, superseded, failed run). */
export function refuseOpenCalls(core: AgentCore, batch: OpenBatch, message: string): void {
  for (const call of batch.calls) if (call.state !== 'done') refuseCall(core, call, message);
}
