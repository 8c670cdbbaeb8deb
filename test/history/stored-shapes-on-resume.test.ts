// Attack class: a transcript holds message shapes the Messages API refuses in a later request (a
// crashed process, an older version, an import wrote them). Resumed from the store, the session
// sends its next prompt in a request the API accepts: the shapes are repaired on load (with a
// warning), never sent as they are.
import { describe, expect, it } from 'vitest';
import { createAgent, memorySessionStore, type ContentBlock, type Message, type SessionEntry, type WarningEvent } from 'agent-harness';
import { scriptedModel, validateMessagesRequest } from 'agent-harness/testing';
import { anthropicModel } from '../../src/model/anthropic/anthropic-model.js';
import { startMessagesServer } from '../../src/testing/messages-server/index.js';

const base = { $schemaVersion: 2, sessionId: 'stored', timestamp: '2027-01-01T00:00:00.000Z' };

/** A transcript of these messages, as a process would have stored them. */
function transcript(messages: unknown[]): SessionEntry[] {
  return messages.map((message, index) => ({ ...base, id: `e${index + 1}`, parentId: index === 0 ? null : `e${index}`, seq: index + 1, kind: 'message', message }) as SessionEntry);
}

/** Every server_tool_use of an assistant message that is not the request's last has its result in the same message. */
function unansweredServerCalls(messages: readonly Message[]): string[] {
  const open: string[] = [];
  messages.forEach((message, index) => {
    if (message.role !== 'assistant' || index === messages.length - 1) return;
    const blocks = message.content as Array<ContentBlock & { id?: string; tool_use_id?: string }>;
    const answered = new Set(blocks.filter((block) => block.type.endsWith('_tool_result')).map((block) => block.tool_use_id));
    for (const block of blocks) if (block.type === 'server_tool_use' && !answered.has(block.id)) open.push(String(block.id));
  });
  return open;
}

/** Text blocks with no visible text anywhere in the messages, those inside tool results too (the API refuses them). */
function blankTexts(messages: readonly Message[]): number {
  let blank = 0;
  const visit = (block: { type: string; text?: unknown; content?: unknown }) => {
    if (block.type === 'text' && (typeof block.text !== 'string' || block.text.trim() === '')) blank++;
    if (block.type === 'tool_result' && Array.isArray(block.content)) block.content.forEach(visit);
  };
  for (const message of messages) if (Array.isArray(message.content)) message.content.forEach((block) => visit(block as never));
  return blank;
}

