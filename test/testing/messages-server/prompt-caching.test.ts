import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { startMessagesServer, type MessagesServer } from '../../../src/testing/messages-server/index.js';
import { createPromptCache } from '../../../src/testing/messages-server/prompt-cache.js';
import { requestSegments } from '../../../src/testing/messages-server/request-segments.js';

let server: MessagesServer | undefined;
afterEach(() => server?.close());

const big = (label: string, tokens: number) => `${label} `.padEnd(tokens * 4, 'x');
const marker = { type: 'ephemeral' as const };
const model = 'claude-sonnet-4-6';

/** A request body with a system prompt, one tool and the given user texts (last one marked). */
function body(texts: string[], options: { systemMarked?: boolean; ttl?: '1h'; model?: string } = {}) {
  const messages = texts.map((text, index) => ({
    role: index % 2 === 0 ? 'user' : 'assistant',
    content: [{ type: 'text', text, ...(index === texts.length - 1 ? { cache_control: { ...marker, ...(options.ttl ? { ttl: options.ttl } : {}) } } : {}) }],
  }));
  return {
    model: options.model ?? model,
    max_tokens: 100,
    system: [{ type: 'text', text: big('system', 1500), ...(options.systemMarked ? { cache_control: marker } : {}) }],
    tools: [{ name: 'Read', description: 'Reads a file.', input_schema: { type: 'object' } }],
    messages,
  };
}

