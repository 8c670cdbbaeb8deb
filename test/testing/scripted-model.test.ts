import { describe, expect, it } from 'vitest';
import { createAgent, ScriptMismatchError, type AgentEvent } from 'agent-harness';
import { scriptedModel, thinking, toolCall, turn } from 'agent-harness/testing';
import { collect, echoTool } from '../helpers.js';

describe('scriptedModel', () => {
  it('streams text and thinking in chunks, as events, and records every request', async () => {
    const model = scriptedModel([turn(thinking('Let me think about this carefully.'), 'A reply long enough to be split.')], { chunkSize: 8 });
    const agent = createAgent({ model, system: 'sys' });
    const { events } = await collect(agent.run('hi'));
    const deltas = (type: AgentEvent['type']) => events.filter((event) => event.type === type);
    expect(deltas('thinking-delta').map((event) => (event as { thinking: string }).thinking).join('')).toBe('Let me think about this carefully.');
    expect(deltas('thinking-delta').length).toBeGreaterThan(1);
    expect(deltas('text-delta').map((event) => (event as { text: string }).text).join('')).toBe('A reply long enough to be split.');
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]!.request.system).toEqual([{ type: 'text', text: 'sys' }]);
    expect(model.requests[0]!.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]);
    expect(agent.messages[1]!.content[0]).toEqual({ type: 'thinking', thinking: 'Let me think about this carefully.', signature: 'scripted-signature' });
  });

  it('fails loudly when the run asks for a turn the script does not have', async () => {
    const model = scriptedModel([turn(toolCall('echo', { text: 'x' }))]);
    const result = await createAgent({ model, tools: [echoTool] }).run('go').result;
    expect(result.status).toBe('error');
    expect(ScriptMismatchError.isInstance(result.error)).toBe(true);
    expect(result.error!.message).toMatch(/asked for turn 2, but the script has only 1 turn\(s\).*last message was: user message with tool_result/);
  });

  it('says which turns were left unused', async () => {
    const model = scriptedModel(['one', 'two', 'three']);
    await createAgent({ model }).run('go').result;
    expect(model.remaining).toBe(2);
    expect(() => model.assertAllUsed()).toThrow(/2 scripted turn\(s\) unused \(turns 2-3 of 3\)/);
  });

  it('plays turns computed from the request, and accepts more turns later', async () => {
    const model = scriptedModel([(request) => turn(`You said ${request.messages.length} message(s).`)]);
    const agent = createAgent({ model });
    expect((await agent.run('go').result).text).toBe('You said 1 message(s).');
    model.push('pushed later');
    expect((await agent.run('again').result).text).toBe('pushed later');
    model.assertAllUsed();
  });
});
