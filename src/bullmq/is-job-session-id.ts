import { ConfigurationError } from '../errors/configuration-error.js';
import { describeOptionValue, type OptionCheck } from '../options/index.js';
import { assertSessionId } from '../session/assert-session-id.js';

/**
 * The session id of a job: one every store accepts (`assertSessionId`: a non-empty string of
 * well-formed Unicode without NUL characters), and not blank. Refused when the job is queued, since
 * the worker that took it could only fail it.
 */
export const isJobSessionId: OptionCheck = (value, place) => {
  let valid = typeof value === 'string' && value.trim() !== '';
  if (valid) {
    try {
      assertSessionId(value);
    } catch {
      valid = false;
    }
  }
  if (valid) return;
  throw new ConfigurationError(
    `${place.owner}: \`${place.path}\` must be a session id the session stores accept — a non-blank string of well-formed Unicode (no lone surrogate) without NUL characters, e.g. "user-42" — got ${describeOptionValue(value)}. Nothing was queued: a worker could only fail such a job.`,
  );
};
