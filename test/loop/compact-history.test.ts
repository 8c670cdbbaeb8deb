import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CLEARED_TOOL_RESULT_PREFIX, createAgent, defineTool, ModelError, type ModelRequest, type ToolResultBlock } from 'agent-harness';
import { scriptedModel, toolCall, turn, validateMessagesRequest } from 'agent-harness/testing';
import { answersConstraints as answering, CONSTRAINTS_ANSWER as ANSWER, constraintsQuestion as question } from '../helpers.js';

// When the summary request is itself too long, compaction asks again with the old tool results
// of the summarized part cleared. The user's answers to AskUserQuestion are the user's words, not
// output a call gets again: that fallback keeps them, as the clearing before a turn does.

const tooLong = () => new ModelError('prompt is too long: 210000 tokens > 200000 maximum', { status: 400, errorType: 'invalid_request_error' });
const SUMMARY = '<summary>\n## Goal\nWrite the article.\n</summary>';

/** The tool results a request sends, by call id. */
function resultsOf(request: ModelRequest): Map<string, string> {
  const results = new Map<string, string>();
  for (const message of request.messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) {
      if (block.type !== 'tool_result') continue;
      const result = block as ToolResultBlock;
      results.set(result.tool_use_id, typeof result.content === 'string' ? result.content : result.content.map((inner) => (inner.type === 'text' ? inner.text : '')).join('\n'));
    }
  }
  return results;
}

describe('a summary request too long for the model', () => {
  it('is asked again with old tool results cleared, but never the user’s answers to AskUserQuestion', async () => {
    const dump = defineTool({ name: 'Dump', description: 'Dumps.', inputSchema: z.object({}), readOnly: true, execute: () => 'y'.repeat(4_000) });
    const model = scriptedModel([
      turn(toolCall('AskUserQuestion', { questions: [question] }, 'ask_1')),
      turn(toolCall('Dump', {}, 'dump_1')),
      'Outline ready.',
      turn('', { error: tooLong() }),
      turn(SUMMARY),
    ]);
    const agent = createAgent({ model, tools: [dump], askUserQuestion: true, canUseTool: answering, maxStreamRetries: 0, context: { compaction: { keepTokens: 0 } } });
    expect((await agent.run('Plan the article.').result).status).toBe('completed');
    const result = await agent.compact();
    expect(result.compacted).toBe(true);
    const retried = resultsOf(model.requests.at(-1)!.request);
    // The fallback did clear: the dump is a stub now.
    expect(retried.get('dump_1')!.startsWith(CLEARED_TOOL_RESULT_PREFIX)).toBe(true);
    expect(retried.get('ask_1')).toContain(ANSWER);
    expect(retried.get('ask_1')).not.toContain(CLEARED_TOOL_RESULT_PREFIX);
  });

  it('keeps the results of the host’s clearing.excludeTools too', async () => {
    const notes = defineTool({ name: 'Notes', description: 'Notes.', inputSchema: z.object({}), readOnly: true, execute: () => `NOTES-9 ${'n'.repeat(3_000)}` });
    const model = scriptedModel([turn(toolCall('Notes', {}, 'notes_1')), 'Read.', turn('', { error: tooLong() }), turn(SUMMARY)]);
    const agent = createAgent({ model, tools: [notes], maxStreamRetries: 0, context: { clearing: { excludeTools: ['Notes'] }, compaction: { keepTokens: 0 } } });
    await agent.run('Read the notes.').result;
    expect((await agent.compact()).compacted).toBe(true);
    expect(resultsOf(model.requests.at(-1)!.request).get('notes_1')).toMatch(/^NOTES-9 n{3000}$/);
  });

  it('asked a third time with only the later half, keeps the start of the session (the task statement) and a well-formed history', async () => {
    const TASK = 'TASK-1: write an article about owls, 800 words, for children.';
    const dump = defineTool({ name: 'Dump', description: 'Dumps.', inputSchema: z.object({}), readOnly: true, execute: () => 'y'.repeat(2_000) });
    const model = scriptedModel([
      turn(toolCall('Dump', {}, 'dump_1')),
      'Outline ready.',
      ...[2, 3, 4, 5].flatMap((run) => [turn(toolCall('Dump', {}, `dump_${run}`)), `Part ${run} written.`]),
      turn('', { error: tooLong() }),
      turn('', { error: tooLong() }),
      turn(SUMMARY),
    ]);
    const agent = createAgent({ model, tools: [dump], maxStreamRetries: 0, context: { compaction: { keepTokens: 0 } } });
    expect((await agent.run(TASK).result).status).toBe('completed');
    for (const run of [2, 3, 4, 5]) expect((await agent.run(`Write part ${run}.`).result).status).toBe('completed');
    expect((await agent.compact()).compacted).toBe(true);
    const third = model.requests.at(-1)!.request;
    expect(JSON.stringify(third.messages)).toContain('its middle is left out');
    // Shorter, but still from the start: the task statement is there, exactly.
    expect(third.messages.length).toBeLessThan(model.requests.at(-3)!.request.messages.length);
    expect(JSON.stringify(third.messages[0])).toContain(JSON.stringify(TASK).slice(1, -1));
    expect(validateMessagesRequest(third.messages)).toBeUndefined();
  });
});
