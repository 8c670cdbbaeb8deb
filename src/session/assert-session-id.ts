import { ConfigurationError } from '../errors/configuration-error.js';
import { LONE_SURROGATE } from '../model/code-point-boundary.js';


/**
 * Checks a session id for stores that take any string: non-empty, without the NUL character
 * (which no database keeps in text), and well-formed Unicode (a lone surrogate becomes U+FFFD in
 * UTF-8, so two such ids would share one session). The file store adds its own rules, as ids name
 * files there.
 * @throws ConfigurationError naming the bad id.
 */
export function assertSessionId(sessionId: unknown): asserts sessionId is string {
  if (typeof sessionId !== 'string' || sessionId.length === 0 || sessionId.includes('\u0000') || LONE_SURROGATE.test(sessionId)) {
    throw new ConfigurationError(
      `Invalid session id ${JSON.stringify(sessionId)}: a session id must be a non-empty string of well-formed Unicode without NUL characters, e.g. "session_V1StGXR8Z5jdHi6B".`,
    );
  }
}