describe('the prompt cache model', () => {
  it('makes what a request writes readable once its answer begins (commit), not when it is looked up; a hit is refreshed then', () => {
    let now = 0;
    const cache = createPromptCache({ now: () => now });
    const segments = requestSegments(body(['hello there'], { systemMarked: true }));
    const first = cache.lookup(model, segments);
    const second = cache.lookup(model, segments);
    expect(cache.size).toBe(0);
    expect(first.usage.cacheCreationInputTokens).toBe(segments.totalTokens);
    expect(second.usage.cacheReadInputTokens).toBe(0);
    first.commit();
    second.commit();
    expect(cache.size).toBe(2); // the system prompt's entry and the message's
    const third = cache.lookup(model, requestSegments(body(['hello there', 'Hi!', 'next'], { systemMarked: true })));
    expect(third.usage.cacheReadInputTokens).toBe(segments.totalTokens);
    // Committed 4 minutes later: the entry read lives 5 minutes from then.
    now = 240_000;
    third.commit();
    now = 240_000 + 299_999;
    expect(cache.lookup(model, segments).usage.cacheReadInputTokens).toBe(segments.totalTokens);
    // An entry that expired between lookup and commit is not brought back by the commit.
    const late = cache.lookup(model, segments);
    now += 600_000;
    late.commit();
    expect(cache.lookup(model, segments).usage.cacheReadInputTokens).toBe(0);
  });

  it('writes at a breakpoint, reads the same prefix next time, and splits input around it', () => {
    let now = 0;
    const cache = createPromptCache({ now: () => now });
    const first = requestSegments(body(['hello there']));
    const written = cache.apply(model, first);
    expect(written).toMatchObject({ cacheReadInputTokens: 0, cacheCreationInputTokens: first.totalTokens, inputTokens: 0 });
    expect(written.cacheCreation).toEqual({ ephemeral_5m_input_tokens: first.totalTokens, ephemeral_1h_input_tokens: 0 });

    now += 60_000;
    // The conversation grows: the old breakpoint sits within the lookback of the new one.
    const second = requestSegments(body(['hello there', 'Hi!', 'next question']));
    const read = cache.apply(model, second);
    expect(read.cacheReadInputTokens).toBe(first.totalTokens);
    expect(read.cacheCreationInputTokens).toBe(second.totalTokens - first.totalTokens);
    expect(read.inputTokens + read.cacheReadInputTokens + read.cacheCreationInputTokens).toBe(second.totalTokens);
  });

  it('does not cache a prefix below the model minimum, and reports it as plain input', () => {
    const cache = createPromptCache({ now: () => 0 });
    const small = { model, max_tokens: 10, messages: [{ role: 'user', content: [{ type: 'text', text: 'short', cache_control: marker }] }] };
    const usage = cache.apply(model, requestSegments(small));
    expect(usage.cacheCreationInputTokens).toBe(0);
    expect(usage.cacheReadInputTokens).toBe(0);
    expect(usage.inputTokens).toBe(requestSegments(small).totalTokens);
    expect(cache.size).toBe(0);
  });

  it('uses the per-model minimum: 4096 for Haiku 4.5, 1024 for Sonnet 4.6', () => {
    const cache = createPromptCache({ now: () => 0 });
    const request = body(['hi']); // about 1,550 tokens
    expect(cache.apply('claude-haiku-4-5', requestSegments({ ...request, model: 'claude-haiku-4-5' })).cacheCreationInputTokens).toBe(0);
    expect(cache.apply(model, requestSegments(request)).cacheCreationInputTokens).toBeGreaterThan(1024);
  });

  it('expires a 5-minute entry after five minutes without use, and a hit refreshes it', () => {
    let now = 0;
    const cache = createPromptCache({ now: () => now });
    const request = requestSegments(body(['hello']));
    cache.apply(model, request);
    now = 4 * 60_000;
    expect(cache.apply(model, request).cacheReadInputTokens).toBe(request.totalTokens);
    now += 4 * 60_000; // 8 minutes after writing, 4 after the hit that refreshed it
    expect(cache.apply(model, request).cacheReadInputTokens).toBe(request.totalTokens);
    now += 5 * 60_000;
    const missed = cache.apply(model, request);
    expect(missed.cacheReadInputTokens).toBe(0);
    expect(missed.cacheCreationInputTokens).toBe(request.totalTokens);
  });

  it('keeps a 1-hour entry past five minutes and counts it as a 1-hour write', () => {
    let now = 0;
    const cache = createPromptCache({ now: () => now });
    const request = requestSegments(body(['hello'], { ttl: '1h' }));
    expect(cache.apply(model, request).cacheCreation.ephemeral_1h_input_tokens).toBe(request.totalTokens);
    now = 59 * 60_000;
    expect(cache.apply(model, request).cacheReadInputTokens).toBe(request.totalTokens);
    now += 61 * 60_000;
    expect(cache.apply(model, request).cacheReadInputTokens).toBe(0);
  });

  it('finds a cached prefix only within 20 blocks before a breakpoint', () => {
    const conversation = (length: number) => Array.from({ length }, (_, index) => (index === 0 ? 'first question' : `message ${index}`));
    const cache = createPromptCache({ now: () => 0 });
    const first = requestSegments(body(conversation(1)));
    cache.apply(model, first);
    // 20 messages: the old breakpoint is the 20th block before the new one, still in reach.
    expect(cache.apply(model, requestSegments(body(conversation(20)))).cacheReadInputTokens).toBe(first.totalTokens);
    const fresh = createPromptCache({ now: () => 0 });
    fresh.apply(model, first);
    // 21 messages: one block too far.
    expect(fresh.apply(model, requestSegments(body(conversation(21)))).cacheReadInputTokens).toBe(0);
  });

  it('reads the system prefix when the messages changed, with a breakpoint on the system prompt', () => {
    const cache = createPromptCache({ now: () => 0 });
    const a = requestSegments(body(['question A'], { systemMarked: true }));
    cache.apply(model, a);
    const b = requestSegments(body(['a different question'], { systemMarked: true }));
    const usage = cache.apply(model, b);
    const systemPrefix = b.segments[1]!.prefixTokens; // tool, then system
    expect(usage.cacheReadInputTokens).toBe(systemPrefix);
    expect(usage.cacheCreationInputTokens).toBe(b.totalTokens - systemPrefix);
  });

  it('misses when the model, the tools or a block before the breakpoint change', () => {
    const cache = createPromptCache({ now: () => 0 });
    const request = body(['hello']);
    cache.apply(model, requestSegments(request));
    expect(cache.apply('claude-opus-4-1', requestSegments({ ...request, model: 'claude-opus-4-1' })).cacheReadInputTokens).toBe(0);
    const otherTools = { ...request, tools: [{ name: 'Write', description: 'Writes.', input_schema: { type: 'object' } }] };
    expect(cache.apply(model, requestSegments(otherTools)).cacheReadInputTokens).toBe(0);
    expect(cache.apply(model, requestSegments(body(['hellO']))).cacheReadInputTokens).toBe(0);
    // The breakpoint's own marker does not count: the same content with a 1h marker hits.
    expect(cache.apply(model, requestSegments(body(['hello'], { ttl: '1h' }))).cacheReadInputTokens).toBeGreaterThan(0);
  });

  it('changing thinking invalidates cached messages but not a cached system prefix', () => {
    const cache = createPromptCache({ now: () => 0 });
    const request = body(['hello'], { systemMarked: true });
    cache.apply(model, requestSegments(request));
    const withThinking = requestSegments({ ...request, thinking: { type: 'enabled', budget_tokens: 2000 } });
    expect(cache.apply(model, withThinking).cacheReadInputTokens).toBe(withThinking.segments[1]!.prefixTokens);
  });

  it('a change of output_config.format (structured output) misses the system and the messages, and reads the tools', () => {
    const cache = createPromptCache({ now: () => 0 });
    const marked = (request: ReturnType<typeof body>) => ({ ...request, tools: [{ ...request.tools[0]!, description: big('Reads a file.', 1100), cache_control: marker }] });
    const request = marked(body(['hello'], { systemMarked: true }));
    cache.apply(model, requestSegments(request));
    const format = { type: 'json_schema', schema: { type: 'object', properties: { plan: { type: 'string' } } } };
    const withFormat = requestSegments({ ...request, output_config: { format } });
    const toolsOnly = withFormat.segments[0]!.prefixTokens;
    expect(cache.apply(model, withFormat)).toMatchObject({ cacheReadInputTokens: toolsOnly, cacheCreationInputTokens: withFormat.totalTokens - toolsOnly });
    // The same format again reads it all; another schema misses again; without it, the first entries are read.
    expect(cache.apply(model, requestSegments({ ...request, output_config: { format } })).cacheReadInputTokens).toBe(withFormat.totalTokens);
    const otherFormat = requestSegments({ ...request, output_config: { format: { ...format, schema: { type: 'object' } } } });
    expect(cache.apply(model, otherFormat).cacheReadInputTokens).toBe(toolsOnly);
    expect(cache.apply(model, requestSegments(request)).cacheReadInputTokens).toBe(requestSegments(request).totalTokens);
    // An output_config with only an effort leaves the system prefix as it was.
    const withEffort = requestSegments({ ...request, output_config: { effort: 'high' } });
    expect(cache.apply(model, withEffort).cacheReadInputTokens).toBe(withEffort.segments[1]!.prefixTokens);
  });

  it('a change of output_config.effort misses the messages and reads the system prefix', () => {
    const cache = createPromptCache({ now: () => 0 });
    const request = { ...body(['hello'], { systemMarked: true }), output_config: { effort: 'high' } };
    cache.apply(model, requestSegments(request));
    expect(cache.apply(model, requestSegments(request)).cacheReadInputTokens).toBe(requestSegments(request).totalTokens);
    const low = requestSegments({ ...request, output_config: { effort: 'low' } });
    expect(cache.apply(model, low).cacheReadInputTokens).toBe(low.segments[1]!.prefixTokens);
  });

  it('a top-level cache_control puts the breakpoint on the last block (automatic caching)', () => {
    const cache = createPromptCache({ now: () => 0 });
    const request = { ...body(['hello']), cache_control: marker };
    request.messages[0]!.content = [{ type: 'text', text: 'hello' }];
    const segments = requestSegments(request);
    expect(segments.segments.at(-1)!.breakpoint).toBe('5m');
    expect(cache.apply(model, segments).cacheCreationInputTokens).toBe(segments.totalTokens);
  });

  it('a marker nested in a tool result makes the tool result a breakpoint', () => {
    const segments = requestSegments({
      model,
      messages: [
        { role: 'user', content: 'Read it' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'data', cache_control: { type: 'ephemeral', ttl: '1h' } }] }] },
      ],
    });
    expect(segments.segments.map((segment) => segment.breakpoint)).toEqual([undefined, undefined, '1h']);
  });
});

