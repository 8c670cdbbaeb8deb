import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createAgent, type Agent, type Message } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { PIXEL_PNG } from '../mcp/fixtures/notes-server.js';
import { capRequestImages, type MediaTallySlot } from '../../src/loop/cap-request-images.js';
import { imageMediaType } from '../../src/model/image-media-type.js';
import { base64, bytes, gifHeader, jpegHeader, pngHeader, webpVp8x } from '../model/image-headers.js';

const webpHeader = (side: number) => webpVp8x(side, side);

// The Messages API refuses a whole request past 100 images or 32 MB. One result keeps at most 20
// images and 10 MB of them, but a turn of parallel calls (and the turns before it) add up: the
// request is capped as a whole, the newest images kept, older ones sent as notes.

const agents: Agent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
});

/** An MCP server whose `shots` tool answers `count` PNG images of `size` base64 characters each. */
function shotsServer(count: number, size: number) {
  const data = size <= PIXEL_PNG.length ? PIXEL_PNG : PIXEL_PNG.slice(0, 16) + 'A'.repeat(size - 16);
  return () => {
    const server = new McpServer({ name: 'cam', version: '1.0.0' });
    server.registerTool('shots', { description: 'Takes screenshots.', annotations: { readOnlyHint: true } }, async () => ({
      content: Array.from({ length: count }, () => ({ type: 'image' as const, mimeType: 'image/png', data })),
    }));
    return server;
  };
}

/** The image blocks and the notes of a request's messages, tool results included, in order. */
function imagesOf(messages: readonly Message[]): Array<{ image: boolean; data?: number; note?: string }> {
  const found: Array<{ image: boolean; data?: number; note?: string }> = [];
  const visit = (block: { type: string; text?: string; source?: { data?: string }; content?: unknown }) => {
    if (block.type === 'image') found.push({ image: true, data: block.source?.data?.length ?? 0 });
    if (block.type === 'text' && block.text?.includes('not sent')) found.push({ image: false, note: block.text });
    if (block.type === 'tool_result' && Array.isArray(block.content)) block.content.forEach(visit);
  };
  for (const message of messages) if (Array.isArray(message.content)) (message.content as never[]).forEach(visit);
  return found;
}

async function runParallel(calls: number, images: number, size: number) {
  const model = scriptedModel([turn(...Array.from({ length: calls }, (_, index) => toolCall('mcp__cam__shots', {}, `call_${index}`))), 'Done.']);
  const agent = createAgent({ model, mcpServers: { cam: { type: 'sdk', server: shotsServer(images, size) } } });
  agents.push(agent);
  expect((await agent.run('Look at every screen.').result).status).toBe('completed');
  return { model, agent };
}

