export { applyEntry } from './apply-entry.js';
export { foldEntries, type FoldEntriesOptions } from './fold-entries.js';
export { settleLoadedState, settled, INTERRUPTED_BEFORE_FINISHING, NESTED_INTERRUPTED } from './settle-loaded-state.js';
export { deferredCalls, isBatchDone, completesBatch, batchResults, toolUseOf, pendingApprovalsOf } from './batch.js';
export { hostFacingApproval } from './host-facing-approval.js';
export { entrySeq } from './entry-seq.js';
export { wellFormedEntry, wellFormedMessages } from './well-formed-entry.js';
export {
  createSessionState,
  type SessionState,
  type BatchCall,
  type BatchCallState,
  type OpenBatch,
  type NestedRun,
  type RequestPrefix,
  type HostAnswer,
  type SpilledToolOutput,
} from './session-state.js';
export * from './entries.js';
