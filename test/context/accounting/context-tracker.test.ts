import { describe, expect, it } from 'vitest';
import { createContextTracker, DEFAULT_CONTEXT_WINDOW, observeResumedUsage } from '../../../src/context/accounting/context-tracker.js';
import { contextWindowFor } from '../../../src/context/accounting/context-windows.js';
import { estimateMessageTokens, estimatePrefixTokens, estimateTextTokens, IMAGE_TOKEN_ESTIMATE } from '../../../src/context/accounting/estimate-tokens.js';
import { z } from 'zod';
import { createAgent, defineTool } from 'agent-harness';
import { scriptedModel } from 'agent-harness/testing';
import type { AssistantMessage, Message, TextBlock } from '../../../src/model/messages.js';
import type { ToolDefinition } from '../../../src/model/model.js';

const system: TextBlock[] = [{ type: 'text', text: 'You are careful.' }];
const tools: ToolDefinition[] = [{ name: 'Read', description: 'Reads.', input_schema: { type: 'object' } }];
const user = (text: string): Message => ({ role: 'user', content: text });
const assistant = (text: string): AssistantMessage => ({ role: 'assistant', content: [{ type: 'text', text }] });
const usage = (input: number, output = 10) => ({ inputTokens: input, outputTokens: output, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 });

describe('estimates', () => {
  it('counts ASCII at a quarter token a character and other text denser', () => {
    expect(estimateTextTokens('abcd'.repeat(100))).toBe(100);
    expect(estimateTextTokens('日本語のテキスト')).toBe(8);
    expect(estimateTextTokens('')).toBe(0);
  });

  it('counts images at a fixed figure and tool calls by their JSON input', () => {
    const image: Message = { role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'A'.repeat(100_000) } }] };
    expect(estimateMessageTokens(image)).toBeLessThan(IMAGE_TOKEN_ESTIMATE + 20);
    const call: Message = { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'Read', input: { path: 'x'.repeat(400) } }] };
    expect(estimateMessageTokens(call)).toBeGreaterThan(100);
  });

  it('never throws on a value JSON cannot carry', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => estimateMessageTokens({ role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'X', input: cyclic }] })).not.toThrow();
  });
});

describe('context windows', () => {
  it('finds the window by the longest prefix, with a Claude fallback, host entries winning', () => {
    expect(contextWindowFor('claude-sonnet-4-6')).toBe(200_000);
    expect(contextWindowFor('us.anthropic.claude-opus-4-1-20250805-v1:0')).toBe(200_000);
    expect(contextWindowFor('claude-future-9')).toBe(200_000);
    expect(contextWindowFor('gpt-5')).toBeUndefined();
    expect(contextWindowFor('claude-sonnet-4-5-20250929', { windows: { 'claude-sonnet-4-5': 1_000_000 } })).toBe(1_000_000);
    expect(contextWindowFor('my-model', { windows: { 'my-': 32_000 } })).toBe(32_000);
  });
});

