import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, memorySessionStore, type Agent, type AgentEvent, type ContentBlock, type Message } from 'agent-harness';
import { scriptedModel } from 'agent-harness/testing';
import { anthropicModel } from '../../src/model/anthropic/anthropic-model.js';
import { startMessagesServer, type MessagesServer } from '../../src/testing/messages-server/index.js';
import { PIXEL_PNG } from '../mcp/fixtures/notes-server.js';
import { collect } from '../helpers.js';

// The API refuses a request with an image it cannot decode (400 "Could not process image") or a
// body over 32 MB (413 request_too_large). The media stays in the history, so before, every later
// run of the session was refused the same way.

let server: MessagesServer;
const agents: Agent[] = [];
beforeEach(async () => {
  server = await startMessagesServer();
});
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
  await server.close();
});

const couldNotProcess = { fault: 'api-error', status: 400, errorType: 'invalid_request_error', message: 'Could not process image' } as const;
const tooLarge = { fault: 'api-error', status: 413, errorType: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' } as const;
const ok = (text = 'Looked at it.') => ({ content: [{ type: 'text' as const, text }] });

const image = (data = PIXEL_PNG): ContentBlock => ({ type: 'image', source: { type: 'base64', media_type: 'image/png', data } }) as ContentBlock;
const pdf = (chars: number): ContentBlock => ({ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQK' + 'A'.repeat(chars - 12) } }) as ContentBlock;

function make(store = memorySessionStore(), sessionId?: string) {
  const agent = createAgent({
    model: anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test-key', baseURL: server.url, maxRetries: 0 }),
    store,
    ...(sessionId ? { resume: sessionId } : {}),
  });
  agents.push(agent);
  return agent;
}

/** Kinds of the media blocks of messages (tool results included), and the notes in their place. */
function mediaOf(messages: readonly Message[]): string[] {
  const found: string[] = [];
  const visit = (block: { type: string; text?: string; content?: unknown }) => {
    if (block.type === 'image' || block.type === 'document') found.push(block.type);
    if (block.type === 'text' && block.text?.startsWith('[') && block.text.includes('removed')) found.push('note');
    if (block.type === 'tool_result' && Array.isArray(block.content)) block.content.forEach(visit);
  };
  for (const message of messages) if (typeof message.content !== 'string') message.content.forEach(visit);
  return found;
}

const warnings = (events: AgentEvent[]) => events.filter((event): event is Extract<AgentEvent, { type: 'warning' }> => event.type === 'warning');

describe('media the API refuses', () => {
  it('"Could not process image": the image becomes a note, the turn is sent again once, and the repair survives a reload', async () => {
    const store = memorySessionStore();
    const agent = make(store);
    server.enqueue(couldNotProcess, ok());
    const { events, result } = await collect(agent.run([{ type: 'text', text: 'What is this?' } as ContentBlock, image()]));
    expect(result.status).toBe('completed');
    expect(server.requests).toHaveLength(2);
    expect(mediaOf(server.requests[0]!.messages)).toEqual(['image']);
    expect(mediaOf(server.requests[1]!.messages)).toEqual(['note']);
    const [warning] = warnings(events);
    expect(warning).toMatchObject({ source: 'model' });
    expect(warning!.message).toContain('Could not process image');
    expect(warning!.message).toContain('1 image in the history was replaced');
    expect(mediaOf(agent.messages)).toEqual(['note']);
    // The next run of the session is not refused again.
    server.enqueue(ok('Again.'));
    expect((await agent.run('And now?').result).status).toBe('completed');
    expect(mediaOf(server.requests[2]!.messages)).toEqual(['note']);
    // Nor after a reload from the store.
    await agent.close();
    const reloaded = make(store, agent.sessionId);
    await reloaded.ready;
    expect(mediaOf(reloaded.messages)).toEqual(['note']);
  });

  it('only the images sent since the last answer are replaced first', async () => {
    const agent = make();
    server.enqueue(ok('Seen.'));
    await agent.run([{ type: 'text', text: 'First.' } as ContentBlock, image()]).result;
    server.enqueue(couldNotProcess, ok());
    const { result } = await collect(agent.run([{ type: 'text', text: 'Second.' } as ContentBlock, image()]));
    expect(result.status).toBe('completed');
    expect(mediaOf(server.requests[2]!.messages)).toEqual(['image', 'note']);
  });

  it('refused again after the repair: the run fails with an error that says what was tried', async () => {
    const agent = make();
    server.enqueue(couldNotProcess, couldNotProcess, couldNotProcess);
    const { result } = await collect(agent.run([{ type: 'text', text: 'Look.' } as ContentBlock, image()]));
    expect(result.status).toBe('error');
    expect(result.error?.message).toMatch(/again/);
    expect(result.error?.message).toContain('Could not process image');
    expect(server.requests.length).toBeLessThanOrEqual(3);
  });

  it('413 request_too_large: the largest media are replaced until the media left is at most half, then sent again', async () => {
    const agent = make();
    server.enqueue(tooLarge, ok());
    const { events, result } = await collect(agent.run([{ type: 'text', text: 'Read these.' } as ContentBlock, pdf(40), pdf(4000), image()]));
    expect(result.status).toBe('completed');
    expect(mediaOf(server.requests[1]!.messages)).toEqual(['document', 'note', 'image']);
    expect(warnings(events)[0]!.message).toContain('HTTP 413 request_too_large');
    expect(warnings(events)[0]!.message).toContain('1 document in the history was replaced');
  });

  it('a 413 with no media to drop drops nothing; it compacts, and one still too large ends the run saying so', async () => {
    const agent = make();
    server.enqueue(tooLarge, ok('<summary>\n## Goal\nJust text.\n</summary>'), tooLarge);
    const { events, result } = await collect(agent.run('Just text.'));
    expect(result.status).toBe('error');
    expect(result.error).toMatchObject({ status: 413, retryable: false });
    expect(result.error!.message).toMatch(/still too large/);
    expect(warnings(events).filter((warning) => warning.source === 'model')).toEqual([]);
    expect(server.requests).toHaveLength(3);
  });

  it("a custom model's ModelError is recognised too; every new image goes when the API does not say which", async () => {
    const { ModelError } = await import('agent-harness');
    let calls = 0;
    const scripted = scriptedModel(['Done.']);
    const model = {
      ...scripted,
      async *stream(request: Parameters<typeof scripted.stream>[0]) {
        calls++;
        if (mediaOf(request.messages).includes('image')) throw new ModelError('The Anthropic API answered HTTP 400 invalid_request_error: Could not process image', { status: 400, errorType: 'invalid_request_error' });
        yield* scripted.stream(request);
      },
    };
    const agent = createAgent({ model });
    agents.push(agent);
    const result = await agent.run([{ type: 'text', text: 'Look.' } as ContentBlock, image(), image()]).result;
    expect(result.status).toBe('completed');
    expect(calls).toBe(2);
    expect(mediaOf(agent.messages)).toEqual(['note', 'note']);
  });

  it('"image exceeds 5 MB maximum" (the API names the block by its path): the image is replaced and the turn sent again, instead of every retry being refused', async () => {
    const agent = make();
    server.enqueue({ ...couldNotProcess, message: 'messages.0.content.1.image.source.base64: image exceeds 5 MB maximum: 11641928 bytes > 5242880 bytes' }, ok());
    const { result } = await collect(agent.run([{ type: 'text', text: 'Look.' } as ContentBlock, image()]));
    expect(result.status).toBe('completed');
    expect(mediaOf(server.requests[1]!.messages)).toEqual(['note']);
  });

  it('"image exceeds 5 MB maximum" naming one of several new images: only that one is replaced', async () => {
    const agent = make();
    server.enqueue({ ...couldNotProcess, message: 'messages.0.content.2.image.source.base64: image exceeds 5 MB maximum: 11641928 bytes > 5242880 bytes' }, ok());
    const { events, result } = await collect(agent.run([{ type: 'text', text: 'Look.' } as ContentBlock, image(), image(), image()]));
    expect(result.status).toBe('completed');
    expect(mediaOf(server.requests[1]!.messages)).toEqual(['image', 'note', 'image']);
    expect(mediaOf(agent.messages)).toEqual(['image', 'note', 'image']);
    expect(warnings(events)[0]!.message).toContain('1 image in the history was replaced');
  });

  it('a path naming an older image (a session already broken): only that one goes, the new images stay', async () => {
    const agent = make();
    server.enqueue(ok('Seen.'));
    await agent.run([{ type: 'text', text: 'First.' } as ContentBlock, image(), image()]).result;
    server.enqueue({ ...couldNotProcess, message: 'messages.0.content.1.image.source.base64: image exceeds 5 MB maximum: 5649924 bytes > 5242880 bytes' }, ok());
    const { result } = await collect(agent.run([{ type: 'text', text: 'Second.' } as ContentBlock, image()]));
    expect(result.status).toBe('completed');
    expect(mediaOf(server.requests[2]!.messages)).toEqual(['note', 'image', 'image']);
  });

  it('a path that names no media block of the history (out of range, a text block): every new image goes, as without a path', async () => {
    for (const path of ['messages.9.content.1.image.source.base64', 'messages.0.content.0.image.source.base64']) {
      const agent = make();
      server.enqueue({ ...couldNotProcess, message: `${path}: image exceeds 5 MB maximum: 11641928 bytes > 5242880 bytes` }, ok());
      const { result } = await collect(agent.run([{ type: 'text', text: 'Look.' } as ContentBlock, image(), image()]));
      expect(result.status).toBe('completed');
      expect(mediaOf(server.requests[server.requests.length - 1]!.messages)).toEqual(['note', 'note']);
    }
  });

  it('a session already broken by an older image: a text-only turn refused drops the images of the whole history', async () => {
    const agent = make();
    server.enqueue(ok('Seen.'));
    await agent.run([{ type: 'text', text: 'First.' } as ContentBlock, image()]).result;
    server.enqueue(couldNotProcess, ok());
    const { result } = await collect(agent.run('Go on.'));
    expect(result.status).toBe('completed');
    expect(mediaOf(server.requests[2]!.messages)).toEqual(['note']);
  });
});

describe('dropRefusedMedia', () => {
  it("replaces images inside tool results, keeps the other blocks and shares untouched messages", async () => {
    const { dropRefusedMedia } = await import('../../src/loop/drop-refused-media.js');
    const first: Message = { role: 'user', content: [{ type: 'text', text: 'hi' } as ContentBlock, image()] };
    const messages: Message[] = [
      first,
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'shot', input: {} } as ContentBlock] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'shot:' }, image(), pdf(20)] } as ContentBlock] },
    ];
    const dropped = dropRefusedMedia(messages, 'unprocessable-image', 'newest')!;
    expect(dropped).toMatchObject({ images: 1, documents: 0 });
    expect(dropped.messages[0]).toBe(first);
    expect(mediaOf(dropped.messages)).toEqual(['image', 'note', 'document']);
    expect(mediaOf(messages)).toEqual(['image', 'image', 'document']);
    expect(dropRefusedMedia(messages, 'unprocessable-document', 'all')).toMatchObject({ images: 0, documents: 1 });
    expect(dropRefusedMedia([{ role: 'user', content: 'text' }], 'too-large', 'all')).toBeUndefined();
  });

  it('drops only the blocks a path names (in a tool result too), every one in scope without a usable path', async () => {
    const { dropRefusedMedia } = await import('../../src/loop/drop-refused-media.js');
    const messages: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'hi' } as ContentBlock, image()] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'shot', input: {} } as ContentBlock] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'shot:' }, image(), image()] } as ContentBlock] },
    ];
    const named = (message: string) => dropRefusedMedia(messages, 'unprocessable-image', 'newest', message);
    expect(mediaOf(named('messages.2.content.0.tool_result.content.2.image.source.base64: image exceeds 5 MB maximum: 5649924 bytes > 5242880 bytes')!.messages)).toEqual(['image', 'image', 'note']);
    expect(mediaOf(named('messages.0.content.1.image.source.base64: image exceeds 5 MB maximum')!.messages)).toEqual(['note', 'image', 'image']);
    // A path to a block that is not an image (a text, a document for an image refusal): none is named.
    expect(mediaOf(named('messages.2.content.0.tool_result.content.0.image.source.base64: image exceeds 5 MB maximum')!.messages)).toEqual(['image', 'note', 'note']);
    expect(mediaOf(named('Could not process image')!.messages)).toEqual(['image', 'note', 'note']);
  });

  it('mediaRefusal tells the refusals apart from other errors', async () => {
    const { mediaRefusal } = await import('../../src/loop/drop-refused-media.js');
    const { ModelError } = await import('agent-harness');
    expect(mediaRefusal(new ModelError('HTTP 413', { status: 413 }))).toBe('too-large');
    expect(mediaRefusal(new ModelError('HTTP 400 invalid_request_error: Could not process image', { status: 400, errorType: 'invalid_request_error' }))).toBe('unprocessable-image');
    expect(mediaRefusal(new ModelError('HTTP 400 invalid_request_error: prompt is too long', { status: 400, errorType: 'invalid_request_error' }))).toBeUndefined();
    expect(mediaRefusal(new ModelError('HTTP 500: Could not process image', { status: 500 }))).toBeUndefined();
    expect(mediaRefusal(new Error('Could not process image'))).toBeUndefined();
  });

  it('matches the API\'s own message only: a 400 that merely quotes the phrase drops no media; one naming an image\'s source does', async () => {
    const { mediaRefusal } = await import('../../src/loop/drop-refused-media.js');
    const { ModelError } = await import('agent-harness');
    const http400 = (apiMessage: string) => new ModelError(`The Anthropic API answered HTTP 400 invalid_request_error: ${apiMessage}`, { status: 400, errorType: 'invalid_request_error' });
    // The real bodies (public issue threads): the message is the phrase and nothing else.
    expect(mediaRefusal(http400('Could not process image'))).toBe('unprocessable-image');
    // Other refusals that only mention it are not about the request's media.
    expect(mediaRefusal(http400('tools.0.custom.description: Could not process image descriptions longer than 1024 characters'))).toBeUndefined();
    expect(mediaRefusal(http400('messages.3.content.0.text: text content blocks must be non-empty; could not process image placeholder'))).toBeUndefined();
    expect(mediaRefusal(http400('messages.114: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01N82CRmSxsFBkxD4tYG2md8. Each `tool_use` block must have a corresponding `tool_result` block in the next message.'))).toBeUndefined();
    // A refusal that names an image's source by its path (also in a tool result) is one of that image.
    expect(mediaRefusal(http400('messages.44.content.1.image.source.base64: image exceeds 5 MB maximum: 11641928 bytes > 5242880 bytes'))).toBe('unprocessable-image');
    expect(mediaRefusal(http400('messages.168.content.0.tool_result.content.1.image.source.base64: image exceeds 5 MB maximum: 5649924 bytes > 5242880 bytes'))).toBe('unprocessable-image');
    expect(mediaRefusal(http400('messages.2.content.0.document.source.base64.data: The PDF specified was not valid.'))).toBe('unprocessable-document');
  });
});
