import { ConfigurationError } from '../errors/configuration-error.js';

/**
 * Checks a session id for stores that take any string: non-empty, and without the NUL character
 * (which no database keeps in text). The file store adds its own rules, as ids name files there.
 * @throws ConfigurationError naming the bad id.
 */
export function assertSessionId(sessionId: unknown): asserts sessionId is string {
  if (typeof sessionId !== 'string' || sessionId.length === 0 || sessionId.includes('\u0000')) {
    throw new ConfigurationError(
      `Invalid session id ${JSON.stringify(sessionId)}: a session id must be a non-empty string without NUL characters, e.g. "session_V1StGXR8Z5jdHi6B".`,
    );
  }
}
