import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type AgentEvent, type ContentBlock } from 'agent-harness';
import { asksForSummary, contextModel } from './context-model.js';

// A `context-usage` event carries the run's turn it follows, also the one after a clearing or a
// compaction between two turns (and the reactive one inside a turn); 0 only outside a run
// (agent.compact()) or before a run's first turn.

const SUMMARY = '<summary>\n## Goal\nRead the files.\n</summary>';
const read = defineTool({ name: 'Read', description: 'Reads.', inputSchema: z.object({ path: z.string() }), readOnly: true, execute: ({ input }) => `contents of ${input.path}\n${'lorem ipsum dolor '.repeat(500)}` });

function reader(reads: number) {
  let done = 0;
  return (request: Parameters<Parameters<typeof contextModel>[0]>[0], index: number): ContentBlock[] => {
    if (asksForSummary(request)) return [{ type: 'text', text: SUMMARY }];
    if (done++ < reads) return [{ type: 'tool_use', id: `toolu_${index}`, name: 'Read', input: { path: `file-${index}.md` } }];
    return [{ type: 'text', text: 'Done.' }];
  };
}

/** Each `context-usage` with the event before it and the number of the latest `turn-start`. */
function usagesOf(events: AgentEvent[]) {
  let turn = 0;
  const usages: Array<{ after: string; turn: number; latestTurn: number }> = [];
  events.forEach((event, index) => {
    if (event.type === 'turn-start') turn = event.turn;
    if (event.type === 'context-usage') usages.push({ after: events[index - 1]!.type, turn: event.turn, latestTurn: turn });
  });
  return usages;
}

function listen(agent: ReturnType<typeof createAgent>): AgentEvent[] {
  const events: AgentEvent[] = [];
  for (const type of ['turn-start', 'context-usage', 'tool-results-cleared', 'compaction-end', 'turn-end'] as const) agent.on(type, (event) => events.push(event));
  return events;
}

describe('the turn of a context-usage event', () => {
  it.each([
    ['tool-results-cleared', { window: 20_000, clearing: { triggerFraction: 0.3, keepRecentTurns: 1, clearAtLeastChars: 1_000 }, compaction: false as const }],
    ['compaction-end', { window: 20_000, clearing: false as const, compaction: { threshold: 0.5, outputReserve: 0, keepTokens: 1_000 } }],
  ])('after %s between turns, is the run’s turn it follows', async (after, context) => {
    const model = contextModel(reader(8));
    const agent = createAgent({ model, tools: [read], maxTurns: 30, context });
    const events = listen(agent);
    expect((await agent.run('Read the files.').result).status).toBe('completed');
    const usages = usagesOf(events);
    const between = usages.filter((usage) => usage.after === after);
    expect(between.length).toBeGreaterThan(0);
    for (const usage of usages) expect(usage.turn).toBe(usage.latestTurn);
    for (const usage of between) expect(usage.turn).toBeGreaterThan(0);
  });

  it('after a reactive compaction, is the turn it happened in; after agent.compact(), 0', async () => {
    const model = contextModel(reader(4), { window: 6_000 });
    const agent = createAgent({ model, tools: [read], context: { window: 1_000_000, clearing: false } });
    const events = listen(agent);
    expect((await agent.run('Read the files.').result).status).toBe('completed');
    const usages = usagesOf(events);
    const reactive = usages.filter((usage) => usage.after === 'compaction-end');
    expect(reactive.length).toBeGreaterThan(0);
    for (const usage of usages) expect(usage.turn).toBe(usage.latestTurn);
    for (const usage of reactive) expect(usage.turn).toBeGreaterThan(0);

    events.length = 0;
    expect((await agent.compact()).compacted).toBe(true);
    expect(events.filter((event) => event.type === 'context-usage').map((event) => event.type === 'context-usage' && event.turn)).toEqual([0]);
  });
});
