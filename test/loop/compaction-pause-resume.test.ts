import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memorySessionStore, type AgentEvent, type ModelRequest } from 'agent-harness';
import { scriptedModel, toolCall, turn, type ScriptedTurn } from 'agent-harness/testing';
import { asksForSummary, requestTokens } from './context-model.js';

// After a compaction that did not help (or failed), automatic compaction pauses until the context
// has grown. The pause is session state: a session resumed from its store or a snapshot does not
// pay for the same useless summary again on its first turn (a host that makes an agent per
// request would pay on every one), and it lifts, for good, once the context is back under the
// threshold or a compaction helped.

// About 800 tokens a file: one read takes the context (with the prefix, about 800) past the threshold of 1,500.
const read = defineTool({ name: 'Read', description: 'Reads.', inputSchema: z.object({ path: z.string() }), readOnly: true, execute: ({ input }) => `contents of ${input.path}\n${'lorem ipsum dolor '.repeat(180)}` });

// About 1,000 tokens: with the prefix (about 800), past the threshold on its own.
const HUGE_SUMMARY = `<summary>\n${'The work so far, in detail. '.repeat(140)}\n</summary>`;
const SHORT_SUMMARY = '<summary>\nRead files.\n</summary>';

/** Reads `reads` files per run, then answers; every summary request gets `summary()`. Usage is the request's estimate. */
function reader(reads: number, summary: () => string | ScriptedTurn = () => HUGE_SUMMARY) {
  let done = 0;
  const answer = (request: ModelRequest): ScriptedTurn => {
    const usage = { inputTokens: requestTokens(request) };
    if (asksForSummary(request)) {
      const written = summary();
      return typeof written === 'string' ? turn(written, { usage }) : written;
    }
    if (done < reads) return turn(toolCall('Read', { path: `file-${done++}.md` }), { usage });
    done = 0;
    return turn('Done.', { usage });
  };
  return scriptedModel(Array.from({ length: 60 }, () => answer));
}

// About 1,000 tokens: with the prefix, past the threshold at once.
const PROMPT = `Read the files. ${'Context for the task. '.repeat(180)}`;
const settings = (threshold = 0.15) => ({ window: 10_000, clearing: false as const, compaction: { outputReserve: 0, threshold, keepTokens: 0 } });
const summaries = (model: ReturnType<typeof scriptedModel>) => model.requests.filter((recorded) => asksForSummary(recorded.request)).length;

/** A session whose one compaction did not help: paused, in the store. */
async function pausedSession(summary?: () => string | ScriptedTurn) {
  const store = memorySessionStore();
  const model = reader(1, summary);
  const agent = createAgent({ model, tools: [read], store, context: settings() });
  const events: AgentEvent[] = [];
  for (const type of ['warning', 'error'] as const) agent.on(type, (event) => events.push(event));
  expect((await agent.run('Read the file.').result).status).toBe('completed');
  expect(summaries(model)).toBe(1);
  expect(events.length).toBe(1);
  await agent.close();
  return { store, sessionId: agent.sessionId, snapshot: agent.snapshot() };
}

describe('the automatic compaction pause across a restart', () => {
  it.each([
    ['a compaction that left the context past the threshold', undefined],
    ['a failed compaction', () => turn('I am unable to', { stopReason: 'refusal' })],
  ])('after %s, a session resumed from its store or a snapshot does not compact again on every run', async (_, summary) => {
    const { store, sessionId, snapshot } = await pausedSession(summary);
    for (let restart = 0; restart < 3; restart++) {
      const model = reader(0);
      const resumed = createAgent({ model, tools: [read], store, resume: sessionId, context: settings() });
      expect((await resumed.run('Go on.').result).status).toBe('completed');
      expect(summaries(model)).toBe(0);
      await resumed.close();
    }
    const model = reader(0);
    const fromSnapshot = createAgent({ model, tools: [read], resume: snapshot, context: settings() });
    expect((await fromSnapshot.run('Go on.').result).status).toBe('completed');
    expect(summaries(model)).toBe(0);
  });

  it('lifts for good once the context is back under the threshold: the next session past it compacts again', async () => {
    const { store, sessionId } = await pausedSession();
    // A host that raised the threshold: the context is under it, the pause ends (and is recorded).
    const raised = createAgent({ model: reader(0), tools: [read], store, resume: sessionId, context: settings(0.9) });
    expect((await raised.run('Go on.').result).status).toBe('completed');
    await raised.close();
    const model = reader(0);
    const again = createAgent({ model, tools: [read], store, resume: sessionId, context: settings() });
    await again.ready;
    expect(again.contextUsage.tokens).toBeGreaterThanOrEqual(1_500);
    expect((await again.run('Go on.').result).status).toBe('completed');
    expect(summaries(model)).toBe(1);
  });

  it('lifts after a manual compaction that helped, also for the resumed session', async () => {
    const { store, sessionId } = await pausedSession();
    const manual = createAgent({ model: reader(0, () => SHORT_SUMMARY), tools: [read], store, resume: sessionId, context: { ...settings(), compaction: { ...settings().compaction, auto: false } } });
    const result = await manual.compact();
    expect(result.compacted).toBe(true);
    expect(result.tokensAfter).toBeLessThan(1_500);
    await manual.close();
    // The next run's prompt takes the context past the threshold again: it compacts.
    const model = reader(0, () => SHORT_SUMMARY);
    const again = createAgent({ model, tools: [read], store, resume: sessionId, context: settings() });
    expect((await again.run(PROMPT).result).status).toBe('completed');
    expect(summaries(model)).toBe(1);
  });
});
