// An agent that takes a screenshot every turn passes the API's image limits after a while (past
// 20 images, none may be larger than 2000 pixels; past 100, none at all). The request then leaves
// the oldest out. Done one image at a time, the request would change near its start at every turn
// and write the whole history to the prompt cache again (1.25× the input price instead of 0.1×);
// done a step at a time, it changes once a step. Through the real SDK and the loopback server's
// prompt cache, and turn by turn on the request alone.
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, toolOutput, type Message, type Usage } from 'agent-harness';
import { anthropicModel } from '../../src/model/anthropic/anthropic-model.js';
import { capRequestImages, IMAGE_CHARS_LEFT_OUT_AT_ONCE, IMAGES_LEFT_OUT_AT_ONCE } from '../../src/loop/cap-request-images.js';
import { startMessagesServer, type MessagesServer } from '../../src/testing/messages-server/index.js';
import { requestSegments } from '../../src/testing/messages-server/request-segments.js';
import { base64, pngHeader } from '../model/image-headers.js';

let server: MessagesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A screenshot of `side` × `side` pixels (a PNG header is enough: the sizes are read from it), a new block each call. */
const screenshot = (side: number, turn: number) => ({ type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/png', data: base64(pngHeader(side, side)) + 'A'.repeat(turn % 7) } });

/** Names each image block of the history by the order it was first seen in. */
function imageNames(): (block: object) => string {
  const names = new WeakMap<object, string>();
  let next = 0;
  return (block) => {
    let name = names.get(block);
    if (name === undefined) names.set(block, (name = `image ${next++}`));
    return name;
  };
}

/** Each block of `messages` in short: an image by which block of the history it is, a text (a note) by its text. */
function shapeOf(messages: readonly Message[], nameOf: (block: object) => string): string {
  return messages.map((message) => (message.content as Array<{ type: string; text?: string }>).map((block) => (block.type === 'image' ? nameOf(block) : (block.text ?? block.type))).join('|')).join('\n');
}

/** How many times the capped request of a growing history changed before its newest message. */
function changesOfTheStart(history: Message[], add: (turn: number) => Message, turns: number): number {
  const nameOf = imageNames();
  let changes = 0;
  let before = shapeOf(capRequestImages(history), nameOf);
  for (let turn = 0; turn < turns; turn++) {
    history.push({ role: 'assistant', content: [{ type: 'text', text: `Turn ${turn}.` }] }, add(turn));
    const sent = capRequestImages([...history]);
    if (shapeOf(sent.slice(0, history.length - 2), nameOf) !== before) changes++;
    before = shapeOf(sent, nameOf);
  }
  return changes;
}

describe('screenshots past the image limits and the prompt cache', () => {
  it('small images, one a turn for 300 turns: the request changes before its newest message once in ten turns', () => {
    const history: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'Watch the screen.' }] }];
    const changes = changesOfTheStart(history, (turn) => ({ role: 'user', content: [screenshot(800, turn)] }), 300);
    // 200 turns past the limit of 100: a change every IMAGES_LEFT_OUT_AT_ONCE of them.
    expect(changes).toBe(Math.ceil(200 / IMAGES_LEFT_OUT_AT_ONCE));
  });

  it('large screenshots, one a turn for 100 turns: the request changes once in ten turns past 20 images', () => {
    const history: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'Watch the screen.' }] }];
    const changes = changesOfTheStart(history, (turn) => ({ role: 'user', content: [screenshot(2560, turn)] }), 100);
    expect(changes).toBe(Math.ceil(80 / IMAGES_LEFT_OUT_AT_ONCE));
  });

  it('1 MB screenshots, one a turn for 60 turns: past 20 MB of them, the request changes once for every 4 MB of new ones', () => {
    const megabyte = () => ({ type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/png', data: base64(pngHeader(1000, 1000)).padEnd(1024 * 1024, 'A') } });
    const history: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'Watch the screen.' }] }];
    const changes = changesOfTheStart(history, () => ({ role: 'user', content: [megabyte()] }), 60);
    // 40 MB past the limit: a change every IMAGE_CHARS_LEFT_OUT_AT_ONCE (4 MB) of them.
    expect(changes).toBe(40 / (IMAGE_CHARS_LEFT_OUT_AT_ONCE / (1024 * 1024)));
  });

  it('an agent taking a 2560-pixel screenshot a turn reads the history from the cache on nine turns in ten past 20 images', async () => {
    server = await startMessagesServer({ promptCaching: { now: () => 0 } });
    const TURNS = 40;
    for (let turn = 0; turn < TURNS; turn++) server.enqueue({ content: [{ type: 'tool_use', id: `toolu_${turn}`, name: 'Screenshot', input: {} }] });
    server.enqueue({ content: [{ type: 'text', text: 'Watched.' }] });
    let shots = 0;
    const tool = defineTool({ name: 'Screenshot', description: 'Takes a screenshot.', inputSchema: z.object({}), readOnly: true, execute: () => toolOutput([screenshot(2560, shots++)]) });
    const model = anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'test', baseURL: server.url, maxRetries: 0 });
    const agent = createAgent({ model, tools: [tool], system: `You watch a screen.\n${'Describe what changes. '.repeat(250)}`, maxTurns: TURNS + 1 });
    const usages: Usage[] = [];
    agent.on('turn-end', (event) => usages.push(event.usage));
    expect((await agent.run('Watch the screen.').result).status).toBe('completed');
    await agent.close();
    expect(server.errors).toEqual([]);
    const totals = server.requests.map((body) => requestSegments(body as unknown as Record<string, unknown>).totalTokens);
    // Requests that did not read all of the request before them from the cache.
    const misses = usages.slice(1).filter((usage, index) => usage.cacheReadInputTokens < totals[index]!).length;
    // Past 20 images (the request of turn 22 on, 20 requests), a step of ten large ones at a time.
    expect(misses).toBe(Math.ceil((TURNS - 20) / IMAGES_LEFT_OUT_AT_ONCE));
  });
});
