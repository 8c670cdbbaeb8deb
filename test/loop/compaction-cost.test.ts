import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CompactionError, createAgent, defineTool, ModelError, type AgentEvent, type Model } from 'agent-harness';
import { deferred } from '../helpers.js';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

/** A read-only tool whose 40,000-character answer fills a 10,000-token window past its compaction threshold. */
const probe = defineTool({ name: 'probe', description: 'Probes.', inputSchema: z.object({}), readOnly: true, execute: () => 'x'.repeat(40_000) });
const context = { window: 10_000, compaction: { outputReserve: 500 } };
/** claude-sonnet-4-6: $3 per million input tokens. */
const SONNET = { modelId: 'claude-sonnet-4-6' };
const dollars = (inputTokens: number) => (inputTokens * 3) / 1_000_000;

describe('compaction calls count in the run usage, cost and budget', () => {
  it('an automatic compaction inside a run counts in costUsd as it does in usage', async () => {
    const model = scriptedModel(
      [
        turn(toolCall('probe', {}), { usage: { inputTokens: 1_000, outputTokens: 0 } }),
        turn('<summary>Everything so far.</summary>', { usage: { inputTokens: 1_000_000, outputTokens: 0 } }),
        turn('done', { usage: { inputTokens: 100, outputTokens: 0 } }),
      ],
      SONNET,
    );
    // Everything is summarized (keepTokens 0): kept verbatim, the 40,000-character result alone
    // would leave the context past the window, longer than before, and the compaction is refused.
    const agent = createAgent({ model, tools: [probe], context: { ...context, compaction: { ...context.compaction, keepTokens: 0 } } });
    const ends: AgentEvent[] = [];
    agent.on('compaction-end', (event) => ends.push(event));
    const result = await agent.run('go').result;
    expect(ends).toHaveLength(1);
    expect(ends[0]!.type === 'compaction-end' && ends[0]!.error).toBeUndefined();
    expect(result.usage.inputTokens).toBe(1_001_100);
    expect(result.costUsd!).toBeCloseTo(dollars(1_001_100), 6);
  });

  it('the budget counts an automatic compaction: the run stops before the next model call once the summary spent it', async () => {
    const model = scriptedModel(
      [
        turn(toolCall('probe', {}), { usage: { inputTokens: 1_000, outputTokens: 0 } }),
        // $3 for the summary: past the $1 budget.
        turn('<summary>Everything so far.</summary>', { usage: { inputTokens: 1_000_000, outputTokens: 0 } }),
        turn('done', { usage: { inputTokens: 100, outputTokens: 0 } }),
        turn(toolCall('probe', {})),
        'unused',
      ],
      SONNET,
    );
    const agent = createAgent({ model, tools: [probe], context, maxBudgetUsd: 1 });
    const result = await agent.run('go').result;
    expect(result.status).toBe('budget-exceeded');
    // The probe call, then the summary: no model call after the compaction spent the budget.
    expect(model.requests).toHaveLength(2);
    expect(result.costUsd!).toBeCloseTo(dollars(1_001_000), 6);
  });

  it('a failed automatic compaction still counts in usage and cost: its tokens were spent', async () => {
    const model = scriptedModel(
      [
        turn(toolCall('probe', {}), { usage: { inputTokens: 1_000, outputTokens: 0 } }),
        // The summary answer stops for a tool call: no handoff, the compaction fails.
        turn('Let me look first.', toolCall('probe', {}), { usage: { inputTokens: 1_000_000, outputTokens: 0 } }),
        turn('done', { usage: { inputTokens: 100, outputTokens: 0 } }),
      ],
      SONNET,
    );
    const agent = createAgent({ model, tools: [probe], context });
    const ends: AgentEvent[] = [];
    agent.on('compaction-end', (event) => ends.push(event));
    const result = await agent.run('go').result;
    expect(result.status).toBe('completed');
    expect(ends).toHaveLength(1);
    const end = ends[0]!;
    expect(end.type === 'compaction-end' && CompactionError.isInstance(end.error)).toBe(true);
    expect(end.type === 'compaction-end' && end.usage.inputTokens).toBe(1_000_000);
    expect(result.usage.inputTokens).toBe(1_001_100);
    expect(result.costUsd!).toBeCloseTo(dollars(1_001_100), 6);
  });

  it('a reactive compaction (after "prompt is too long") counts in usage and cost', async () => {
    const tooLong = new ModelError('prompt is too long: 250000 tokens > 200000 maximum', { status: 400, errorType: 'invalid_request_error' });
    const model = scriptedModel(
      [
        turn(toolCall('probe', {}), { usage: { inputTokens: 1_000, outputTokens: 0 } }),
        turn('', { error: tooLong }),
        turn('<summary>Everything so far.</summary>', { usage: { inputTokens: 1_000_000, outputTokens: 0 } }),
        turn('done', { usage: { inputTokens: 100, outputTokens: 0 } }),
      ],
      SONNET,
    );
    // A window so large that nothing compacts before the refusal.
    const agent = createAgent({ model, tools: [probe], context: { window: 1_000_000, clearing: false } });
    const triggers: string[] = [];
    agent.on('compaction-end', (event) => triggers.push(event.trigger));
    const result = await agent.run('go').result;
    expect(result.status).toBe('completed');
    expect(triggers).toEqual(['reactive']);
    expect(result.usage.inputTokens).toBe(1_001_100);
    expect(result.costUsd!).toBeCloseTo(dollars(1_001_100), 6);
  });
});

describe('a compaction summary call that does not complete', () => {
  it('interrupted while the summary streams: the usage the call reported counts in the compaction, the run usage and the cost', async () => {
    const inner = scriptedModel([turn(toolCall('probe', {}), { usage: { inputTokens: 1_000, outputTokens: 0 } })], SONNET);
    const reported = deferred();
    let calls = 0;
    const model: Model = {
      ...inner,
      async *stream(request) {
        if (calls++ === 0) {
          yield* inner.stream(request);
          return;
        }
        // The summary call: the API took its input, then the run is interrupted.
        yield { type: 'usage', usage: { inputTokens: 1_000_000, outputTokens: 1, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 } };
        reported.resolve();
        await new Promise<void>(() => {}); // ignores its signal
      },
    };
    const agent = createAgent({ model, tools: [probe], context });
    const ends: AgentEvent[] = [];
    agent.on('compaction-end', (event) => ends.push(event));
    const run = agent.run('go');
    await reported.promise;
    await agent.interrupt();
    const result = await run.result;
    expect(result.status).toBe('interrupted');
    expect(ends).toHaveLength(1);
    expect(ends[0]).toMatchObject({ type: 'compaction-end', usage: { inputTokens: 1_000_000, outputTokens: 1 } });
    expect(result.usage.inputTokens).toBe(1_001_000);
    expect(result.costUsd!).toBeCloseTo(dollars(1_001_000) + 15 / 1_000_000, 9);
  });
});
