import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CompactionError, createAgent, defineTool, type AgentEvent, type ModelRequest } from 'agent-harness';
import { scriptedModel, toolCall, turn, type ScriptedTurn } from 'agent-harness/testing';
import { asksForSummary, requestTokens } from './context-model.js';

// An automatic compaction that leaves the context at or past the threshold (or fails) must not be
// tried again before every turn: each one is a model call that cannot help.

const read = defineTool({ name: 'Read', description: 'Reads.', inputSchema: z.object({ path: z.string() }), readOnly: true, execute: ({ input }) => `contents of ${input.path}` });

/** Reads `reads` files, then answers; every summary request gets `summary`. Usage is the request's estimate, as the API would report it. */
function reader(reads: number, summary: (request: ModelRequest) => ScriptedTurn) {
  let done = 0;
  const answer = (request: ModelRequest): ScriptedTurn => {
    if (asksForSummary(request)) return summary(request);
    const usage = { inputTokens: requestTokens(request) };
    return done < reads ? turn(toolCall('Read', { path: `file-${done++}.md` }), { usage }) : turn('Done.', { usage });
  };
  return scriptedModel(Array.from({ length: 2 * reads + 4 }, () => answer));
}

// A 4,000-character prompt (about 1,000 tokens) passes the threshold of 300 tokens at once.
const PROMPT = `Read the files. ${'Context for the task. '.repeat(180)}`;
const settings = { window: 3_000, clearing: false as const, compaction: { outputReserve: 0, threshold: 0.1, keepTokens: 0 } };

describe('automatic compaction that does not help', () => {
  it('a summary that leaves the context past the threshold is not asked for again every turn; a warning says why', async () => {
    // The summary alone (about 500 tokens) is past the threshold.
    const model = reader(4, (request) => turn(`<summary>\n${'The work so far, in detail. '.repeat(70)}\n</summary>`, { usage: { inputTokens: requestTokens(request) } }));
    const agent = createAgent({ model, tools: [read], context: settings });
    const events: AgentEvent[] = [];
    for (const type of ['compaction-end', 'warning'] as const) agent.on(type, (event) => events.push(event));
    const result = await agent.run(PROMPT).result;
    expect(result.status).toBe('completed');
    expect(model.requests.filter((recorded) => asksForSummary(recorded.request))).toHaveLength(1);
    const end = events.find((event) => event.type === 'compaction-end') as Extract<AgentEvent, { type: 'compaction-end' }>;
    expect(end.error).toBeUndefined();
    expect(end.tokensAfter).toBeGreaterThanOrEqual(300);
    // In a 3,000-token window the tool list itself draws a warning (source tools) too.
    const warnings = events.filter((event): event is Extract<AgentEvent, { type: 'warning' }> => event.type === 'warning' && event.source === 'compaction');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toMatch(/threshold/);
  });

  it('compacts again once the context has grown by keepTokens (at least a tenth of the window) since the last one', async () => {
    const big = defineTool({ name: 'Read', description: 'Reads.', inputSchema: z.object({ path: z.string() }), readOnly: true, execute: () => 'A long file. '.repeat(80) });
    const model = reader(6, (request) => turn(`<summary>\n${'The work so far, in detail. '.repeat(70)}\n</summary>`, { usage: { inputTokens: requestTokens(request) } }));
    const agent = createAgent({ model, tools: [big], maxTurns: 20, context: settings });
    const compactions: Array<{ before: number; after: number }> = [];
    agent.on('compaction-end', (event) => compactions.push({ before: event.tokensBefore, after: event.tokensAfter }));
    const result = await agent.run(PROMPT).result;
    expect(result.status).toBe('completed');
    // Each result adds about 280 tokens: after each compaction, the next waits for 300 more (a tenth of the window).
    expect(compactions.length).toBeGreaterThan(1);
    expect(compactions.length).toBeLessThan(result.turns);
    for (let index = 1; index < compactions.length; index++) expect(compactions[index]!.before).toBeGreaterThanOrEqual(compactions[index - 1]!.after + 300);
  });

  it('a failed automatic compaction is not tried again every turn either', async () => {
    const model = reader(4, () => turn('I am unable to', { stopReason: 'refusal' }));
    const agent = createAgent({ model, tools: [read], context: settings });
    const errors: AgentEvent[] = [];
    agent.on('error', (event) => errors.push(event));
    const result = await agent.run(PROMPT).result;
    expect(result.status).toBe('completed');
    expect(model.requests.filter((recorded) => asksForSummary(recorded.request))).toHaveLength(1);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.type === 'error' && CompactionError.isInstance(errors[0]!.error)).toBe(true);
  });
});
