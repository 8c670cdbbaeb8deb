import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, SUMMARY_HEADING, type Agent, type AgentEvent, type ContentBlock, type Message, type TextBlock } from 'agent-harness';
import { anthropicModel } from '../../src/model/anthropic/anthropic-model.js';
import { startMessagesServer, type MessagesRequestInfo, type MessagesServer, type MessagesServerResponse } from '../../src/testing/messages-server/index.js';
import { PIXEL_PNG } from '../mcp/fixtures/notes-server.js';
import { collect } from '../helpers.js';

// A 413 request_too_large on a request with no media (left) to drop: before, the error was
// reported as it was and the session stayed as it was, so every retry and every later run sent the
// same bytes and was refused the same way. Now it compacts, as a "prompt is too long" does, and
// where it cannot the run ends with an error that names the cause and the cure.

let server: MessagesServer;
const agents: Agent[] = [];
beforeEach(async () => {
  server = await startMessagesServer();
});
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
  await server.close();
});

const tooLarge = { fault: 'api-error', status: 413, errorType: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' } as const;
const ok = (text: string) => ({ content: [{ type: 'text' as const, text }] });
const SUMMARY = '<summary>\n## Goal\nKeep talking with the user.\n</summary>';

const textsOf = (message: Message): string[] =>
  typeof message.content === 'string' ? [message.content] : message.content.flatMap((block) => (block.type === 'text' ? [(block as TextBlock).text] : []));
const asksForSummary = (request: MessagesRequestInfo) => request.body.messages.some((message) => textsOf(message as Message).some((text) => text.includes('is about to be replaced by a summary')));

/** Answers a summary request with SUMMARY, anything else with the next of `turns`. */
function script(turns: MessagesServerResponse[], summary: MessagesServerResponse = ok(SUMMARY)): MessagesServerResponse {
  const respond: MessagesServerResponse = (request) => {
    server.enqueue(respond);
    if (asksForSummary(request)) return typeof summary === 'function' ? summary(request) : summary;
    const next = turns.shift();
    if (next === undefined) throw new Error('the script has no more turns');
    return typeof next === 'function' ? next(request) : next;
  };
  return respond;
}

function make(extra: Partial<Parameters<typeof createAgent>[0]> = {}) {
  const agent = createAgent({ model: anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test-key', baseURL: server.url, maxRetries: 0 }), ...extra });
  agents.push(agent);
  return agent;
}

const compactions = (events: AgentEvent[]) => events.filter((event): event is Extract<AgentEvent, { type: 'compaction-end' }> => event.type === 'compaction-end');

describe('HTTP 413 request_too_large on a request without media', () => {
  it('compacts the history (reactive, as for a prompt too long) and sends the turn again, which passes', async () => {
    const agent = make();
    server.enqueue(script([ok('Hello.'), tooLarge, ok('Done.')]));
    await agent.run('Hi.').result;
    const { events, result } = await collect(agent.run('Go on.'));
    expect(result.status).toBe('completed');
    expect(result.text).toBe('Done.');
    expect(compactions(events)).toMatchObject([{ trigger: 'reactive' }]);
    // The first run, the refused turn, the summary, the turn sent again: compacted, not the same bytes.
    expect(server.requests).toHaveLength(4);
    expect(asksForSummary({ body: server.requests[2]! } as MessagesRequestInfo)).toBe(true);
    const retried = server.requests[3]!;
    expect(JSON.stringify(retried.messages)).not.toBe(JSON.stringify(server.requests[1]!.messages));
    expect(textsOf(retried.messages[0] as Message)[0]!.startsWith(SUMMARY_HEADING)).toBe(true);
  });

  it('still too large once the media is dropped: compacts next, instead of failing with the media gone for nothing', async () => {
    const agent = make();
    server.enqueue(script([ok('Hello.'), tooLarge, tooLarge, ok('Done.')]));
    await agent.run('Hi.').result;
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PIXEL_PNG } } as ContentBlock;
    const { events, result } = await collect(agent.run([{ type: 'text', text: 'And this?' } as ContentBlock, image]));
    expect(result.status).toBe('completed');
    expect(compactions(events)).toMatchObject([{ trigger: 'reactive' }]);
  });

  it('a summary request refused as too large too is shortened, and as a last resort the oldest messages are dropped', async () => {
    const agent = make({ context: { compaction: { keepTokens: 1 } } });
    server.enqueue(script([ok('Hello.'), ok('Fine.'), tooLarge, ok('Done.')], tooLarge));
    await agent.run('Hi.').result;
    await agent.run('How are you?').result;
    const { events, result } = await collect(agent.run('Go on.'));
    expect(result.status).toBe('completed');
    expect(compactions(events)).toMatchObject([{ trigger: 'reactive', trimmed: true }]);
    expect(textsOf(server.requests.at(-1)!.messages[0] as Message).join('\n')).toMatch(/dropped without a summary/);
  });

  it('with compaction off, ends the run with a clear, non-retryable error naming the cause and the cure, after one request', async () => {
    const agent = make({ context: { compaction: false } });
    server.enqueue(script([ok('Hello.'), tooLarge]));
    await agent.run('Hi.').result;
    const { result } = await collect(agent.run('Go on.'));
    expect(result.status).toBe('error');
    expect(result.error).toMatchObject({ code: 'model', status: 413, errorType: 'request_too_large', retryable: false });
    expect(result.error!.message).toMatch(/refused the request as too large \(HTTP 413 request_too_large\)/);
    expect(result.error!.message).toMatch(/compaction is off/);
    expect(result.error!.message).toMatch(/agent\.compact\(\)/);
    expect(server.requests).toHaveLength(2);
  });

  it('still too large once compacted (the latest message alone), says so and what to do, and stops', async () => {
    const agent = make();
    server.enqueue(script([tooLarge, tooLarge]));
    const { result } = await collect(agent.run('A message far too large.'));
    expect(result.status).toBe('error');
    expect(result.error).toMatchObject({ status: 413, errorType: 'request_too_large', retryable: false });
    expect(result.error!.message).toMatch(/compacted and the request is still too large/);
    expect(result.error!.message).toMatch(/Send a shorter message/);
    // The refused turn, the summary, the turn sent once more: no loop.
    expect(server.requests).toHaveLength(3);
  });
});
