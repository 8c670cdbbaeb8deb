import { describe, expect, it } from 'vitest';
import type { SessionEntry } from 'agent-harness';
import { jobProgress } from '../../src/bullmq/job-progress.js';

let seq = 0;
const entry = (fields: Record<string, unknown>) => ({ $schemaVersion: 2, id: `e${++seq}`, parentId: null, seq, timestamp: '2027-01-01T00:00:00.000Z', sessionId: 's', ...fields }) as unknown as SessionEntry;
const user = (text: string) => entry({ kind: 'message', message: { role: 'user', content: [{ type: 'text', text }] } });
const assistant = (text: string) => entry({ kind: 'message', message: { role: 'assistant', content: [{ type: 'text', text }] } });

describe('jobProgress: how far a job went, from the transcript', () => {
  const earlier = [entry({ kind: 'run-start', runId: 'job_1' }), user('first'), assistant('one'), entry({ kind: 'run-end', runId: 'job_1', status: 'completed', usage: {} })];

  it('a job that never started: nothing (another job’s run does not count)', () => {
    expect(jobProgress(earlier, 'job_2')).toEqual({ endedWith: undefined, errorEnds: 0, started: false, promptDelivered: false });
  });

  it('killed after run-start, before the prompt was stored: the prompt must still be sent', () => {
    expect(jobProgress([...earlier, entry({ kind: 'run-start', runId: 'job_2' })], 'job_2')).toEqual({ endedWith: undefined, errorEnds: 0, started: true, promptDelivered: false });
  });

  it('killed after the prompt was stored: continue, do not send it again', () => {
    expect(jobProgress([...earlier, entry({ kind: 'run-start', runId: 'job_2' }), user('second')], 'job_2')).toMatchObject({ started: true, promptDelivered: true });
  });

  it('killed after run-start, then another job of the session ran first: its prompt is not this job’s, the prompt must still be sent', () => {
    const other = [entry({ kind: 'run-start', runId: 'job_3' }), user('third'), assistant('three'), entry({ kind: 'run-end', runId: 'job_3', status: 'completed', usage: {} })];
    expect(jobProgress([...earlier, entry({ kind: 'run-start', runId: 'job_2' }), ...other], 'job_2')).toEqual({ endedWith: undefined, errorEnds: 0, started: true, promptDelivered: false });
    // Its retry then delivered it: continue from there.
    expect(jobProgress([...earlier, entry({ kind: 'run-start', runId: 'job_2' }), ...other, entry({ kind: 'run-start', runId: 'job_2' }), user('second')], 'job_2').promptDelivered).toBe(true);
  });

  it('a run that ended (its worker died before BullMQ heard): done, with its status', () => {
    const ended = [...earlier, entry({ kind: 'run-start', runId: 'job_2' }), user('second'), entry({ kind: 'run-end', runId: 'job_2', status: 'awaiting-approval', usage: {} })];
    expect(jobProgress(ended, 'job_2').endedWith).toBe('awaiting-approval');
  });

  it('counts the run ends `error` of its run: one per attempt an outage failed, one more when the last attempt failed for good', () => {
    const failed = (status: string) => [entry({ kind: 'run-start', runId: 'job_2' }), entry({ kind: 'run-end', runId: 'job_2', status, usage: {} })];
    expect(jobProgress([...earlier, user('second'), ...failed('error')], 'job_2')).toMatchObject({ endedWith: 'error', errorEnds: 1 });
    expect(jobProgress([...earlier, user('second'), ...failed('error'), ...failed('error')], 'job_2')).toMatchObject({ endedWith: 'error', errorEnds: 2 });
    expect(jobProgress([...earlier, user('second'), ...failed('error'), ...failed('completed')], 'job_2')).toMatchObject({ endedWith: 'completed', errorEnds: 1 });
  });
});
