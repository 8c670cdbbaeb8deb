import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createAgent, type Agent, type Message } from 'agent-harness';
import { scriptedModel, toolCall, turn, validateMessagesRequest } from 'agent-harness/testing';
import { PIXEL_PNG } from '../mcp/fixtures/notes-server.js';

// The Messages API refuses a request holding an image over 8000 pixels on a side, and, in a
// request of more than 20 images, one over 2000. Such an image stays in the history, so every
// later request of the session would be refused: it must reach the model as a note instead.

const agents: Agent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
});

const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));
const be32 = (value: number) => [(value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff];

/** A PNG header claiming `width` × `height` (small data, as a server may send: a long strip, a huge canvas). */
function png(width: number, height: number): string {
  return Buffer.from([0x89, ...ascii('PNG'), 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, ...ascii('IHDR'), ...be32(width), ...be32(height), 8, 2, 0, 0, 0, 0, 0, 0, 0, ...Array(64).fill(0)]).toString('base64');
}

function screenshotServer(images: () => string[]) {
  return () => {
    const server = new McpServer({ name: 'cam', version: '1.0.0' });
    server.registerTool('shots', { description: 'Takes screenshots.', annotations: { readOnlyHint: true } }, async () => ({
      content: images().map((data) => ({ type: 'image' as const, mimeType: 'image/png', data })),
    }));
    return server;
  };
}

/** The images and the "not sent" notes of a request, in order. */
function imagesOf(messages: readonly Message[]): string[] {
  const found: string[] = [];
  const visit = (block: { type: string; text?: string; source?: { data?: string }; content?: unknown }) => {
    if (block.type === 'image') found.push(block.source!.data!);
    if (block.type === 'text' && block.text?.includes('not sent')) found.push(block.text);
    if (block.type === 'tool_result' && Array.isArray(block.content)) block.content.forEach(visit);
  };
  for (const message of messages) if (Array.isArray(message.content)) (message.content as never[]).forEach(visit);
  return found;
}

async function run(calls: number, images: () => string[]) {
  const model = scriptedModel([turn(...Array.from({ length: calls }, (_, index) => toolCall('mcp__cam__shots', {}, `call_${index}`))), 'Seen.', 'And again.']);
  const agent = createAgent({ model, mcpServers: { cam: { type: 'sdk', server: screenshotServer(images) } } });
  agents.push(agent);
  expect((await agent.run('Look at the screen.').result).status).toBe('completed');
  expect((await agent.run('Anything else?').result).status).toBe('completed');
  return model;
}

describe('attack: an MCP server that answers with images larger than the model takes', () => {
  it('an image over 8000 pixels on a side is sent as a note naming its size, in this request and every later one; the others go', async () => {
    const model = await run(1, () => [png(9000, 12), PIXEL_PNG, png(8000, 8000)]);
    for (const request of model.requests.slice(1)) {
      const sent = imagesOf(request.messages);
      expect(sent).toHaveLength(3);
      expect(sent[0]).toMatch(/^\[Image of type image\/png \(9000×\d+ pixels, \d+ bytes\) not sent: .*8000/);
      expect(sent.slice(1)).toEqual([PIXEL_PNG, png(8000, 8000)]);
      expect(validateMessagesRequest(request.messages)).toBeUndefined();
    }
    // No request carries it.
    expect(JSON.stringify(model.requests.at(-1)!.messages)).not.toContain(png(9000, 12));
  });

  it('in a request of more than 20 images, those over 2000 pixels go as notes, oldest first and ten at a time, until at most 20 are left; small ones all go', async () => {
    let call = 0;
    // Two parallel calls of 13 images each: 26, of which the first call's 13 are 2100 pixels wide.
    const model = await run(2, () => (call++ === 0 ? Array.from({ length: 13 }, () => png(2100, 1000)) : Array.from({ length: 13 }, () => PIXEL_PNG)));
    const sent = imagesOf(model.requests[1]!.messages);
    expect(sent).toHaveLength(26);
    const notes = sent.filter((item) => item.startsWith('['));
    // Six too many: the oldest large ones go ten at a time (IMAGES_LEFT_OUT_AT_ONCE).
    expect(notes).toHaveLength(10);
    expect(notes[0]).toMatch(/\(2100×\d+ pixels, \d+ bytes\) not sent: a request of more than 20 images may carry none larger than 2000×2000 pixels; the newest are kept\]$/);
    expect(sent.slice(0, 10).every((item) => item.startsWith('['))).toBe(true);
    expect(sent.slice(10).every((item) => !item.startsWith('['))).toBe(true);
  });

  it('20 images over 2000 pixels (none over 8000) are sent as they are', async () => {
    const model = await run(1, () => Array.from({ length: 20 }, () => png(4000, 3000)));
    expect(imagesOf(model.requests[1]!.messages).filter((item) => item.startsWith('['))).toEqual([]);
  });
});
