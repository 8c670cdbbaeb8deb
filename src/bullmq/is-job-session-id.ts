import { ConfigurationError } from '../errors/configuration-error.js';
import { describeOptionValue, type OptionCheck } from '../options/index.js';
import { invalidSessionIdReason, MAX_SESSION_ID_BYTES } from '../session/assert-session-id.js';

/**
 * The session id of a job: one every store accepts (`assertSessionId`: a non-empty string of
 * well-formed Unicode without NUL characters, at most `MAX_SESSION_ID_BYTES` bytes of UTF-8), and
 * not blank. Refused when the job is queued, since the worker that took it could only fail it.
 */
export const isJobSessionId: OptionCheck = (value, place) => {
  const reason = typeof value === 'string' && value.trim() === '' ? 'is blank' : invalidSessionIdReason(value);
  if (reason === undefined) return;
  throw new ConfigurationError(
    `${place.owner}: \`${place.path}\` must be a session id the session stores accept — a non-blank string of well-formed Unicode (no lone surrogate) without NUL characters, at most ${MAX_SESSION_ID_BYTES} bytes of UTF-8, e.g. "user-42" — got ${describeOptionValue(value)}, which ${reason}. Nothing was queued: a worker could only fail such a job.`,
  );
};
