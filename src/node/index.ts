/**
 * `agent-harness/node`: the parts that need Node's file system and processes.
 * @packageDocumentation
 */
export { filePlanStore, type FilePlanStoreOptions } from './file-plan-store.js';
