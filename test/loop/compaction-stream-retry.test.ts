import { describe, expect, it } from 'vitest';
import { createAgent, ModelError } from 'agent-harness';
import { scriptedModel, turn } from 'agent-harness/testing';

// A compaction's summary call that fails midway (an overloaded_error frame, a dropped connection)
// is retried like a turn: up to maxStreamRetries, after the same streamRetryBackoff wait.

const overloaded = (retryAfterMs?: number) => new ModelError('Overloaded.', { errorType: 'overloaded_error', retryable: true, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) });
const SUMMARY = '<summary>Goal: an outline. Done: the outline. Next: part two.</summary>';

function recordingSleep() {
  const waits: number[] = [];
  return { waits, sleep: (ms: number) => (waits.push(ms), Promise.resolve()) };
}

describe("the compaction's summary call and the stream retry backoff", () => {
  it('a summary stream that breaks off is retried after the backoff wait, and the compaction succeeds', async () => {
    const { waits, sleep } = recordingSleep();
    const model = scriptedModel(['Outline ready.', turn('<summary>Goal', { error: overloaded() }), turn('<summary>Go', { error: overloaded(1500) }), turn(SUMMARY)]);
    const agent = createAgent({ model, maxStreamRetries: 2, streamRetryBackoff: { initialDelayMs: 1000, sleep, random: () => 0.5 }, context: { compaction: { keepTokens: 0 } } });
    await agent.run('Outline it.').result;
    const result = await agent.compact();
    expect(result.compacted).toBe(true);
    expect(result.summary).toContain('Goal: an outline');
    expect(waits).toEqual([750, 1500]);
    model.assertAllUsed();
  });

  it('past maxStreamRetries the compaction fails with the model error as cause; the history is unchanged', async () => {
    const { waits, sleep } = recordingSleep();
    const model = scriptedModel(['Outline ready.', turn('x', { error: overloaded() }), turn('y', { error: overloaded() })]);
    const agent = createAgent({ model, maxStreamRetries: 1, streamRetryBackoff: { sleep, random: () => 1 }, context: { compaction: { keepTokens: 0 } } });
    await agent.run('Outline it.').result;
    const before = agent.messages;
    await expect(agent.compact()).rejects.toMatchObject({ cause: { errorType: 'overloaded_error' } });
    expect(waits).toEqual([500]);
    expect(agent.messages).toEqual(before);
  });

  it('an HTTP error (already retried by the adapter) and a non-retryable one are not retried', async () => {
    const { waits, sleep } = recordingSleep();
    const http = new ModelError('HTTP 529 overloaded_error', { status: 529, errorType: 'overloaded_error', retryable: true });
    const model = scriptedModel(['Outline ready.', turn('', { error: http })]);
    const agent = createAgent({ model, streamRetryBackoff: { sleep }, context: { compaction: { keepTokens: 0 } } });
    await agent.run('Outline it.').result;
    await expect(agent.compact()).rejects.toBeDefined();
    expect(waits).toEqual([]);
    expect(model.requests).toHaveLength(2);
  });

  it('interrupt() during the wait ends the compaction at once, history unchanged', async () => {
    let release: (() => void) | undefined;
    const sleep = (_ms: number, signal: AbortSignal) =>
      new Promise<void>((resolve) => {
        release = resolve;
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
    const model = scriptedModel(['Outline ready.', turn('x', { error: overloaded() }), turn(SUMMARY)]);
    const agent = createAgent({ model, streamRetryBackoff: { sleep }, context: { compaction: { keepTokens: 0 } } });
    await agent.run('Outline it.').result;
    const before = agent.messages;
    const compacting = agent.compact();
    for (let index = 0; index < 50 && release === undefined; index++) await new Promise((resolve) => setImmediate(resolve));
    expect(release).toBeDefined();
    agent.interrupt();
    const result = await compacting;
    expect(result).toMatchObject({ compacted: false, skipped: 'interrupted' });
    expect(agent.messages).toEqual(before);
    expect(model.requests).toHaveLength(2);
  });
});
