import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CompactionError, createAgent, defineTool, ModelError, type AgentEvent } from 'agent-harness';
import { scriptedModel, toolCall, turn, type ScriptedTurn } from 'agent-harness/testing';

const read = defineTool({ name: 'Read', description: 'Reads.', inputSchema: z.object({ path: z.string() }), readOnly: true, execute: () => 'deadline is Friday' });

/** An agent that has read a file and answered, whose next model call writes `summary`. */
async function agentBeforeSummary(summary: ScriptedTurn) {
  const model = scriptedModel([turn(toolCall('Read', { path: 'notes.md' })), 'Noted.', summary]);
  const agent = createAgent({ model, tools: [read] });
  await agent.run('Read notes.md').result;
  return agent;
}

describe('a summary that is not a whole answer', () => {
  const broken: Array<[string, ScriptedTurn, RegExp]> = [
    ['cut off by max_tokens', turn('<summary>\n## Goal\nWrite the report for Ma', { stopReason: 'max_tokens' }), /max_tokens/],
    ['a whole-looking answer cut off by max_tokens', turn('<summary>\n## Goal\nWrite the report\n</summary>', { stopReason: 'max_tokens' }), /max_tokens/],
    ['a refusal', turn('I am unable to', { stopReason: 'refusal' }), /refus/],
    ['a <summary> opened and never closed', turn('<summary>\n## Goal\nWrite the report for Ma'), /never closes/],
    ['text before a tool call (stop reason tool_use)', turn('Let me read the file again first.', toolCall('Read', { path: 'notes.md' })), /stop reason "tool_use"/],
    ['text before a paused server tool (stop reason pause_turn)', turn('Searching for the deadline first.', { stopReason: 'pause_turn' }), /stop reason "pause_turn"/],
  ];

  it.each(broken)('%s fails the manual compaction with a CompactionError; the history is unchanged', async (_name, summary, reason) => {
    const agent = await agentBeforeSummary(summary);
    const ends: AgentEvent[] = [];
    agent.on('compaction-end', (event) => ends.push(event));
    const before = JSON.stringify(agent.messages);
    const outcome = await agent.compact().catch((error: unknown) => error);
    expect(CompactionError.isInstance(outcome)).toBe(true);
    expect((outcome as Error).message).toMatch(reason);
    expect((outcome as Error).message).toContain('The history is unchanged.');
    expect(JSON.stringify(agent.messages)).toBe(before);
    expect(ends).toHaveLength(1);
    expect(ends[0]!.type === 'compaction-end' && ends[0]!.error).toBe(outcome);
  });

  it('a failed automatic compaction leaves the history as it was, reports a non-fatal error, and the run goes on', async () => {
    const model = scriptedModel([
      turn(toolCall('Read', { path: 'notes.md' })),
      // The reported usage puts the next request past the compaction threshold.
      turn('Noted.', { usage: { inputTokens: 9_500 } }),
      turn('<summary>\n## Goal\nWrite the report for Ma', { stopReason: 'max_tokens' }),
      'Friday it is.',
    ]);
    const agent = createAgent({ model, tools: [read], context: { window: 10_000, compaction: { outputReserve: 0, threshold: 0.5, keepTokens: 0 } } });
    await agent.run('Read notes.md').result;
    const before = agent.messages.length;
    const errors: AgentEvent[] = [];
    agent.on('error', (event) => errors.push(event));
    const result = await agent.run('When is the deadline?').result;
    expect(result.status).toBe('completed');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.type === 'error' && CompactionError.isInstance(errors[0]!.error) && errors[0]!.fatal).toBe(false);
    // The summary request was made, and the last turn still saw the whole history.
    expect(model.requests).toHaveLength(4);
    expect(model.requests[3]!.messages.length).toBe(before + 1);
    expect(agent.messages.length).toBe(before + 2);
    expect(agent.messages.at(-1)!.content).toEqual([{ type: 'text', text: 'Friday it is.' }]);
  });
});

describe('a whole summary followed by a tool call', () => {
  it('is kept: the closed <summary> is the handoff, the call is not run', async () => {
    let reads = 0;
    const counted = defineTool({ name: 'Read', description: 'Reads.', inputSchema: z.object({ path: z.string() }), readOnly: true, execute: () => (reads++, 'deadline is Friday') });
    const model = scriptedModel([turn(toolCall('Read', { path: 'notes.md' })), 'Noted.', turn('<summary>\n## Goal\nThe deadline is Friday.\n</summary>', toolCall('Read', { path: 'notes.md' }))]);
    const agent = createAgent({ model, tools: [counted] });
    await agent.run('Read notes.md').result;
    const result = await agent.compact();
    expect(result.compacted).toBe(true);
    expect(JSON.stringify(agent.messages)).toContain('The deadline is Friday.');
    expect(reads).toBe(1);
  });
});

describe('a reactive compaction with a broken summary', () => {
  it('ends the run with the CompactionError and leaves the history as it was', async () => {
    const tooLong = new ModelError('prompt is too long: 210000 tokens > 200000 maximum', { status: 400, errorType: 'invalid_request_error' });
    const model = scriptedModel([
      turn(toolCall('Read', { path: 'notes.md' })),
      'Noted.',
      turn('', { error: tooLong }),
      turn('I am unable to', { stopReason: 'refusal' }),
    ]);
    const agent = createAgent({ model, tools: [read], maxStreamRetries: 0 });
    await agent.run('Read notes.md').result;
    const before = JSON.stringify(agent.messages);
    const result = await agent.run('When is the deadline?').result;
    expect(CompactionError.isInstance(result.error)).toBe(true);
    expect(result.error!.message).toMatch(/refus/);
    // Only the new prompt was added; nothing was replaced by a summary.
    expect(JSON.stringify(agent.messages.slice(0, -1))).toBe(before);
  });
});
