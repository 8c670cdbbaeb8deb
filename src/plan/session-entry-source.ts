import type { SessionEntry } from '../state/entries.js';

/**
 * Session entries from anywhere: an array, a session store's load, or a streaming reader such as
 * `readClaudeCodeSession` (read once, front to back).
 */
export type SessionEntrySource = Iterable<SessionEntry> | AsyncIterable<SessionEntry>;
