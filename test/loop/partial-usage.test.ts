// A model call that does not complete (interrupted, or failed midway) was still billed for what it
// used: the usage it reported so far (`usage` stream events) counts in the run's usage, cost and
// budget, once.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, ModelError, type Model, type ModelStreamEvent, type Usage } from 'agent-harness';
import { deferred } from '../helpers.js';

const usage = (inputTokens: number, outputTokens = 0): Usage => ({ inputTokens, outputTokens, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 });
const answer = (text: string, used: Usage): ModelStreamEvent => ({
  type: 'response',
  response: { message: { role: 'assistant', content: [{ type: 'text', text }] }, stopReason: 'end_turn', usage: used },
});
// $1 per million input tokens, $2 per million output tokens: costs are easy to read.
const prices = { 'partial-usage-test': { input: 1, output: 2 } };

/** A model whose calls follow `calls` in order; each is a list of events, or `hang` (reports usage, then never ends, whatever its signal says). */
function modelOf(calls: Array<ModelStreamEvent[] | { hang: Usage } | { fail: Usage; retryable: boolean }>, options: { honoursSignal?: boolean } = {}) {
  const reported = deferred();
  let index = 0;
  const model: Model = {
    specificationVersion: 'v1',
    provider: 'test',
    modelId: 'partial-usage-test',
    async *stream(request) {
      const call = calls[index++]!;
      if (Array.isArray(call)) {
        yield* call;
        return;
      }
      if ('fail' in call) {
        yield { type: 'usage', usage: call.fail };
        yield { type: 'text-delta', index: 0, text: 'Half an ans' };
        throw new ModelError('overloaded_error in the middle of the stream', { retryable: call.retryable });
      }
      yield { type: 'usage', usage: call.hang };
      reported.resolve();
      await new Promise<void>((resolve) => {
        if (options.honoursSignal) request.signal?.addEventListener('abort', () => resolve(), { once: true });
      });
      yield { type: 'usage', usage: usage(999_999, 999_999) }; // never read: the turn was given up
    },
  };
  return { model, reported: reported.promise };
}

describe('the usage of a model call that does not complete', () => {
  it.each([
    ['that ignores its signal', false],
    ['that honours its signal', true],
  ])('interrupted, a model %s: its reported usage counts in the result, the cost and the stored run end', async (_, honoursSignal) => {
    const { model, reported } = modelOf([{ hang: usage(200_000, 1) }], { honoursSignal });
    const agent = createAgent({ streamRetryBackoff: false, model, prices });
    const run = agent.run('Summarize the long document.');
    await reported;
    await agent.interrupt();
    const result = await run.result;
    expect(result.status).toBe('interrupted');
    expect(result.usage).toEqual(usage(200_000, 1));
    expect(result.estimatedOutputTokens).toBeUndefined(); // nothing streamed after the report
    expect(result.costUsd).toBeCloseTo(0.200002, 9);
    // Nothing of the given-up turn is kept in the history: only the prompt.
    expect(agent.messages).toHaveLength(1);
  });

  it('failed midway and retried: the failed attempt and the answer both count', async () => {
    const { model } = modelOf([{ fail: usage(1_000), retryable: true }, [{ type: 'usage', usage: usage(1_000) }, answer('Done.', usage(1_000, 10))]]);
    const agent = createAgent({ streamRetryBackoff: false, model, prices });
    const result = await agent.run('Go.').result;
    expect(result.status).toBe('completed');
    // The failed attempt streamed 'Half an ans' (11 ASCII characters) after its report: 3 tokens estimated.
    expect(result.usage).toEqual(usage(2_000, 10 + 3));
    expect(result.estimatedOutputTokens).toBe(3);
  });

  it('failed midway for good: the run ends with the error and the usage the call reported', async () => {
    const { model } = modelOf([{ fail: usage(5_000), retryable: false }]);
    const agent = createAgent({ streamRetryBackoff: false, model, prices });
    const result = await agent.run('Go.').result;
    expect(result.status).toBe('error');
    expect(result.usage).toEqual(usage(5_000, 3));
    expect(result.estimatedOutputTokens).toBe(3);
  });

  it('counts toward maxBudgetUsd: a retried attempt that spent the budget stops the run before its next model call', async () => {
    const toolCall: ModelStreamEvent = {
      type: 'response',
      response: { message: { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'note', input: {} }] }, stopReason: 'tool_use', usage: usage(1) },
    };
    const { model } = modelOf([{ fail: usage(2_000_000), retryable: true }, [toolCall], [answer('never reached', usage(1))]]);
    const note = defineTool({ name: 'note', description: 'Notes.', inputSchema: z.object({}), readOnly: true, execute: () => 'ok' });
    const result = await createAgent({ streamRetryBackoff: false, model, prices, tools: [note], maxBudgetUsd: 1 }).run('Go.').result;
    expect(result.status).toBe('budget-exceeded');
    expect(result.turns).toBe(1);
    expect(result.usage).toEqual(usage(2_000_001, 3));
  });

  it('a completed call counts its response usage only, not its usage events as well', async () => {
    const { model } = modelOf([[{ type: 'usage', usage: usage(300) }, { type: 'usage', usage: usage(300, 20) }, answer('Done.', usage(300, 20))]]);
    const result = await createAgent({ streamRetryBackoff: false, model, prices }).run('Go.').result;
    expect(result.usage).toEqual(usage(300, 20));
    expect(result.estimatedOutputTokens).toBeUndefined();
  });

  it('a usage event that is not token counts fails the turn with a ModelError that names the field', async () => {
    const { model } = modelOf([[{ type: 'usage', usage: { ...usage(1), outputTokens: Number.NaN } }, answer('Done.', usage(1))]]);
    const result = await createAgent({ streamRetryBackoff: false, model, prices }).run('Go.').result;
    expect(result.status).toBe('error');
    expect(result.error?.message).toContain('usage.outputTokens is not a count of tokens');
    expect(result.usage).toEqual(usage(0));
  });
});

describe('the output of a compaction summary given up midway', () => {
  it('counts in the compaction\'s usage: the reported input plus the estimate of the summary streamed so far', async () => {
    const streamed = deferred();
    let call = 0;
    const model: Model = {
      specificationVersion: 'v1',
      provider: 'test',
      modelId: 'partial-usage-test',
      async *stream(request) {
        if (call++ === 0) {
          yield answer('A long answer to summarize later.', usage(100, 10));
          return;
        }
        yield { type: 'usage', usage: usage(5_000, 1) };
        yield { type: 'text-delta', index: 0, text: '<summary>' + 'x'.repeat(391) };
        streamed.resolve();
        await new Promise<void>((resolve) => request.signal?.addEventListener('abort', () => resolve(), { once: true }));
      },
    };
    const agent = createAgent({ streamRetryBackoff: false, model, prices, context: { compaction: { keepTokens: 0 } } });
    await agent.run('Go.').result;
    const ends: Array<{ usage: Usage }> = [];
    agent.on('compaction-end', (event) => ends.push(event));
    const controller = new AbortController();
    const compacting = agent.compact({ signal: controller.signal });
    await streamed.promise;
    controller.abort();
    expect((await compacting).skipped).toBe('interrupted');
    // 400 ASCII characters streamed after the report: 100 tokens estimated.
    expect(ends.at(-1)!.usage).toEqual(usage(5_000, 101));
  });
});
