import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError, createAgent, defineTool, StructuredOutputError } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

/**
 * README "Structured output": a model without native structured outputs answers by calling the
 * StructuredOutput tool "once, on its own"; an invalid answer is sent back with what was wrong
 * (`outputRetries`, default 1), then the run ends with StructuredOutputError. A model that
 * misbehaves: several StructuredOutput calls in one answer, or one beside another tool call.
 */
const Answer = z.object({ n: z.number() });

function counter() {
  const ran: string[] = [];
  const side = defineTool({ name: 'side', description: 'Has a side effect.', inputSchema: z.object({}), execute: ({ toolUseId }) => (ran.push(toolUseId), 'ok') });
  return { ran, side };
}

/** The tool results the model was sent back for `answer` (the message after it in the second request). */
function resultsAfterFirstAnswer(model: ReturnType<typeof scriptedModel>) {
  const messages = model.requests[1]!.messages;
  const results = messages[2]!;
  expect(results.role).toBe('user');
  return (results.content as Array<{ type: string; tool_use_id?: string; content?: unknown; is_error?: boolean }>).filter((block) => block.type === 'tool_result');
}

describe('StructuredOutput answers from a model that misbehaves', () => {
  it('two StructuredOutput calls in one answer: neither is taken, and both are told to call it once, on its own (not that the tool does not exist)', async () => {
    const { side } = counter();
    const model = scriptedModel([turn(toolCall('StructuredOutput', { n: 4 }, 'toolu_a'), toolCall('StructuredOutput', { n: 5 }, 'toolu_b')), turn(toolCall('StructuredOutput', { n: 6 }, 'toolu_c'))]);
    const result = await createAgent({ model, tools: [side] }).run('go', { outputSchema: Answer }).result;
    expect(result).toMatchObject({ status: 'completed', output: { n: 6 } });
    const results = resultsAfterFirstAnswer(model);
    expect(results.map((block) => [block.tool_use_id, block.is_error])).toEqual([
      ['toolu_a', true],
      ['toolu_b', true],
    ]);
    for (const block of results) {
      expect(block.content).toMatch(/Call StructuredOutput on its own/);
      expect(block.content).not.toMatch(/No tool named/);
    }
    model.assertAllUsed();
  });

  it('two StructuredOutput calls with no retries left: the run ends with StructuredOutputError, and neither call is said not to exist', async () => {
    const model = scriptedModel([turn(toolCall('StructuredOutput', { n: 4 }, 'toolu_a'), toolCall('StructuredOutput', { n: 5 }, 'toolu_b'))]);
    const agent = createAgent({ model });
    const result = await agent.run('go', { outputSchema: Answer, outputRetries: 0 }).result;
    expect(result.status).toBe('error');
    expect(StructuredOutputError.isInstance(result.error)).toBe(true);
    const history = JSON.stringify(agent.messages);
    expect(history).toMatch(/toolu_b/);
    expect(history).not.toMatch(/No tool named/);
  });

  it('StructuredOutput beside another tool call: the other call runs once, the answer is not taken, and the model is asked again', async () => {
    const { ran, side } = counter();
    const model = scriptedModel([turn(toolCall('side', {}, 'toolu_side'), toolCall('StructuredOutput', { n: 1 }, 'toolu_a')), turn(toolCall('StructuredOutput', { n: 2 }, 'toolu_b'))]);
    const result = await createAgent({ model, tools: [side], canUseTool: () => ({ behavior: 'allow' }) }).run('go', { outputSchema: Answer }).result;
    expect(result).toMatchObject({ status: 'completed', output: { n: 2 } });
    expect(ran).toEqual(['toolu_side']);
    const results = resultsAfterFirstAnswer(model);
    expect(results.map((block) => [block.tool_use_id, block.is_error ?? false])).toEqual([
      ['toolu_side', false],
      ['toolu_a', true],
    ]);
  });

  it('an invalid answer twice with the default outputRetries (1): StructuredOutputError after two answers, the third turn never asked for', async () => {
    const model = scriptedModel([turn(toolCall('StructuredOutput', { n: 'x' })), turn(toolCall('StructuredOutput', { n: 'y' })), turn(toolCall('StructuredOutput', { n: 3 }))]);
    const result = await createAgent({ model }).run('go', { outputSchema: Answer }).result;
    expect(result.status).toBe('error');
    expect(StructuredOutputError.isInstance(result.error)).toBe(true);
    expect(result.error!.message).toMatch(/after 2 answer\(s\)/);
    expect(result.error!.message).toMatch(/"y"/);
    expect(model.requests).toHaveLength(2);
    // The invalid answer was sent back with what was wrong.
    expect(JSON.stringify(model.requests[1]!.messages.at(-1))).toMatch(/expected number/);
  });

  it('a refusal ends the run at once with a StructuredOutputError whose refused is true; no second request', async () => {
    const model = scriptedModel([turn('I will not.', { stopReason: 'refusal' }), '{"n":1}']);
    const result = await createAgent({ model }).run('go', { outputSchema: Answer }).result;
    expect(result.status).toBe('error');
    expect(StructuredOutputError.isInstance(result.error)).toBe(true);
    expect((result.error as StructuredOutputError).refused).toBe(true);
    expect(model.requests).toHaveLength(1);
  });

  it('a schema that is not an object is answered as { output }: an answer without `output` is invalid, not taken as an undefined output', async () => {
    for (const schema of [{}, z.unknown(), z.string()]) {
      const model = scriptedModel([turn(toolCall('StructuredOutput', { a: 1 }, 'toolu_a')), turn(toolCall('StructuredOutput', { output: 'the answer' }, 'toolu_b'))]);
      const result = await createAgent({ model }).run('go', { outputSchema: schema as never }).result;
      expect(result).toMatchObject({ status: 'completed', output: 'the answer' });
      expect(model.requests).toHaveLength(2);
      expect(JSON.stringify(model.requests[1]!.messages.at(-1))).toMatch(/output/);
    }
  });

  it('a JSON Schema that cannot be compiled is refused when it is passed, naming outputSchema; the model is never called', () => {
    for (const schema of [{ type: 'objekt' }, { $ref: '#/definitions/missing' }]) {
      const model = scriptedModel(['{}']);
      const agent = createAgent({ model });
      expect(() => agent.run('go', { outputSchema: schema })).toThrow(ConfigurationError);
      expect(() => agent.run('go', { outputSchema: schema })).toThrow(/`outputSchema` cannot be used for validation/);
      expect(model.requests).toHaveLength(0);
    }
  });
});

