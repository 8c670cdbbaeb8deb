import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { anthropicModel, createAgent, defineTool, ConfigurationError } from 'agent-harness';
import { scriptedModel, toolCall, turn, validateMessagesRequest } from 'agent-harness/testing';
import { startMessagesServer, type MessagesServer } from 'agent-harness/testing/messages-server';
import { collect } from '../helpers.js';

let server: MessagesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A tool that writes (asks in default mode) and records every run. */
function writes(log: string[]) {
  return defineTool({
    name: 'write',
    description: 'Writes.',
    inputSchema: z.object({ id: z.string() }),
    kind: 'edit',
    execute: ({ input }) => {
      log.push(input.id);
      return 'ok';
    },
  });
}

/** Results of the last user message of a request, as [tool_use_id, is_error]. */
function resultsOf(messages: ReadonlyArray<{ role: string; content: unknown }>): Array<{ tool_use_id: string; is_error?: boolean; content: unknown }> {
  return messages.at(-1)!.content as Array<{ tool_use_id: string; is_error?: boolean; content: unknown }>;
}

describe('tool calls per answer are bounded (maxToolCallsPerTurn)', () => {
  it('a thousand calls in one answer: only the first 64 are considered; the rest get an error result, none runs or is asked about', async () => {
    const log: string[] = [];
    const asked: string[] = [];
    const calls = Array.from({ length: 1000 }, (_, index) => toolCall('write', { id: String(index) }, `c${index}`));
    const model = scriptedModel([turn(...calls), 'done']);
    const agent = createAgent({
      model,
      tools: [writes(log)],
      canUseTool: (_name, input) => {
        asked.push((input as { id: string }).id);
        return { behavior: 'allow' };
      },
    });
    const { result } = await collect(agent.run('go'));
    expect(result.status).toBe('completed');
    expect(asked).toHaveLength(64);
    expect(log).toHaveLength(64);
    expect(log[63]).toBe('63');
    const second = model.requests[1]!;
    expect(validateMessagesRequest(second.messages)).toBeUndefined();
    const results = resultsOf(second.messages);
    expect(results).toHaveLength(1000);
    expect(results.slice(0, 64).every((block) => !block.is_error)).toBe(true);
    expect(results.slice(64).every((block) => block.is_error === true)).toBe(true);
    expect(JSON.stringify(results[64]!.content)).toContain('maxToolCallsPerTurn');
    expect(JSON.stringify(results[64]!.content)).toContain('Split your work');
    // The explanation once; the other refused calls get a short line pointing at it.
    expect(JSON.stringify(results[500]!.content)).toContain('maxToolCallsPerTurn');
    expect(JSON.stringify(results[500]!.content).length).toBeLessThan(160);
  });

  it('without canUseTool, calls past the bound get no approval card', async () => {
    const log: string[] = [];
    const model = scriptedModel([turn(...Array.from({ length: 5 }, (_, index) => toolCall('write', { id: String(index) }, `c${index}`))), 'done']);
    const agent = createAgent({ model, tools: [writes(log)], maxToolCallsPerTurn: 2 });
    const result = await agent.run('go').result;
    expect(result.status).toBe('awaiting-approval');
    expect(result.pendingApprovals.map((approval) => approval.toolUseId)).toEqual(['c0', 'c1']);
    expect(log).toEqual([]);
  });

  it('subagents inherit the bound: a subagent answer with many Agent or tool calls runs at most the bound', async () => {
    const log: string[] = [];
    const child = scriptedModel([turn(...Array.from({ length: 6 }, (_, index) => toolCall('write', { id: `s${index}` }, `s${index}`))), 'child done']);
    const parent = scriptedModel([
      turn(...Array.from({ length: 4 }, (_, index) => toolCall('Agent', { description: `job ${index}`, prompt: 'do it', subagent_type: 'worker' }, `a${index}`))),
      'parent done',
    ]);
    const agent = createAgent({
      model: parent,
      tools: [writes(log)],
      permissionMode: 'acceptEdits',
      maxToolCallsPerTurn: 3,
      agents: { worker: { description: 'Works.', prompt: 'Work.', model: child } },
    });
    const result = await agent.run('go').result;
    expect(result.status).toBe('completed');
    // Three Agent calls ran (the fourth was refused); the child's script answers the first only.
    expect(log).toEqual(['s0', 's1', 's2']);
    const results = resultsOf(parent.requests[1]!.messages);
    expect(results.map((block) => block.tool_use_id)).toEqual(['a0', 'a1', 'a2', 'a3']);
    expect(results[3]!.is_error).toBe(true);
    expect(JSON.stringify(results[3]!.content)).toContain('maxToolCallsPerTurn');
  });

  it('a bad bound is refused with a sentence naming the value', () => {
    expect(() => createAgent({ model: scriptedModel(['x']), maxToolCallsPerTurn: 0 })).toThrow(ConfigurationError);
    expect(() => createAgent({ model: scriptedModel(['x']), maxToolCallsPerTurn: 1.5 })).toThrow(/maxToolCallsPerTurn/);
  });

  it('through the real SDK: 200 calls in one streamed answer, the next request is valid and names the bound', async () => {
    const log: string[] = [];
    server = await startMessagesServer({
      responses: [
        {
          content: Array.from({ length: 200 }, (_, index) => ({ type: 'tool_use' as const, id: `toolu_${index}`, name: 'write', input: { id: String(index) } })),
          stopReason: 'tool_use',
        },
        { content: [{ type: 'text', text: 'ok' }] },
      ],
    });
    const agent = createAgent({
      model: anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test-key', baseURL: server.url, maxRetries: 0 }),
      tools: [writes(log)],
      permissionMode: 'acceptEdits',
      maxToolCallsPerTurn: 10,
    });
    const result = await agent.run('go').result;
    expect(result.status).toBe('completed');
    expect(log).toHaveLength(10);
    expect(server.errors).toEqual([]);
    const results = resultsOf(server.requests[1]!.messages);
    expect(results).toHaveLength(200);
    expect(results.filter((block) => block.is_error === true)).toHaveLength(190);
  });
});

