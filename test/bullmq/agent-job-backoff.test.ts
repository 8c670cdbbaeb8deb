import { describe, expect, it } from 'vitest';
import { ModelError, SessionWriteError } from 'agent-harness';
import { agentJobBackoff, AGENT_JOB_BACKOFF_TYPE } from '../../src/bullmq/agent-job-backoff.js';

const job = (delay?: number) => ({ opts: { backoff: { type: AGENT_JOB_BACKOFF_TYPE, ...(delay === undefined ? {} : { delay }) } } });

describe('agentJobBackoff', () => {
  it('is exponential from the job\'s delay (one second when it gives none)', () => {
    expect([1, 2, 3].map((attempts) => agentJobBackoff(attempts, new Error('store down'), job(1000)))).toEqual([1000, 2000, 4000]);
    expect(agentJobBackoff(2, undefined, job())).toBe(2000);
    expect(agentJobBackoff(1, undefined, undefined)).toBe(1000);
  });

  it('waits at least what the API asked for (retryAfterMs), never less than its own backoff', () => {
    const limited = new ModelError('HTTP 429 rate_limit_error', { status: 429, errorType: 'rate_limit_error', retryable: true, retryAfterMs: 30_000 });
    expect(agentJobBackoff(1, limited, job(1000))).toBe(30_000);
    const soon = new ModelError('HTTP 529 overloaded_error', { status: 529, retryable: true, retryAfterMs: 10 });
    expect(agentJobBackoff(3, soon, job(1000))).toBe(4000);
    // Not a model's error: its own backoff only.
    expect(agentJobBackoff(1, new SessionWriteError('s1', new Error('disk full')), job(1000))).toBe(1000);
  });
});
