/**
 * `agent-harness/node`: the parts that need Node's file system and processes.
 * @packageDocumentation
 */
export { filePlanStore, type FilePlanStoreOptions } from './file-plan-store.js';
export { fileSessionStore, type FileSessionStoreOptions } from './file-session-store.js';
export { SessionLockedError, type SessionLockHolder, type SessionLockedErrorOptions } from '../errors/session-locked-error.js';
export { readClaudeCodeSessionFile, type ReadClaudeCodeSessionFileOptions } from './read-claude-code-session-file.js';