const shapes: Array<[string, unknown[], string]> = [
  ['an empty text block in a user message', [{ role: 'user', content: [{ type: 'text', text: '' }, { type: 'text', text: 'Hi.' }] }, { role: 'assistant', content: [{ type: 'text', text: 'Hello.' }] }], 'Hello.'],
  ['an empty text block in an assistant message', [{ role: 'user', content: 'Hi.' }, { role: 'assistant', content: [{ type: 'text', text: '' }, { type: 'text', text: 'Hello.' }] }], 'Hello.'],
  ['an empty text block inside a tool result', [
    { role: 'user', content: 'Hi.' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'echo', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: '' }, { type: 'text', text: 'echoed' }] }] },
    { role: 'assistant', content: [{ type: 'text', text: 'Hello.' }] },
  ], 'echoed'],
  ['a tool result whose only text block is empty', [
    { role: 'user', content: 'Hi.' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'echo', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: ' ' }] }] },
    { role: 'assistant', content: [{ type: 'text', text: 'Hello.' }] },
  ], 'Hello.'],
  ['a thinking block without a signature', [{ role: 'user', content: 'Hi.' }, { role: 'assistant', content: [{ type: 'thinking', thinking: 'Let me think.' }, { type: 'text', text: 'Hello.' }] }], 'Hello.'],
  ['a thinking block whose signature is not a string', [{ role: 'user', content: 'Hi.' }, { role: 'assistant', content: [{ type: 'thinking', thinking: 'Hmm.', signature: 42 }, { type: 'text', text: 'Hello.' }] }], 'Hello.'],
  ['an assistant message of nothing but an unsigned thinking block', [{ role: 'user', content: 'Hi.' }, { role: 'assistant', content: [{ type: 'thinking', thinking: 'Let me think.' }] }], 'Hi.'],
  ['a trailing assistant message of whitespace-only text', [{ role: 'user', content: 'Hi.' }, { role: 'assistant', content: [{ type: 'text', text: '  \n ' }] }], 'Hi.'],
  ['a trailing assistant message whose text ends in whitespace', [{ role: 'user', content: 'Hi.' }, { role: 'assistant', content: [{ type: 'text', text: 'Hello.\n\n' }] }], 'Hello.'],
  ['a field of a user message besides role and content (the API refuses it)', [{ role: 'user', content: 'Hi.', name: 'Init' }, { role: 'assistant', content: [{ type: 'text', text: 'Hello.' }] }], 'Hello.'],
  ['a field of an assistant message besides role and content', [{ role: 'user', content: 'Hi.' }, { role: 'assistant', content: [{ type: 'text', text: 'Hello.' }], id: 'msg_1', cache_control: { type: 'ephemeral' } }], 'Hello.'],
  ['an assistant message ending in a server_tool_use without its result', [
    { role: 'user', content: 'Search.' },
    { role: 'assistant', content: [{ type: 'text', text: 'Searching.' }, { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x' } }] },
  ], 'Searching.'],
  ['a server_tool_use without its result before a later exchange', [
    { role: 'user', content: 'Search.' },
    { role: 'assistant', content: [{ type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x' } }, { type: 'text', text: 'Found nothing.' }] },
    { role: 'user', content: 'Thanks.' },
    { role: 'assistant', content: [{ type: 'text', text: 'Welcome.' }] },
  ], 'Found nothing.'],
];


/** The request sent after the resume: valid for the API, no server call left unanswered, no blank text, and `kept` still in it. */
function expectRepairedRequest(sent: readonly Message[], kept: string): void {
  expect(validateMessagesRequest(sent)).toBeUndefined();
  expect(unansweredServerCalls(sent)).toEqual([]);
  expect(blankTexts(sent)).toBe(0);
  expect(JSON.stringify(sent)).toContain(kept);
}
describe('attack: shapes the API refuses, stored in a transcript, then resumed', () => {
  it.each(shapes)('%s: the next prompt is sent in a request the API accepts, keeping what can be kept', async (name, messages, kept) => {
    const store = memorySessionStore();
    await store.append('stored', transcript(messages), { expectedRevision: 0 });
    const model = scriptedModel(['Fine.']);
    const agent = createAgent({ model, store, resume: 'stored' });
    const warnings: WarningEvent[] = [];
    agent.on('warning', (event) => warnings.push(event));
    const result = await agent.run('Next.').result;
    expect(result.error?.message).toBeUndefined();
    const sent = model.requests[0]!.messages;
    expectRepairedRequest(sent, kept);
    expect(JSON.stringify(sent.at(-1))).toContain('Next.');
    // The host is told what the repair changed (a trimmed trailing space is no change worth a word).
    if (!name.includes('ends in whitespace')) expect(warnings.map((warning) => warning.message).join(' ')).toMatch(/repair|changed|dropped/i);
  });

  it.each(shapes)('%s, in a snapshot: the same', async (_name, messages, kept) => {
    const empty = createAgent({ model: scriptedModel([]) });
    const snapshot = { ...(JSON.parse(JSON.stringify(empty.snapshot())) as Record<string, unknown>), messages, messageUsage: messages.map(() => null) };
    const model = scriptedModel(['Fine.']);
    const agent = createAgent({ model, resume: snapshot as never });
    const result = await agent.run('Next.').result;
    expect(result.error?.message).toBeUndefined();
    const sent = model.requests[0]!.messages;
    expectRepairedRequest(sent, kept);
  });

  it('through anthropicModel, the loopback server (which refuses what the API refuses) accepts every repaired request', async () => {
    const server = await startMessagesServer({ responses: shapes.map(() => ({ content: [{ type: 'text', text: 'Fine.' }] })) });
    try {
      for (const [name, messages] of shapes) {
        const store = memorySessionStore();
        await store.append('stored', transcript(messages), { expectedRevision: 0 });
        const model = anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
        const agent = createAgent({ model, store, resume: 'stored' });
        const result = await agent.run('Next.').result;
        expect(result.error?.message, name).toBeUndefined();
        expect(result.status, name).toBe('completed');
        await agent.close();
      }
    } finally {
      await server.close();
    }
  });
});
