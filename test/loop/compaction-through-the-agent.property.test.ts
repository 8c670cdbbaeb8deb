import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, foldEntries, memorySessionStore, type ContentBlock } from '../../src/index.js';
import { loadEntries } from '../../src/session/load-entries.js';
import { asksForSummary, contextModel } from './context-model.js';

/** One model answer: some text, and 0–3 calls of a read-only tool or of one that needs approval. */
const answerArbitrary = fc.record({
  text: fc.option(fc.constantFrom('Looking.', 'Done with this part.', 'Next.'), { nil: undefined }),
  calls: fc.array(fc.record({ tool: fc.constantFrom('Read', 'Read', 'Write'), size: fc.constantFrom(10, 800, 4_000) }), { maxLength: 3 }),
});

/** What the host does between runs. */
const stepArbitrary = fc.oneof(
  fc.record({ kind: fc.constant('prompt' as const) }),
  fc.record({ kind: fc.constant('compact' as const) }),
  fc.record({ kind: fc.constant('answer' as const), allow: fc.boolean() }),
);

describe('compaction through the agent (property)', () => {
  let summaries = 0;
  it('for random sessions, windows and compaction points, every request the model gets is one the API accepts, and the store folds to the live state', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(answerArbitrary, { minLength: 5, maxLength: 40 }),
        fc.array(stepArbitrary, { minLength: 2, maxLength: 8 }),
        fc.record({ window: fc.integer({ min: 6_000, max: 40_000 }), keepTokens: fc.integer({ min: 0, max: 5_000 }), clear: fc.boolean() }),
        async (answers, steps, settings) => {
          let next = 0;
          const model = contextModel((request, index): ContentBlock[] => {
            if (asksForSummary(request)) summaries++;
            if (asksForSummary(request)) return [{ type: 'text', text: `<summary>\n## Goal\nSummary ${index}.\n</summary>` }];
            const answer = answers[next++ % answers.length]!;
            const blocks: ContentBlock[] = answer.text ? [{ type: 'text', text: answer.text }] : [];
            answer.calls.forEach((call, position) => blocks.push({ type: 'tool_use', id: `toolu_${index}_${position}`, name: call.tool, input: { path: `f${call.size}` } }));
            return blocks.length > 0 ? blocks : [{ type: 'text', text: 'Nothing to do.' }];
          }, { window: settings.window });
          const read = defineTool({ name: 'Read', description: 'Reads.', inputSchema: z.object({ path: z.string() }), readOnly: true, execute: ({ input }) => 'x'.repeat(Number(input.path.slice(1))) });
          const write = defineTool({ name: 'Write', description: 'Writes.', inputSchema: z.object({ path: z.string() }), kind: 'edit', execute: () => 'written' });
          const store = memorySessionStore();
          const agent = createAgent({
            model,
            tools: [read, write],
            store,
            maxTurns: 8,
            context: {
              window: settings.window,
              clearing: settings.clear ? { triggerFraction: 0.3, clearAtLeastChars: 1_000, keepRecentTurns: 1 } : false,
              compaction: { threshold: 0.6, outputReserve: 1_000, keepTokens: settings.keepTokens },
            },
          });
          for (const step of steps) {
            if (step.kind === 'prompt') await agent.run('Go on.').result;
            else if (step.kind === 'compact') await agent.compact().catch(() => undefined);
            else {
              const pending = agent.pendingApprovals[0];
              if (pending) await agent.resolveApproval(pending.id, step.allow ? { behavior: 'allow' } : { behavior: 'deny', message: 'No.' }).result;
            }
          }
          for (const call of model.calls) expect(call.problem).toBeUndefined();
          await agent.flush();
          const folded = foldEntries(await loadEntries(store, agent.sessionId), { sessionId: agent.sessionId });
          expect(folded.messages).toEqual(agent.messages);
          expect(folded.openBatch).toEqual(agent.snapshot().openBatch);
          await agent.close();
        },
      ),
      { numRuns: 60 },
    );
    // The property is about compactions: the runs must have had some.
    expect(summaries).toBeGreaterThan(20);
  }, 120_000);
});
