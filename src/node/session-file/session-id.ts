import { ConfigurationError } from '../../errors/configuration-error.js';
import { MAX_SESSION_ID_BYTES, utf8ByteLength } from '../../session/assert-session-id.js';

/** The extension of a session transcript file. */
export const SESSION_FILE_EXTENSION = '.jsonl';

const ALLOWED = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/** Why `sessionId` cannot name a transcript file, or undefined when it can. */
export function sessionIdProblem(sessionId: unknown): string | undefined {
  if (typeof sessionId !== 'string') return `a session id must be a string, got ${sessionId === null ? 'null' : typeof sessionId}`;
  if (sessionId.length === 0) return 'session id "" is empty';
  // The limit of every store; with the suffixes and temporary names beside it, a file name stays under 255 bytes.
  const bytes = utf8ByteLength(sessionId);
  if (bytes > MAX_SESSION_ID_BYTES) return `session id ${JSON.stringify(`${Array.from(sessionId).slice(0, 20).join('')}…`)} is ${bytes} bytes long in UTF-8, at most ${MAX_SESSION_ID_BYTES} are allowed`;
  if (/[/\\]/.test(sessionId)) return `session id ${JSON.stringify(sessionId)} contains a path separator`;
  if (sessionId.includes('..')) return `session id ${JSON.stringify(sessionId)} contains ".."`;
  if (sessionId.startsWith('.')) return `session id ${JSON.stringify(sessionId)} starts with "."`;
  if (!ALLOWED.test(sessionId)) return `session id ${JSON.stringify(sessionId)} has characters other than letters, digits, ".", "_" and "-"`;
  return undefined;
}

/**
 * Checks that a session id is safe to use as a file name inside the store's directory.
 * @throws ConfigurationError naming the bad id.
 */
export function assertSessionId(sessionId: unknown): asserts sessionId is string {
  const problem = sessionIdProblem(sessionId);
  if (problem !== undefined) {
    throw new ConfigurationError(`Invalid session id for the file session store: ${problem}. Use letters, digits, ".", "_" and "-", e.g. "session_V1StGXR8Z5jdHi6B".`);
  }
}
