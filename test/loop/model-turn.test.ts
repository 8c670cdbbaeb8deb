import { describe, expect, it } from 'vitest';
import { createAgent, ModelError, type AgentEvent } from 'agent-harness';
import { scriptedModel, turn } from 'agent-harness/testing';
import { collect } from '../helpers.js';

const SUMMARY = '<summary>\n## Goal\nAnswer the user.\n</summary>';
const tooLong = () => new ModelError('prompt is too long: 210000 tokens > 200000 maximum', { status: 400, errorType: 'invalid_request_error' });
const overloaded = () => new ModelError('Overloaded.', { errorType: 'overloaded_error', retryable: true });

describe('the turn after a "prompt is too long" compaction', () => {
  it('is retried after a mid-stream failure, announced by stream-retry with the same turn and the turn-wide retry count', async () => {
    const model = scriptedModel([
      'Hello.',
      // Turn 1 of the second run: a mid-stream failure, then the refusal, the summary, a mid-stream failure again, the answer.
      turn('First try', { error: overloaded() }),
      turn('', { error: tooLong() }),
      turn(SUMMARY),
      turn('Second try', { error: overloaded() }),
      'The deadline is Friday.',
    ]);
    const agent = createAgent({ streamRetryBackoff: false, model, maxStreamRetries: 3 });
    await agent.run('Hi.').result;
    const { events, result } = await collect(agent.run('When is the deadline?'));
    expect(result.status).toBe('completed');
    expect(result.text).toBe('The deadline is Friday.');
    const retries = events.filter((event): event is Extract<AgentEvent, { type: 'stream-retry' }> => event.type === 'stream-retry');
    expect(retries.map(({ turn, retry, maxRetries }) => ({ turn, retry, maxRetries }))).toEqual([
      { turn: 1, retry: 1, maxRetries: 3 },
      { turn: 1, retry: 2, maxRetries: 3 },
    ]);
    expect(events.filter((event) => event.type === 'turn-start')).toHaveLength(1);
    expect(model.remaining).toBe(0);
  });

  it('gets no more retries than maxStreamRetries in all, before and after the compaction', async () => {
    const model = scriptedModel(['Hello.', turn('First try', { error: overloaded() }), turn('', { error: tooLong() }), turn(SUMMARY), turn('Second try', { error: overloaded() }), 'Never sent.']);
    const agent = createAgent({ streamRetryBackoff: false, model, maxStreamRetries: 1 });
    await agent.run('Hi.').result;
    const { events, result } = await collect(agent.run('When is the deadline?'));
    expect(result.status).toBe('error');
    expect((result.error as ModelError).errorType).toBe('overloaded_error');
    expect(events.filter((event) => event.type === 'stream-retry')).toMatchObject([{ turn: 1, retry: 1, maxRetries: 1 }]);
    expect(model.remaining).toBe(1);
  });
});
