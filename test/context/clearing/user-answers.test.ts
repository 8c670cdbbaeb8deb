import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type ToolResultBlock } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { answersConstraints as answering, constraintsQuestion as question } from '../../helpers.js';

// Clearing replaces old tool results by a stub that says "make the call again". The answer to a
// question for the user (AskUserQuestion) is the user's own words, not something a call gets
// again: clearing never stubs it (the model would lose the answers, or ask the user again).

describe('clearing stale tool results', () => {
  it('never stubs the user’s answers to AskUserQuestion', async () => {
    const dump = defineTool({ name: 'Dump', description: 'Dumps.', inputSchema: z.object({}), readOnly: true, execute: () => 'y'.repeat(4_000) });
    const model = scriptedModel([
      turn(toolCall('AskUserQuestion', { questions: [question] }, 'ask_1')),
      turn(toolCall('Dump', {}, 'dump_1')),
      ...Array.from({ length: 5 }, (_, index) => turn(toolCall('Dump', {}, `dump_${index + 2}`))),
      'Done.',
    ]);
    const agent = createAgent({
      model,
      tools: [dump],
      askUserQuestion: true,
      canUseTool: answering,
      context: { window: 10_000, compaction: false, clearing: { triggerFraction: 0.01, keepRecentTurns: 1, minimumResultChars: 100 } },
    });
    const cleared: string[] = [];
    agent.on('tool-results-cleared', (event) => cleared.push(...event.cleared.map((entry) => entry.toolUseId)));
    const result = await agent.run('Plan the article.').result;
    expect(result.status).toBe('completed');
    expect(cleared).toContain('dump_1');
    expect(cleared).not.toContain('ask_1');
    const answer = agent.messages
      .flatMap((message) => (Array.isArray(message.content) ? message.content : []))
      .find((block) => block.type === 'tool_result' && (block as ToolResultBlock).tool_use_id === 'ask_1') as ToolResultBlock;
    expect(String(answer.content)).toContain('ANSWER-17');
  });
});