describe('createContextTracker', () => {
  it('gives a meter shape, with the table window or the default', () => {
    expect(createContextTracker({ modelId: 'claude-haiku-4-5' }).window).toBe(200_000);
    expect(createContextTracker({ modelId: 'scripted' }).window).toBe(DEFAULT_CONTEXT_WINDOW);
    expect(createContextTracker({ window: 1000 }).window).toBe(1000);
    const tracker = createContextTracker({ window: 1000 });
    const usageNow = tracker.measure({ system, tools, messages: [user('x'.repeat(400))] });
    expect(usageNow.source).toBe('estimate');
    expect(usageNow.fraction).toBeCloseTo(usageNow.tokens / 1000);
  });

  it('estimates each message once, however many turns measure it', () => {
    let calls = 0;
    const tracker = createContextTracker({ estimateMessage: (message) => (calls++, estimateMessageTokens(message)) });
    const messages: Message[] = [];
    for (let turn = 0; turn < 200; turn++) {
      messages.push(turn % 2 === 0 ? user(`question ${turn}`) : assistant(`answer ${turn}`));
      tracker.measure({ system, tools, messages });
    }
    expect(calls).toBe(200);
    // A new array with the same message objects (a copy, or a rewritten history) re-sums without re-estimating.
    tracker.measure({ system, tools, messages: [...messages] });
    expect(calls).toBe(200);
  });

  it('notices a replaced last message (merged user content) and counts the new one', () => {
    const tracker = createContextTracker();
    const messages: Message[] = [user('short')];
    const before = tracker.measure({ system, tools, messages }).tokens;
    messages[0] = { role: 'user', content: [{ type: 'text', text: 'short' }, { type: 'text', text: 'y'.repeat(4000) }] };
    expect(tracker.measure({ system, tools, messages }).tokens).toBeGreaterThan(before + 900);
  });

  it('anchors on reported usage: the next request is the report plus the scaled estimate of what was appended', () => {
    const tracker = createContextTracker({ window: 100_000 });
    const messages: Message[] = [user('x'.repeat(4000))];
    const raw = tracker.measure({ system, tools, messages }).tokens;
    // The API says the request was twice our estimate.
    const reply = assistant('ok');
    const after = tracker.observeUsage({ system, tools, messages }, usage(raw * 2, 3), reply);
    expect(after).toMatchObject({ tokens: raw * 2 + 3, source: 'usage' });
    messages.push(reply);
    expect(tracker.measure({ system, tools, messages }).tokens).toBe(raw * 2 + 3);
    const appended = user('z'.repeat(400));
    messages.push(appended);
    const next = tracker.measure({ system, tools, messages });
    expect(next.source).toBe('calibrated');
    expect(next.tokens).toBe(Math.round(raw * 2 + 3 + estimateMessageTokens(appended) * 2));
  });

  it('uses each answer\'s exact output tokens turn after turn, and estimates an answer it was not told about', () => {
    const tracker = createContextTracker({ window: 100_000 });
    const messages: Message[] = [user('x'.repeat(4000))];
    const first = assistant('a'.repeat(800));
    tracker.observeUsage({ system, tools, messages }, usage(1000, 7), first);
    messages.push(first, user('next'));
    const second = assistant('b'.repeat(800));
    const secondPrompt = tracker.measure({ system, tools, messages }).tokens;
    tracker.observeUsage({ system, tools, messages }, usage(secondPrompt, 5), second);
    messages.push(second);
    // The latest answer counts as reported (5), not as its estimate (about 200).
    expect(tracker.measure({ system, tools, messages }).tokens).toBe(secondPrompt + 5);
    // A copy of that answer (a merged pause_turn continuation, say) is estimated instead.
    messages[messages.length - 1] = assistant('b'.repeat(800));
    expect(tracker.measure({ system, tools, messages }).tokens).toBeGreaterThan(secondPrompt + 100);
  });

  it('an exact count of the same request is returned as is', () => {
    const tracker = createContextTracker();
    const request = { system, tools, messages: [user('count me')] };
    tracker.observeCount(request, 1234);
    expect(tracker.measure(request)).toMatchObject({ tokens: 1234, source: 'count' });
  });

  it('drops the anchor when the prefix or the history was rewritten, keeping the calibration', () => {
    const tracker = createContextTracker();
    const messages: Message[] = [user('x'.repeat(4000)), assistant('a'), user('y'.repeat(4000))];
    const raw = tracker.measure({ system, tools, messages }).tokens;
    tracker.observeUsage({ system, tools, messages }, usage(raw * 3));
    const compacted: Message[] = [user('summary')];
    const measured = tracker.measure({ system, tools, messages: compacted });
    expect(measured.source).toBe('calibrated');
    const plain = createContextTracker().measure({ system, tools, messages: compacted }).tokens;
    expect(measured.tokens).toBe(plain * 3);
    const otherSystem: TextBlock[] = [{ type: 'text', text: 'new prefix' }];
    expect(tracker.measure({ system: otherSystem, tools, messages }).source).toBe('calibrated');
  });

  it('bounds the calibration ratio, so one absurd report does not wreck later estimates', () => {
    const tracker = createContextTracker();
    const messages = [user('x'.repeat(4000))];
    const raw = tracker.measure({ system, tools, messages }).tokens;
    tracker.observeUsage({ system, tools, messages }, usage(raw * 1000));
    const other = [user('y'.repeat(4000))];
    expect(tracker.measure({ system, tools, messages: other }).tokens).toBeLessThanOrEqual(raw * 4 + 4);
  });

  it('costs the same per turn at turn 2,000 as at turn 20 (only appended messages are read)', () => {
    const tracker = createContextTracker();
    const messages: Message[] = [];
    let reads = 0;
    // Counts every element read the tracker makes on the history.
    const history = new Proxy(messages, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    const perTurn: number[] = [];
    for (let turn = 0; turn < 2000; turn++) {
      messages.push(user(`q${turn}`), assistant(`a${turn}`));
      const before = reads;
      tracker.measure({ system, tools, messages: history });
      perTurn.push(reads - before);
    }
    expect(Math.max(...perTurn.slice(10))).toBeLessThanOrEqual(perTurn[10]!);
    expect(Math.max(...perTurn)).toBeLessThan(8);
  });
});

describe('deferred tools', () => {
  it('a tool sent with defer_loading costs nothing in the prefix estimate (the provider keeps it out of the context)', () => {
    const deferred: ToolDefinition[] = Array.from({ length: 50 }, (_, index) => ({ name: `remote_${index}`, description: 'Does one remote thing. '.repeat(30), input_schema: { type: 'object' }, defer_loading: true }));
    expect(estimatePrefixTokens({ system, tools: [...tools, ...deferred] })).toBe(estimatePrefixTokens({ system, tools }));
    expect(estimatePrefixTokens({ system, tools: deferred })).toBe(estimatePrefixTokens({ system, tools: [] }));
  });

  it('300 deferred tools do not make a new session compact its first prompt away', async () => {
    const many = Array.from({ length: 300 }, (_, index) =>
      defineTool({ name: `remote_${index}`, description: 'Does one thing for the remote service. '.repeat(30), inputSchema: z.object({ id: z.string() }), deferLoading: true, execute: () => 'ok' }),
    );
    const model = scriptedModel(['Hello.'], { modelId: 'claude-sonnet-4-6', capabilities: { toolSearch: 'server' } });
    const agent = createAgent({ model, tools: many, context: { window: 100_000 } });
    const compactions: string[] = [];
    agent.on('compaction-start', (event) => compactions.push(event.trigger));
    const result = await agent.run('Say hello.').result;
    expect(result.status).toBe('completed');
    expect(compactions).toEqual([]);
    expect(JSON.stringify(model.requests.at(-1)!.request.messages)).toContain('Say hello.');
  });
});

describe("a resumed session's last reported usage (observeResumedUsage)", () => {
  const messages: Message[] = [
    { role: 'user', content: [{ type: 'text', text: 'Summarize the notes. '.repeat(50) }] },
    { role: 'assistant', content: [{ type: 'text', text: 'Here is the summary. '.repeat(20) }] },
  ];
  const request = { system: [], tools: [], messages };
  const usage = { inputTokens: 900, outputTokens: 120, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };

  it("anchors the library's tracker on the history itself: the prompt as reported plus the answer's exact output", () => {
    const tracker = createContextTracker({ window: 100_000 });
    const history = [...messages];
    observeResumedUsage(tracker, { ...request, messages: history }, 1, usage);
    expect(tracker.measure({ ...request, messages: history })).toMatchObject({ tokens: 1020, source: 'calibrated' });
    // A message appended to that history is estimated on top, scaled by the same calibration.
    history.push({ role: 'user', content: [{ type: 'text', text: 'Shorter, please.' }] });
    const ratio = 900 / estimateMessageTokens(messages[0]!);
    expect(tracker.measure({ ...request, messages: history }).tokens).toBe(Math.round(1020 + estimateMessageTokens(history[2]!) * ratio));
  });

  it('feeds another tracker the first part as a request of its own', () => {
    const seen: unknown[] = [];
    const host = { window: 1, measure: () => contextUsageOf(0), observeUsage: (given: unknown) => (seen.push(given), contextUsageOf(0)), observeCount: () => contextUsageOf(0), messageTokens: () => 0 };
    observeResumedUsage(host as never, request, 1, usage);
    expect(seen).toEqual([{ system: [], tools: [], messages: [messages[0]] }]);
  });
});

function contextUsageOf(tokens: number) {
  return { tokens, window: 1, fraction: tokens, source: 'estimate' as const };
}