describe('a cut-off answer is visible on the result (RunResult.stopReason)', () => {
  it.each(['max_tokens', 'refusal', 'model_context_window_exceeded'] as const)('a text answer stopped by %s ends completed with that stopReason', async (stopReason) => {
    const model = scriptedModel([turn('The article begins, and then', { stopReason })]);
    const result = await createAgent({ model }).run('Write it.').result;
    expect(result.status).toBe('completed');
    expect(result.stopReason).toBe(stopReason);
  });

  it('a finished answer says end_turn', async () => {
    const result = await createAgent({ model: scriptedModel(['done']) }).run('go').result;
    expect(result.stopReason).toBe('end_turn');
  });

  it('typed output: a cut-off answer whose JSON part validates is not taken; the model is asked again', async () => {
    const schema = z.object({ title: z.string() });
    const model = scriptedModel([turn('{"title": "Tide pools"} and now the sections: {"secti', { stopReason: 'max_tokens' }), '{"title": "Tide pools, complete"}']);
    const result = await createAgent({ model }).run('Outline it.', { outputSchema: schema, outputMode: 'text' }).result;
    expect(result.status).toBe('completed');
    expect(result.output).toEqual({ title: 'Tide pools, complete' });
    expect(result.outputAttempts).toBe(2);
    expect(JSON.stringify(model.requests[1]!.messages.at(-1))).toContain('cut off');
  });

  it('typed output: with no retries left, a cut-off answer ends the run with a StructuredOutputError naming the stop reason', async () => {
    const schema = z.object({ title: z.string() });
    const model = scriptedModel([turn('{"title": "Half"}', { stopReason: 'max_tokens' })]);
    const result = await createAgent({ model }).run('Outline it.', { outputSchema: schema, outputMode: 'text', outputRetries: 0 }).result;
    expect(result.status).toBe('error');
    expect(result.output).toBeUndefined();
    expect(result.error?.message).toContain('max_tokens');
    expect(result.stopReason).toBe('max_tokens');
  });

  it('a subagent whose report was cut off: the parent model is told so', async () => {
    const child = scriptedModel([turn('Findings: first, the', { stopReason: 'max_tokens' })]);
    const parent = scriptedModel([turn(toolCall('Agent', { description: 'research', prompt: 'look', subagent_type: 'worker' }, 'a0')), 'ok']);
    const agent = createAgent({ model: parent, agents: { worker: { description: 'Works.', prompt: 'Work.', model: child } } });
    const result = await agent.run('go').result;
    expect(result.status).toBe('completed');
    expect(result.subagents?.[0]?.stopReason).toBe('max_tokens');
    const results = resultsOf(parent.requests[1]!.messages);
    expect(JSON.stringify(results[0]!.content)).toContain('cut off');
  });

  it('through the real SDK: a streamed answer stopped by max_tokens', async () => {
    server = await startMessagesServer({ responses: [{ content: [{ type: 'text', text: 'Half an article' }], stopReason: 'max_tokens' }] });
    const agent = createAgent({ model: anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test-key', baseURL: server.url, maxRetries: 0 }) });
    const result = await agent.run('Write it.').result;
    expect(result.status).toBe('completed');
    expect(result.stopReason).toBe('max_tokens');
    expect(result.text).toBe('Half an article');
  });
});
