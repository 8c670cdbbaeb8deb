import type { MinimalJob } from 'bullmq';
import { ModelError } from '../errors/model-error.js';

/**
 * The backoff type agent jobs carried before `createAgentQueue` switched to BullMQ's own
 * `exponential` (which any worker knows); `createAgentWorker` still computes it with
 * {@link agentJobBackoff} for such jobs left on a queue. A type of its own, since BullMQ asks a
 * worker's custom strategy only for a type it does not know.
 */
export const AGENT_JOB_BACKOFF_TYPE = 'agent-harness';

/** The first retry's delay of an agent job, doubled for each further one, when its backoff gives none. */
export const AGENT_JOB_BACKOFF_DELAY_MS = 1000;

/**
 * How long a failed agent job waits before its next attempt: BullMQ's exponential backoff
 * (`delay · 2^(attemptsMade-1)`), but never less than the wait the model's API asked for in the
 * error that failed the attempt (`ModelError.retryAfterMs`, from `retry-after-ms` / `retry-after`):
 * a 429 or 529 that says "retry after 30 s" is not tried again after one.
 * @param attemptsMade - attempts made, this one included (BullMQ's numbering: 1 for the first retry).
 * @param error - what failed the attempt.
 * @param job - the job, for the delay its backoff option gives.
 */
export function agentJobBackoff(attemptsMade: number, error: Error | undefined, job: Pick<MinimalJob, 'opts'> | undefined): number {
  const backoff = job?.opts.backoff;
  const configured = typeof backoff === 'object' ? backoff.delay : typeof backoff === 'number' ? backoff : undefined;
  const delay = typeof configured === 'number' && Number.isFinite(configured) && configured >= 0 ? configured : AGENT_JOB_BACKOFF_DELAY_MS;
  const exponential = Math.round(2 ** Math.max(0, attemptsMade - 1) * delay);
  const asked = ModelError.isInstance(error) ? error.retryAfterMs : undefined;
  return asked === undefined ? exponential : Math.max(exponential, Math.ceil(asked));
}
