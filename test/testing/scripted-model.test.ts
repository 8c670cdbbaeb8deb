import { describe, expect, it } from 'vitest';
import { ConfigurationError, createAgent, ScriptMismatchError, type AgentEvent } from 'agent-harness';
import { scriptedModel, text, thinking, toolCall, turn, type ScriptItem } from 'agent-harness/testing';
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

  it('plays a hostile model whose tool input JSON cannot write (nested 10,000 levels, a cycle, a BigInt): nothing streams of it, and the loop refuses the call', async () => {
    let deep: Record<string, unknown> = {};
    const nested = deep;
    for (let level = 0; level < 10_000; level++) deep = (deep.a = {}) as Record<string, unknown>;
    const cyclic: Record<string, unknown> = { text: 'x' };
    cyclic.self = cyclic;
    for (const input of [nested, cyclic, { text: 'x', n: 10n }]) {
      const streamed: unknown[] = [];
      const model = scriptedModel([turn('Calling.', toolCall('echo', input)), 'Done.']);
      const played = model.stream.bind(model);
      model.stream = async function* (request) {
        for await (const event of played(request)) {
          if (event.type === 'tool-input-delta') streamed.push(event.partialJson);
          yield event;
        }
      };
      const agent = createAgent({ model, tools: [echoTool] });
      const { events, result } = await collect(agent.run('Go.'));
      expect(result.status).toBe('completed');
      expect(streamed).toEqual(['']);
      const answer = events.find((event) => event.type === 'tool-result') as { isError: boolean; content: unknown } | undefined;
      expect(answer?.isError).toBe(true);
      expect(JSON.stringify(answer?.content)).toMatch(/was not run/);
    }
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

  it('refuses blocks given as script items, naming the item and the fix, when the script is given', () => {
    const thrown = (() => {
      try {
        scriptedModel([toolCall('x', {}), text('Done.')] as unknown as ScriptItem[]);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(ConfigurationError.isInstance(thrown)).toBe(true);
    expect((thrown as Error).message).toMatch(/script item 0 is a tool_use block.*wrap blocks in turn\(\.\.\.\) or an array/);
  });

  it('refuses other things that are no script item: null, a number, an object that is not a turn, an array holding one', () => {
    const bad: Array<[unknown, RegExp]> = [
      [null, /item 1 is null/],
      [42, /item 1 is a number/],
      [{ content: 'hi' }, /item 1 is an object that is not a turn/],
      [['fine', 7], /item 1 is an array whose element 1 is a number/],
    ];
    for (const [item, message] of bad) {
      expect(() => scriptedModel(['ok', item] as ScriptItem[])).toThrow(message);
    }
    expect(() => scriptedModel('hello' as unknown as ScriptItem[])).toThrow(/takes an array of script items/);
  });

  it('checks pushed items too, numbering them in the whole script', () => {
    const model = scriptedModel(['one']);
    expect(() => model.push('two', text('three') as unknown as ScriptItem)).toThrow(/script item 2 is a text block.*wrap blocks in turn/);
    // Nothing of a refused push is added.
    expect(model.remaining).toBe(1);
  });

  it('refuses a turn factory that returns something other than a turn, naming the item', async () => {
    const model = scriptedModel([() => text('oops') as never]);
    const result = await createAgent({ model }).run('go').result;
    expect(result.status).toBe('error');
    expect(result.error!.message).toMatch(/script item 0 is a function that returned a text block.*return turn\(\.\.\.\)/);
  });

  it('its builders refuse a wrong argument with a ConfigurationError naming it and an example, not a TypeError or a nameless call', () => {
    const refuse = (build: () => unknown, message: RegExp) => {
      let thrown: unknown;
      try {
        build();
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ConfigurationError);
      expect((thrown as Error).message).toMatch(message);
    };
    // `'type' in 5` threw a bare TypeError; a null part, "Cannot use 'in' operator" too.
    refuse(() => turn(5 as never), /turn\(\) takes blocks, strings and turn options, got a number; e\.g\. turn\('Let me check\.'/);
    refuse(() => turn('Hi.', null as never), /turn\(\) takes blocks, strings and turn options, got null/);
    // A call without a name reached the loop as a tool_use named undefined.
    refuse(() => (toolCall as (...args: unknown[]) => unknown)(), /toolCall\(\) takes the tool's name first, got undefined; e\.g\. toolCall\('Read'/);
    refuse(() => toolCall({ name: 'Read' } as never), /toolCall\(\) takes the tool's name first, got \{"name":"Read"\}/);
    refuse(() => text(42 as never), /text\(\) takes the block's text as a string, got 42/);
    // The input is the model's to get wrong: a hostile script may send any.
    expect(toolCall('Read', 'not an object').input).toBe('not an object');
  });
});