describe('the loopback server with prompt caching', () => {
  it('reports cache reads and writes through the real SDK, turn after turn', async () => {
    let now = 1_000;
    server = await startMessagesServer({ promptCaching: { now: () => now } });
    const client = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
    server.enqueue({ content: [{ type: 'text', text: 'one' }] }, { content: [{ type: 'text', text: 'two' }] }, { content: [{ type: 'text', text: 'three' }] });
    const first = await client.messages.create(body(['hello']) as Anthropic.MessageCreateParamsNonStreaming);
    expect(first.usage.cache_read_input_tokens).toBe(0);
    expect(first.usage.cache_creation_input_tokens).toBeGreaterThan(1024);
    now += 1_000;
    const second = await client.messages.create(body(['hello', 'one', 'more']) as Anthropic.MessageCreateParamsNonStreaming);
    expect(second.usage.cache_read_input_tokens).toBe(first.usage.cache_creation_input_tokens);
    now += 6 * 60_000;
    const third = await client.messages.stream(body(['hello', 'one', 'more']) as Anthropic.MessageCreateParamsStreaming).finalMessage();
    expect(third.usage.cache_read_input_tokens).toBe(0);
  });

  it("a turn's own usage wins field by field", async () => {
    server = await startMessagesServer({ promptCaching: true });
    const client = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
    server.enqueue({ content: [{ type: 'text', text: 'one' }], usage: { cacheReadInputTokens: 7 } });
    const answer = await client.messages.create(body(['hello']) as Anthropic.MessageCreateParamsNonStreaming);
    expect(answer.usage.cache_read_input_tokens).toBe(7);
    expect(answer.usage.cache_creation_input_tokens).toBeGreaterThan(1024);
  });

  it('an HTTP fault does not touch the cache', async () => {
    server = await startMessagesServer({ promptCaching: { now: () => 0 } });
    const client = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
    server.enqueue({ fault: 'overloaded' }, { content: [{ type: 'text', text: 'ok' }] });
    await expect(client.messages.create(body(['hello']) as Anthropic.MessageCreateParamsNonStreaming)).rejects.toThrow();
    const answer = await client.messages.create(body(['hello']) as Anthropic.MessageCreateParamsNonStreaming);
    expect(answer.usage.cache_read_input_tokens).toBe(0);
    expect(answer.usage.cache_creation_input_tokens).toBeGreaterThan(0);
  });
});
