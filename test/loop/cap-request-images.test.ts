import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createAgent, type Agent, type Message } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { PIXEL_PNG } from '../mcp/fixtures/notes-server.js';
import { capRequestImages } from '../../src/loop/cap-request-images.js';

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
      { role: 'user', content: Array.from({ length: 100 }, () => png) },
    ];
    const capped = capRequestImages(messages);
    expect(capped[0]!.content).toEqual([
      { type: 'text', text: '[Image https://example.com/a.png not sent: a request may carry at most 100 images and 20 MB (base64) of them; the newest are kept]', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'Look.' },
    ]);
    expect(capped[1]).toBe(messages[1]);
    expect(capped[2]).toBe(messages[2]);
    const within = messages.slice(1);
    expect(capRequestImages(within)).toBe(within);
  });
});
