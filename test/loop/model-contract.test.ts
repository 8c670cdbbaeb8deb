import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, ModelError, type Model, type ModelStreamEvent, type ToolResultBlock } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

// A custom Model that breaks its contract ends the run with a ModelError that says how, never
// with a raw TypeError or a silently replaced answer.
const usage = { inputTokens: 1, outputTokens: 1, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };
const answer = { message: { role: 'assistant' as const, content: [{ type: 'text' as const, text: 'Hi.' }] }, stopReason: 'end_turn' as const, usage };

function customModel(events: unknown[]): Model {
  return {
    specificationVersion: 'v1',
    provider: 'custom',
    modelId: 'custom-1',
    async *stream() {
      for (const event of events) yield event as ModelStreamEvent;
    },
  };
}

describe('a custom model that breaks the Model contract', () => {
  it.each([
    ['a second response', [{ type: 'response', response: answer }, { type: 'response', response: { ...answer, message: { role: 'assistant', content: [{ type: 'text', text: 'Other.' }] } } }], /yielded a "response" event after its response/],
    ['a delta after the response', [{ type: 'response', response: answer }, { type: 'text-delta', index: 0, text: 'late' }], /"text-delta" event after its response/],
    ['a null message', [{ type: 'response', response: { ...answer, message: null } }], /message is not an assistant message/],
    ['content that is not an array', [{ type: 'response', response: { ...answer, message: { role: 'assistant', content: 'Hi.' } } }], /message\.content is not an array/],
    ['no usage', [{ type: 'response', response: { ...answer, usage: undefined } }], /usage is missing/],
    ['NaN tokens', [{ type: 'response', response: { ...answer, usage: { ...usage, outputTokens: Number.NaN } } }], /usage\.outputTokens is not a count of tokens/],
    ['negative tokens', [{ type: 'response', response: { ...answer, usage: { ...usage, inputTokens: -5 } } }], /usage\.inputTokens/],
    ['stopDetails that is not an object', [{ type: 'response', response: { ...answer, stopReason: 'refusal', stopDetails: 'cyber' } }], /stopDetails is not/],
    ['stopDetails with an object explanation', [{ type: 'response', response: { ...answer, stopReason: 'refusal', stopDetails: { type: 'refusal', category: null, explanation: { text: 'x' } } } }], /stopDetails\.explanation/],
  ])('%s: the run ends with a ModelError naming the problem', async (_name, events, message) => {
    const agent = createAgent({ model: customModel(events), maxStreamRetries: 0 });
    const result = await agent.run('Hello.').result;
    expect(result.status).toBe('error');
    expect(ModelError.isInstance(result.error)).toBe(true);
    expect(result.error?.message).toMatch(message);
    expect(agent.messages.filter((entry) => entry.role === 'assistant')).toEqual([]);
  });

  it('a model that keeps its contract still answers', async () => {
    const result = await createAgent({ model: customModel([{ type: 'text-delta', index: 0, text: 'Hi.' }, { type: 'response', response: answer }]) }).run('Hello.').result;
    expect(result.status).toBe('completed');
    expect(result.text).toBe('Hi.');
  });
});

describe('an interrupt before a call starts', () => {
  it('tells the model the call did not run (not that it may have had partial effects)', async () => {
    let agentRef: ReturnType<typeof createAgent> | undefined;
    const stopper = defineTool({ name: 'stopper', description: 'Interrupts.', inputSchema: z.object({}), execute: () => (agentRef!.interrupt(), 'stopped') });
    const later = defineTool({ name: 'later', description: 'Runs later.', inputSchema: z.object({}), execute: () => 'ran' });
    const model = scriptedModel([turn(toolCall('stopper', {}, 'call_1'), toolCall('later', {}, 'call_2')), 'Done.']);
    const agent = createAgent({ model, tools: [stopper, later], permissionMode: 'bypassPermissions', allowDangerouslySkipPermissions: true });
    agentRef = agent;
    const result = await agent.run('Go.').result;
    expect(result.status).toBe('interrupted');
    const results = agent.messages.flatMap((message) => (Array.isArray(message.content) ? message.content : [])).filter((block): block is ToolResultBlock => block.type === 'tool_result');
    const second = results.find((block) => block.tool_use_id === 'call_2')!;
    expect(String(second.content)).toMatch(/before this tool call started; it did not run/);
    expect(String(second.content)).not.toMatch(/partial effects/);
  });
});
