import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, ModelError, RunInProgressError, INCOMPLETE_TOOL_INPUT_KEY } from 'agent-harness';
import { scriptedModel, text, toolCall, turn } from 'agent-harness/testing';
import { collect, deferred, echoTool, tick } from '../helpers.js';
import { validateMessagesRequest } from 'agent-harness/testing';

const loopingScript = (count: number) => Array.from({ length: count }, (_, index) => turn(toolCall('echo', { text: String(index) })));

describe('stop conditions', () => {
  it('completes when the model ends its turn without tool calls', async () => {
    const model = scriptedModel(['Hello there.']);
    const agent = createAgent({ model });
    const { events, result } = await collect(agent.run('hi'));
    expect(result.status).toBe('completed');
    expect(result.text).toBe('Hello there.');
    expect(result.turns).toBe(1);
    expect(result.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello there.' }] },
    ]);
    expect(events.map((event) => event.type)).toEqual(['run-start', 'turn-start', 'text-delta', 'context-usage', 'turn-end', 'run-end']);
    model.assertAllUsed();
  });

  it('stops at maxTurns with every tool call answered', async () => {
    const model = scriptedModel(loopingScript(5));
    const agent = createAgent({ model, tools: [echoTool], maxTurns: 3 });
    const result = await agent.run('loop').result;
    expect(result.status).toBe('max-turns');
    expect(result.turns).toBe(3);
    expect(validateMessagesRequest([...agent.messages, { role: 'assistant', content: [text('x')] }])).toBeUndefined();
    expect(agent.messages.at(-1)!.role).toBe('user');
  });

  it('stops when the estimated cost reaches maxBudgetUsd, using the host price table', async () => {
    const model = scriptedModel(
      Array.from({ length: 5 }, (_, index) => turn(toolCall('echo', { text: String(index) }), { usage: { inputTokens: 1_000_000, outputTokens: 0 } })),
      { modelId: 'house-model-1' },
    );
    // No compaction: a million input tokens a turn would fill the window, and a summary call is a model call of the run too.
    const agent = createAgent({ model, tools: [echoTool], maxBudgetUsd: 2.5, prices: { 'house-model': { input: 1, output: 1 } }, context: { compaction: false } });
    const result = await agent.run('spend').result;
    expect(result.status).toBe('budget-exceeded');
    expect(result.turns).toBe(3);
    expect(result.costUsd).toBeCloseTo(3);
  });

  it('sums usage over turns, cache fields included', async () => {
    const model = scriptedModel([
      turn(toolCall('echo', { text: 'a' }), { usage: { inputTokens: 5, outputTokens: 7, cacheReadInputTokens: 11, cacheCreationInputTokens: 13 } }),
      turn('done', { usage: { inputTokens: 1, outputTokens: 2, cacheReadInputTokens: 3, cacheCreationInputTokens: 4 } }),
    ]);
    const agent = createAgent({ model, tools: [echoTool] });
    const result = await agent.run('go').result;
    expect(result.usage).toEqual({ inputTokens: 6, outputTokens: 9, cacheReadInputTokens: 14, cacheCreationInputTokens: 17 });
    expect(result.costUsd).toBeUndefined();
  });

  it('ends with status error and a typed error when the model fails', async () => {
    const model = scriptedModel([turn('partial', { error: new ModelError('bad request', { status: 400 }) })]);
    const agent = createAgent({ model });
    const { events, result } = await collect(agent.run('hi'));
    expect(result.status).toBe('error');
    expect(ModelError.isInstance(result.error)).toBe(true);
    expect(events.some((event) => event.type === 'error' && event.fatal)).toBe(true);
    expect(agent.messages).toHaveLength(1);
  });

  it('retries a turn after a retryable mid-stream failure without duplicating history', async () => {
    const overloaded = new ModelError('Overloaded', { errorType: 'overloaded_error', retryable: true });
    const model = scriptedModel([turn('first try', { error: overloaded }), 'second try']);
    const agent = createAgent({ model, streamRetryBackoff: false });
    const result = await agent.run('hi').result;
    expect(result.status).toBe('completed');
    expect(agent.messages).toHaveLength(2);
    expect(result.text).toBe('second try');
  });

  it('answers a tool call whose JSON was cut off by max_tokens with an error result and goes on', async () => {
    const model = scriptedModel([
      turn(toolCall('echo', { [INCOMPLETE_TOOL_INPUT_KEY]: '{"text": "abc' }, 'cut'), { stopReason: 'max_tokens' }),
      'retrying in smaller steps',
    ]);
    const agent = createAgent({ model, tools: [echoTool] });
    const result = await agent.run('go').result;
    expect(result.status).toBe('completed');
    const resultBlock = (model.requests[1]!.messages.at(-1)!.content as Array<{ type: string; content?: unknown; is_error?: boolean }>)[0]!;
    expect(resultBlock.is_error).toBe(true);
    expect(resultBlock.content).toMatch(/cut off .*max_tokens/);
  });

  it('continues after pause_turn without adding a user message', async () => {
    const model = scriptedModel([turn('working on it', { stopReason: 'pause_turn' }), 'finished']);
    const agent = createAgent({ model });
    const result = await agent.run('go').result;
    expect(result.status).toBe('completed');
    expect(result.turns).toBe(2);
    expect(model.requests[1]!.messages.at(-1)!.role).toBe('assistant');
  });

  it('keeps unknown content blocks in history unchanged', async () => {
    const serverBlock = { type: 'server_tool_use', id: 'srv_1', name: 'web_search', input: { query: 'tides' } };
    const resultBlock = { type: 'web_search_tool_result', tool_use_id: 'srv_1', content: [{ type: 'web_search_result', url: 'https://example.org' }] };
    const model = scriptedModel([turn(serverBlock as never, resultBlock as never, 'Found it.'), 'again']);
    const agent = createAgent({ model });
    await agent.run('search').result;
    expect(agent.messages[1]!.content).toEqual([serverBlock, resultBlock, { type: 'text', text: 'Found it.' }]);
    await agent.run('more').result;
    expect(model.requests[1]!.messages[1]!.content).toEqual([serverBlock, resultBlock, { type: 'text', text: 'Found it.' }]);
  });

  it('refuses a second run while one is active', async () => {
    const gate = deferred();
    const model = scriptedModel([turn('slow', { hold: () => gate.promise }), 'next']);
    const agent = createAgent({ model });
    const first = agent.run('one');
    expect(() => agent.run('two')).toThrow(RunInProgressError);
    gate.resolve();
    expect((await first.result).status).toBe('completed');
    expect((await agent.run('two').result).status).toBe('completed');
  });

  it('delivers the same events to listeners as to the iterator', async () => {
    const model = scriptedModel([turn('Reading.', toolCall('echo', { text: 'x' })), 'Done.']);
    const agent = createAgent({ model, tools: [echoTool] });
    const heard: string[] = [];
    for (const type of ['run-start', 'turn-start', 'text-delta', 'tool-call', 'tool-result', 'context-usage', 'turn-end', 'run-end', 'permission-decision'] as const) {
      agent.on(type, (event) => heard.push(event.type));
    }
    const { events } = await collect(agent.run('go'));
    expect(heard).toEqual(events.map((event) => event.type));
  });

  it('keeps running when a listener throws', async () => {
    const agent = createAgent({ model: scriptedModel(['fine']) });
    agent.on('text-delta', () => {
      throw new Error('listener bug');
    });
    const { events, result } = await collect(agent.run('go'));
    expect(result.status).toBe('completed');
    expect(events.some((event) => event.type === 'error' && /listener bug/.test(event.error.message))).toBe(true);
  });
});

