// A resumed agent measures its context as the agent before the restart did: calibrated by the
// usage the API reported for the last call, never by a usage reported for a history that was
// rewritten since (a compaction, a clearing).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memorySessionStore } from 'agent-harness';
import { scriptedModel, toolCall, turn, type ScriptItem } from 'agent-harness/testing';
import { requestTokens } from '../loop/context-model.js';

/** Reports 1.5 times the heuristic's size of each request: a model whose tokenizer counts more than the estimate. */
const reported = (content: Parameters<typeof turn>[0], more: Parameters<typeof turn>[0][] = []): ScriptItem => (request) =>
  turn(content, ...more, { usage: { inputTokens: Math.round(requestTokens(request) * 1.5), outputTokens: 20 } });

const reader = defineTool({ name: 'read', description: 'Reads.', inputSchema: z.object({}), readOnly: true, execute: () => 'word '.repeat(2_000) });

describe('the context estimate of a resumed agent', () => {
  it('is calibrated by the last reported usage, as before the restart', async () => {
    const store = memorySessionStore();
    const live = createAgent({ model: scriptedModel([reported(toolCall('read', {}, 'toolu_read')), reported('Read it.')]), tools: [reader], store });
    await live.run('Read the file. '.repeat(200)).result;
    const before = live.contextUsage;
    await live.close();
    const resumed = createAgent({ model: scriptedModel([]), tools: [reader], store, resume: live.sessionId });
    await resumed.ready;
    expect(resumed.contextUsage.source).toBe('calibrated');
    // Anchored on the resumed history itself, at the reported count, with the answer's exact
    // output tokens: the same figure as before the restart, not an estimate near it.
    expect(resumed.contextUsage.tokens).toBe(before.tokens);
    // Uncalibrated, the estimate would be a third lower: the attack's point.
    const fresh = createAgent({ model: scriptedModel([]), tools: [reader], resume: resumed.snapshot() });
    expect(fresh.contextUsage.tokens).toBeLessThan(before.tokens * 0.8);
  });

  it('with tool results appended after the last answer, scales them by the same calibration', async () => {
    const store = memorySessionStore();
    const model = scriptedModel([reported(toolCall('read', {}, 'toolu_read'))]);
    const live = createAgent({ model, tools: [reader], store, maxTurns: 1 });
    await live.run('Read the file.').result;
    const before = live.contextUsage;
    await live.close();
    expect(before.source).toBe('calibrated');
    const resumed = createAgent({ model: scriptedModel([]), tools: [reader], store, resume: live.sessionId });
    await resumed.ready;
    expect(Math.abs(resumed.contextUsage.tokens - before.tokens) / before.tokens).toBeLessThan(0.02);
  });

  it('is not calibrated by a usage reported before a compaction (that history is gone)', async () => {
    const store = memorySessionStore();
    const live = createAgent({ model: scriptedModel([turn('Noted.', { usage: { inputTokens: 150_000, outputTokens: 20 } }), '<summary>Noted.</summary>']), store });
    await live.run('Remember this. '.repeat(200)).result;
    expect((await live.compact()).compacted).toBe(true);
    await live.close();
    const resumed = createAgent({ model: scriptedModel([]), store, resume: live.sessionId });
    await resumed.ready;
    expect(resumed.contextUsage.source).toBe('estimate');
    expect(resumed.contextUsage.tokens).toBeLessThan(10_000);
  });

  it('is not calibrated by a usage reported before old results were cleared', async () => {
    const store = memorySessionStore();
    const context = { window: 20_000, clearing: { triggerFraction: 0.1, keepRecentTurns: 0, minimumResultChars: 10, clearAtLeastChars: 1 }, compaction: false as const };
    // The call after the clearing fails: the last answer's usage is that of the history before it.
    const model = scriptedModel([
      turn(toolCall('read', {}, 'toolu_1')),
      turn(toolCall('read', {}, 'toolu_2'), { usage: { inputTokens: 150_000, outputTokens: 20 } }),
      () => {
        throw new Error('the API is down');
      },
    ]);
    const live = createAgent({ model, tools: [reader], store, context, maxStreamRetries: 0 });
    const cleared: unknown[] = [];
    live.on('tool-results-cleared', (event) => cleared.push(event));
    expect((await live.run('Read twice.').result).status).toBe('error');
    expect(cleared.length).toBeGreaterThan(0);
    await live.close();
    const resumed = createAgent({ model: scriptedModel([]), tools: [reader], store, resume: live.sessionId, context });
    await resumed.ready;
    expect(resumed.contextUsage.source).toBe('estimate');
    expect(resumed.contextUsage.tokens).toBeLessThan(10_000);
  });
});