describe('the images of one request', () => {
  it('the count before a turn (countTokens) is of the request as it is sent, capped the same way', async () => {
    const counted: Array<readonly Message[]> = [];
    const inner = scriptedModel([turn(...Array.from({ length: 6 }, (_, index) => toolCall('mcp__cam__shots', {}, `call_${index}`))), 'Done.']);
    const model = { ...inner, capabilities: { ...inner.capabilities, countTokens: true }, countTokens: async (request: { messages: readonly Message[] }) => (counted.push(request.messages), { inputTokens: 1000 }) };
    const agent = createAgent({ model, mcpServers: { cam: { type: 'sdk', server: shotsServer(20, 0) } } });
    agents.push(agent);
    expect((await agent.run('Look at every screen.').result).status).toBe('completed');
    const last = counted.at(-1)!;
    expect(imagesOf(last).filter((block) => block.image)).toHaveLength(100);
    expect(imagesOf(last)).toEqual(imagesOf(inner.requests.at(-1)!.messages));
  });


  it('six parallel calls of 20 images each: the request carries 100, the 20 oldest become notes', async () => {
    const { model, agent } = await runParallel(6, 20, 0);
    const sent = imagesOf(model.requests[1]!.messages);
    expect(sent).toHaveLength(120);
    expect(sent.filter((block) => block.image)).toHaveLength(100);
    // The first call's images are the oldest in the request: they are the ones left out.
    expect(sent.slice(0, 20).every((block) => !block.image)).toBe(true);
    expect(sent[0]!.note).toMatch(/^\[Image of type image\/png \(\d+ bytes\) not sent: a request may carry at most 100 images and 20 MB \(base64\) of them; the newest are kept\]$/);
    expect(sent.slice(20).every((block) => block.image)).toBe(true);
    // The session keeps every image: the cap is the request's, not the history's.
    expect(imagesOf(agent.messages).filter((block) => block.image)).toHaveLength(120);
  });

  it('parallel results of 8 MB each: the request carries at most 20 MB of images', async () => {
    const { model } = await runParallel(4, 8, 1024 * 1024);
    const sent = imagesOf(model.requests[1]!.messages);
    expect(sent).toHaveLength(32);
    const kept = sent.filter((block) => block.image);
    expect(kept.reduce((sum, block) => sum + block.data!, 0)).toBeLessThanOrEqual(20 * 1024 * 1024);
    expect(kept).toHaveLength(20);
    expect(sent.slice(0, 12).every((block) => !block.image)).toBe(true);
  });

  it('a request within the limits is sent as the history is (the same messages array)', async () => {
    const { model, agent } = await runParallel(2, 3, 0);
    expect(imagesOf(model.requests[1]!.messages).filter((block) => block.image)).toHaveLength(6);
    expect(model.requests[1]!.messages).toEqual(agent.messages.slice(0, 3));
  });

  it('the summary request of a compaction is capped too', async () => {
    const model = scriptedModel([turn(...Array.from({ length: 6 }, (_, index) => toolCall('mcp__cam__shots', {}, `call_${index}`))), 'Looked.', turn('<summary>\n## Goal\nLook.\n</summary>')]);
    const agent = createAgent({ model, mcpServers: { cam: { type: 'sdk', server: shotsServer(20, 0) } }, context: { compaction: { keepTokens: 0 } } });
    agents.push(agent);
    expect((await agent.run('Look at every screen.').result).status).toBe('completed');
    expect((await agent.compact()).compacted).toBe(true);
    const summary = model.requests.at(-1)!;
    expect(imagesOf(summary.messages).filter((block) => block.image)).toHaveLength(100);
  });

  it('counts the images of user messages and URL images too, and keeps a dropped image\'s cache_control on its note', () => {
    const png = { type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/png', data: PIXEL_PNG } };
    const messages: Message[] = [
      { role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'https://example.com/a.png' }, cache_control: { type: 'ephemeral' } }, { type: 'text', text: 'Look.' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Seen.' }] },
      { role: 'user', content: Array.from({ length: 100 }, () => ({ ...png })) },
    ];
    const capped = capRequestImages(messages);
    expect(capped[0]!.content).toEqual([
      { type: 'text', text: '[Image https://example.com/a.png not sent: a request may carry at most 100 images and 20 MB (base64) of them; the newest are kept]', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'Look.' },
    ]);
    expect(capped[1]).toBe(messages[1]);
    // 101 images: the oldest ten give way (a step of IMAGES_LEFT_OUT_AT_ONCE), the URL one first.
    expect(imagesOf(capped)).toHaveLength(101);
    expect(imagesOf(capped).slice(0, 10).every((block) => !block.image)).toBe(true);
    expect(imagesOf(capped).slice(10).filter((block) => block.image)).toHaveLength(91);
    const within = messages.slice(1);
    expect(capRequestImages(within)).toBe(within);
  });

  it('one history array asked turn after turn: the images of every message count, whether they come first, in the middle or last', () => {
    // A block of its own each: the history never shares one block between places.
    const pngs = (count: number) => Array.from({ length: count }, () => ({ type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/png', data: PIXEL_PNG } }));
    const text = (role: 'user' | 'assistant', words: string): Message => ({ role, content: [{ type: 'text', text: words }] });
    // Grown in place, as the agent grows its history: the first turn holds no media.
    const history: Message[] = [text('user', 'Start.')];
    expect(capRequestImages(history)).toBe(history);
    history.push(text('assistant', 'Calling.'), { role: 'user', content: pngs(60) });
    expect(capRequestImages(history)).toBe(history);
    history.push(text('assistant', 'More.'), { role: 'user', content: pngs(60) });
    expect(imagesOf(capRequestImages(history)).filter((block) => !block.image)).toHaveLength(20);
    // The 120 images are now in the counted part of the history: later text turns still cap them.
    history.push(text('assistant', 'Done.'), text('user', 'Thanks.'));
    expect(imagesOf(capRequestImages(history)).filter((block) => !block.image)).toHaveLength(20);
    // A first message over the limit on its own is capped too.
    const single: Message[] = [{ role: 'user', content: pngs(101) }];
    expect(imagesOf(capRequestImages(single)).filter((block) => !block.image)).toHaveLength(10);
  });
});

describe('the images of a history asked turn after turn, short and long', () => {
  const png = () => ({ type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/png', data: PIXEL_PNG } });
  const say = (role: 'user' | 'assistant', text: string): Message => ({ role, content: [{ type: 'text', text }] });

  // The loop keeps an agent's tally in a slot of its own; other callers by history array.
  const keepers: Array<[string, () => MediaTallySlot | undefined]> = [
    ['kept by history array', () => undefined],
    ["kept in the agent's slot", () => ({})],
  ];

  it.each(keepers)('the same capping as a fresh copy of the history at every length, across the length where a tally starts being kept (%s)', (_name, makeSlot) => {
    const slot = makeSlot();
    // Seeded: 40 growth steps, images arriving at random turns (also in tool results), many at once.
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let trial = 0; trial < 20; trial++) {
      const history: Message[] = [say('user', 'Start.')];
      for (let step = 0; step < 40; step++) {
        const role = history.length % 2 === 1 ? 'assistant' : 'user';
        const images = random() < 0.3 ? Math.floor(random() * 40) : 0;
        const content = Array.from({ length: images }, png);
        if (role === 'user' && random() < 0.5) history.push({ role, content: [{ type: 'tool_result', tool_use_id: `toolu_${step}`, content: content.length > 0 ? content : 'ok' }] });
        else history.push(images > 0 && role === 'user' ? { role, content } : say(role, `turn ${step}`));
        const asked = imagesOf(capRequestImages(history, slot));
        expect(asked).toEqual(imagesOf(capRequestImages([...history])));
        // Small images only: the oldest beyond 100 become notes, ten at a time.
        const total = imagesOf(history).length;
        const leftOut = total > 100 ? Math.min(total, Math.ceil((total - 100) / 10) * 10) : 0;
        expect(asked.filter((block) => !block.image)).toHaveLength(leftOut);
        expect(asked.slice(0, leftOut).every((block) => !block.image)).toBe(true);
      }
    }
  });

  it.each(keepers)('a long history whose last message is replaced, or that is cut back, is counted again (%s)', (_name, makeSlot) => {
    const slot = makeSlot();
    const history: Message[] = [say('user', 'Start.')];
    for (let step = 0; step < 10; step++) history.push(say('assistant', 'Calling.'), { role: 'user', content: Array.from({ length: 9 }, png) });
    expect(imagesOf(capRequestImages(history, slot)).filter((block) => !block.image)).toHaveLength(0);
    // The last message (not yet in the kept tally) grows past the limit.
    history[history.length - 1] = { role: 'user', content: Array.from({ length: 31 }, png) };
    expect(imagesOf(capRequestImages(history, slot)).filter((block) => !block.image)).toHaveLength(20);
    // Cut back to 12 messages, then grown with a message of 60 images: 5 × 9 + 60 = 105.
    history.length = 11;
    history.push({ role: 'user', content: Array.from({ length: 60 }, png) });
    expect(imagesOf(capRequestImages(history, slot)).filter((block) => !block.image)).toHaveLength(10);
  });

  it("a slot asked about another history array (a compaction's, a clearing's) counts that one afresh", () => {
    const slot: MediaTallySlot = {};
    const plain: Message[] = [say('user', 'Start.')];
    for (let step = 0; step < 10; step++) plain.push(say('assistant', 'Calling.'), say('user', 'ok'));
    expect(imagesOf(capRequestImages(plain, slot))).toHaveLength(0);
    // Another array of the same length, sharing its assistant messages, with 11 images in each
    // user message: 110, so the 10 oldest become notes (the plain history's tally would say 11).
    const withImages: Message[] = plain.map((message, index) => (index % 2 === 0 && index > 0 ? { role: 'user', content: Array.from({ length: 11 }, png) } : message));
    expect(imagesOf(capRequestImages(withImages, slot)).filter((block) => !block.image)).toHaveLength(10);
    expect(imagesOf(capRequestImages(plain, slot))).toHaveLength(0);
  });
});

describe('the pixel size of the images of one request', () => {
  const image = (header: Uint8Array, label?: string) => ({ type: 'image' as const, source: { type: 'base64' as const, media_type: label ?? imageMediaType(header)!, data: base64(header) } });
  const user = (...content: Message['content'] & unknown[]): Message => ({ role: 'user', content: content as never });
  const assistant: Message = { role: 'assistant', content: [{ type: 'text', text: 'Seen.' }] };
  const kinds = (messages: readonly Message[]) => imagesOf(messages).map((block) => (block.image ? 'image' : block.note!.replace(/^\[Image of type [^ ]+ \(([^)]*)\) not sent: (.*)\]$/, '$1 | $2')));

  it('an image larger than 8000 pixels a side becomes a note in every request, whatever the count; the history keeps it', () => {
    const messages: Message[] = [user(image(pngHeader(8001, 10)), { type: 'text', text: 'Look.' }), assistant, user(image(jpegHeader(10, 9000, { exif: 5000 })), image(pngHeader(8000, 8000)))];
    const capped = capRequestImages(messages);
    expect(kinds(capped)).toEqual([
      expect.stringMatching(/^8001×10 pixels, \d+ bytes \| the API takes no image larger than 8000×8000 pixels$/),
      expect.stringMatching(/^10×9000 pixels, \d+ KiB \| the API takes no image larger than 8000×8000 pixels$/),
      'image',
    ]);
    expect(capped[1]).toBe(messages[1]);
    expect(kinds(messages)).toEqual(['image', 'image', 'image']);
  });

  it('more than 20 images: the oldest larger than 2000 pixels become notes until 20 remain or none is large', () => {
    const small = () => image(gifHeader(2000, 2000));
    const large = (side: number) => image(webpHeader(side));
    // 23 images, 12 of them large: leaving out three would bring the request to 20; they go ten at
    // a time (a step of IMAGES_LEFT_OUT_AT_ONCE), the oldest first: 13 images are sent.
    const messages: Message[] = [user(large(2001), small(), ...[3000, 2200, 2300, 2400, 2500, 2600, 2700, 2800].map(large)), assistant, user(...Array.from({ length: 10 }, small), large(4000), large(2500), large(3500))];
    const sent = kinds(capRequestImages(messages));
    expect(sent).toHaveLength(23);
    expect(sent.filter((kind) => kind === 'image')).toHaveLength(13);
    expect(sent[0]).toMatch(/^2001×2001 pixels, .* \| a request of more than 20 images may carry none larger than 2000×2000 pixels; the newest are kept$/);
    expect(sent[1]).toBe('image');
    expect(sent.slice(2, 10).map((kind) => kind.split(' pixels')[0])).toEqual(['3000×3000', '2200×2200', '2300×2300', '2400×2400', '2500×2500', '2600×2600', '2700×2700', '2800×2800']);
    expect(sent[20]).toMatch(/^4000×4000 pixels/);
    expect(sent.slice(21)).toEqual(['image', 'image']);
    expect(sent.slice(10, 20)).toEqual(Array.from({ length: 10 }, () => 'image'));
    // 22 images, 4 large: a step of ten is more than there are: all four go.
    const four: Message[] = [user(large(2001), small(), large(3000)), assistant, user(...Array.from({ length: 17 }, small), large(4000), large(2500))];
    expect(kinds(capRequestImages(four)).filter((kind) => kind !== 'image')).toHaveLength(4);
    // 25 images, 3 large: all three go, 22 small ones remain.
    const many: Message[] = [user(large(2001), ...Array.from({ length: 21 }, small), large(3000), small(), large(7000))];
    expect(kinds(capRequestImages(many)).filter((kind) => kind !== 'image')).toHaveLength(3);
    // 20 images, large or not, go as they are (the same array).
    const twenty: Message[] = [user(...Array.from({ length: 19 }, () => large(7999)), small())];
    expect(capRequestImages(twenty)).toBe(twenty);
  });

  it('an agent whose tool answers with a 9000-pixel screenshot sends a note instead, and the next turns too', async () => {
    const header = pngHeader(9000, 1200);
    const server = () => {
      const mcp = new McpServer({ name: 'cam', version: '1.0.0' });
      mcp.registerTool('shot', { description: 'Takes a screenshot.', annotations: { readOnlyHint: true } }, async () => ({ content: [{ type: 'image' as const, mimeType: 'image/png', data: base64(header) }] }));
      return mcp;
    };
    const model = scriptedModel([turn(toolCall('mcp__cam__shot', {}, 'call_0')), 'A wide one.', 'Still.']);
    const agent = createAgent({ model, mcpServers: { cam: { type: 'sdk', server } } });
    agents.push(agent);
    expect((await agent.run('Look.').result).status).toBe('completed');
    expect((await agent.run('Again?').result).status).toBe('completed');
    for (const request of model.requests.slice(1)) expect(kinds(request.messages)).toEqual([expect.stringMatching(/^9000×1200 pixels, .* \| the API takes no image larger than 8000×8000 pixels$/)]);
    expect(imagesOf(agent.messages).filter((block) => block.image)).toHaveLength(1);
  });

  it('documents count toward the limit of 100 with the images ("too many images and documents: 104 + 1 > 100"): the oldest images give way', () => {
    const pdf = { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQK' } } as never;
    const messages: Message[] = [user(pdf, ...Array.from({ length: 50 }, () => image(gifHeader(10, 10)))), assistant, user(...Array.from({ length: 9 }, () => pdf), ...Array.from({ length: 45 }, () => image(gifHeader(10, 10))))];
    const capped = capRequestImages(messages);
    const sent = kinds(capped);
    // 10 documents leave room for 90 images; 95 are 5 too many: the oldest ten give way.
    expect(sent.filter((kind) => kind === 'image')).toHaveLength(85);
    expect(sent.slice(0, 10).every((kind) => kind.endsWith('the newest are kept') && kind.includes('at most 100 images'))).toBe(true);
    // Every document is sent.
    expect(capped.flatMap((message) => (Array.isArray(message.content) ? message.content : [])).filter((block) => block.type === 'document')).toHaveLength(10);
    const within = messages.slice(2);
    expect(capRequestImages(within)).toBe(within);
  });

  it('the base64 of documents shares the 20 MB with the images: a 16 MB PDF leaves room for 4 MB of the newest images, freed 4 MB at a time', () => {
    const mb = 1024 * 1024;
    const big = { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQK' + 'A'.repeat(16 * mb - 12) } } as never;
    const megabyteImage = () => ({ type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/gif', data: base64(gifHeader(10, 10)) + 'A'.repeat(mb - 16) } });
    // 6 MB of images where 4 fit: 2 MB too many, so the oldest 4 MB give way (a step of
    // IMAGE_CHARS_LEFT_OUT_AT_ONCE), the two newest are sent.
    const messages: Message[] = [user(big, ...Array.from({ length: 6 }, megabyteImage))];
    const sent = kinds(capRequestImages(messages));
    expect(sent).toHaveLength(6);
    expect(sent.filter((kind) => kind === 'image')).toHaveLength(2);
    expect(sent.slice(0, 4).every((kind) => kind.includes('at most 100 images and 20 MB'))).toBe(true);
    // 9 MB: 5 MB too many, 8 MB give way.
    const nine: Message[] = [user(big, ...Array.from({ length: 9 }, megabyteImage))];
    expect(kinds(capRequestImages(nine)).filter((kind) => kind === 'image')).toHaveLength(1);
  });

  it('a URL image, or one whose size its header does not state, is sent as it is', () => {
    const messages: Message[] = [
      user(...Array.from({ length: 30 }, () => ({ type: 'image' as const, source: { type: 'url' as const, url: 'https://example.com/huge.png' } })), image(bytes([0xff, 0xd8, 0xff, 0xe0]))),
    ];
    expect(capRequestImages(messages)).toBe(messages);
  });

  it('an image the API refuses whatever the request holds: data that is no image, over 5 MB, a label its bytes contradict', () => {
    const messages: Message[] = [
      user(
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'bm90IGFuIGltYWdl' } },
        { type: 'image', source: { type: 'base64', media_type: 'image/gif', data: base64(gifHeader(10, 10)) + 'A'.repeat(5 * 1024 * 1024) } },
        image(jpegHeader(100, 100), 'image/png'),
        image(pngHeader(10, 10)),
      ),
    ];
    const capped = capRequestImages(messages);
    const content = capped[0]!.content as Array<{ type: string; text?: string; source?: { media_type?: string } }>;
    expect(content[0]!.text).toBe('[Image of type image/png (12 bytes) not sent: its data is not a JPEG, PNG, GIF or WebP image, the only kinds the API takes]');
    expect(content[1]!.text).toMatch(/^\[Image of type image\/gif \(10×10 pixels, \d+ KiB\) not sent: the API takes no image over 5 MB \(base64\)\]$/);
    expect(content[2]).toMatchObject({ type: 'image', source: { media_type: 'image/jpeg' } });
    expect(content[3]).toBe(messages[0]!.content[3]);
    // The history keeps the blocks as they were.
    expect((messages[0]!.content as Array<{ source: { media_type: string } }>)[2]!.source.media_type).toBe('image/png');
  });
});
