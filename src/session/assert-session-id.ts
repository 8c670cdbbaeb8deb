import { ConfigurationError } from '../errors/configuration-error.js';
import { LONE_SURROGATE } from '../model/code-point-boundary.js';

/**
 * The longest session id the session stores accept, in bytes of UTF-8. Every store of the library
 * can keep an id of this length: the file store names files after it (`<id>.jsonl.lease` and the
 * temporary names beside it stay within the usual 255-byte limit of a file name), PostgreSQL
 * indexes it, Redis puts it in keys. A longer id is refused with a `ConfigurationError` by every
 * store, and by `enqueueRun`/`enqueueApproval` of `agent-harness/bullmq` before anything is queued.
 * For longer keys of your own (an e-mail address, a URL), use a hash of the key as the session id.
 */
export const MAX_SESSION_ID_BYTES = 200;

/** The length of `text` in bytes of UTF-8 (a lone surrogate counts as U+FFFD, three bytes). */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  return bytes;
}

/** A session id for messages: whole, or the start of a long one (cut between code points). */
function shown(sessionId: unknown): string {
  if (typeof sessionId !== 'string') return sessionId === null ? 'null' : `of type ${typeof sessionId}`;
  const points = Array.from(sessionId);
  return JSON.stringify(points.length > 40 ? `${points.slice(0, 20).join('')}…` : sessionId);
}

/**
 * Why `sessionId` is not a session id every store accepts, as a predicate ("is 201 bytes long in
 * UTF-8, …"), or undefined when it is one.
 */
export function invalidSessionIdReason(sessionId: unknown): string | undefined {
  if (typeof sessionId !== 'string') return 'is not a string';
  if (sessionId.length === 0) return 'is empty';
  if (sessionId.includes('\u0000')) return 'contains a NUL character';
  if (LONE_SURROGATE.test(sessionId)) return 'contains a lone surrogate (half of a character)';
  // At most three bytes per UTF-16 code unit: short ids need no count.
  if (sessionId.length * 3 <= MAX_SESSION_ID_BYTES) return undefined;
  const bytes = utf8ByteLength(sessionId);
  if (bytes > MAX_SESSION_ID_BYTES) return `is ${bytes} bytes long in UTF-8, at most ${MAX_SESSION_ID_BYTES} are allowed`;
  return undefined;
}

/**
 * Checks a session id for stores that take any string: non-empty, without the NUL character
 * (which no database keeps in text), well-formed Unicode (a lone surrogate becomes U+FFFD in
 * UTF-8, so two such ids would share one session), and at most {@link MAX_SESSION_ID_BYTES} bytes
 * of UTF-8. The file store adds its own rules, as ids name files there.
 * @throws ConfigurationError naming the bad id (and for a long one, its length and the limit).
 */
export function assertSessionId(sessionId: unknown): asserts sessionId is string {
  const reason = invalidSessionIdReason(sessionId);
  if (reason === undefined) return;
  throw new ConfigurationError(
    `Invalid session id ${shown(sessionId)}: it ${reason}. A session id is a non-empty string of well-formed Unicode without NUL characters, at most ${MAX_SESSION_ID_BYTES} bytes of UTF-8 long, e.g. "session_V1StGXR8Z5jdHi6B".`,
  );
}