describe('interrupt', () => {
  it('during a stream: ends interrupted and leaves a valid history', async () => {
    const model = scriptedModel([turn('long answer', { hold: (signal) => new Promise((resolve) => signal?.addEventListener('abort', () => resolve())) }), 'after']);
    const agent = createAgent({ model });
    const run = agent.run('hi');
    while (model.requests.length === 0) await tick();
    agent.interrupt();
    const result = await run.result;
    expect(result.status).toBe('interrupted');
    expect((await agent.run('again').result).status).toBe('completed');
    expect(validateMessagesRequest(model.requests[1]!.messages)).toBeUndefined();
  });

  it('during a tool call: every issued call gets an is_error result saying it was interrupted', async () => {
    let started = false;
    const hang = defineTool({
      name: 'hang',
      description: 'Hangs.',
      inputSchema: z.object({}),
      readOnly: true,
      execute: () => {
        started = true;
        return new Promise(() => undefined);
      },
    });
    const model = scriptedModel([turn(toolCall('hang', {}, 'h1'), toolCall('echo', { text: 'x' }, 'e1')), 'after']);
    const controller = new AbortController();
    const agent = createAgent({ model, tools: [hang, echoTool] });
    const run = agent.run('go', { signal: controller.signal });
    while (!started) await tick();
    controller.abort();
    const result = await run.result;
    expect(result.status).toBe('interrupted');
    const last = agent.messages.at(-1)!;
    expect(last.role).toBe('user');
    const blocks = last.content as Array<{ tool_use_id: string; is_error?: boolean; content: string }>;
    expect(blocks.map((block) => block.tool_use_id)).toEqual(['h1', 'e1']);
    expect(blocks[0]!.is_error).toBe(true);
    expect(blocks[0]!.content).toMatch(/interrupted/);
    expect((await agent.run('again').result).status).toBe('completed');
    expect(validateMessagesRequest(model.requests[1]!.messages)).toBeUndefined();
  });
});

describe('maxBudgetUsd with subagents', () => {
  // $1.50 per parent turn at the default Sonnet price ($15 per million output tokens).
  const costly = { usage: { inputTokens: 10, outputTokens: 100_000 } };
  const parentScript = () =>
    scriptedModel(
      [turn(toolCall('Agent', { description: 'd', prompt: 'p', subagent_type: 'helper' }), costly), ...Array.from({ length: 6 }, (_, index) => turn(toolCall('echo', { text: String(index) }), costly)), 'done'],
      { modelId: 'claude-sonnet-4-6' },
    );

  it('createAgent refuses a budget when a subagent type’s model has no price, naming the type', () => {
    expect(() =>
      createAgent({
        model: parentScript(),
        tools: [echoTool],
        maxBudgetUsd: 1,
        agents: { helper: { description: 'Helps.', prompt: 'You help.', model: scriptedModel(['sub done'], { modelId: 'my-local-model' }) } },
      }),
    ).toThrow(/maxBudgetUsd needs a price for model "my-local-model" \(agents\.helper\.model\)/);
    expect(() => createAgent({ model: parentScript(), maxBudgetUsd: 1, verifyPlanOnCompletion: { model: scriptedModel([], { modelId: 'my-verifier' }) } })).toThrow(
      /"my-verifier" \(verifyPlanOnCompletion\.model\)/,
    );
  });

  it('a priced subagent counts, and the parent still stops at its budget', async () => {
    const agent = createAgent({
      model: parentScript(),
      tools: [echoTool],
      maxBudgetUsd: 1,
      prices: { 'my-local-model': { input: 0, output: 0 } },
      agents: { helper: { description: 'Helps.', prompt: 'You help.', model: scriptedModel(['sub done'], { modelId: 'my-local-model' }) } },
    });
    const result = await agent.run('go').result;
    expect(result.status).toBe('budget-exceeded');
    expect(result.turns).toBe(1);
  });
});
