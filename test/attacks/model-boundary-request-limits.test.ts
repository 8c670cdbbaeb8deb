// Attack class: the model boundary, request limits. Images a tool returns (screenshots of any
// size, many at once) and documents a host sends must never make a request the real API refuses:
// the loopback server enforces the API's media rules with its wording, and the agent's requests,
// through the real @anthropic-ai/sdk client, must pass them turn after turn.
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { anthropicModel, createAgent, type Agent, type Message } from 'agent-harness';
import { validateMessagesRequest } from 'agent-harness/testing';
import { startMessagesServer, type MessagesServer } from 'agent-harness/testing/messages-server';
import { base64, gifHeader, pngHeader } from '../model/image-headers.js';

let server: MessagesServer | undefined;
const agents: Agent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
  await server?.close();
  server = undefined;
});

const image = (data: Uint8Array) => ({ type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/png', data: base64(data) } });
const pdf = { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQK' } };

describe('the loopback server refuses what the API refuses about media, in its words', () => {
  it('more than 100 images and documents, an image over 8000 pixels, one over 2000 among more than 20', () => {
    const user = (...content: unknown[]) => [{ role: 'user', content }] as unknown as Message[];
    expect(validateMessagesRequest(user(...Array.from({ length: 100 }, () => image(gifHeader(1, 1))), pdf))).toBe('too many images and documents: 100 + 1 > 100');
    expect(validateMessagesRequest(user({ type: 'text', text: 'Look.' }, image(pngHeader(8001, 2))))).toBe('messages.0.content.1.image.source.base64.data: At least one of the image dimensions exceed max allowed size: 8000 pixels');
    expect(validateMessagesRequest(user(...Array.from({ length: 20 }, () => image(pngHeader(2001, 2)))))).toBeUndefined();
    expect(validateMessagesRequest(user(...Array.from({ length: 20 }, () => image(gifHeader(1, 1))), image(pngHeader(2, 2001))))).toBe(
      'messages.0.content.20.image.source.base64.data: At least one of the image dimensions exceed max allowed size for many-image requests: 2000 pixels',
    );
    const inResult = [
      { role: 'user', content: 'Go.' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'shot', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [image(pngHeader(9000, 9000))] }] },
    ] as unknown as Message[];
    expect(validateMessagesRequest(inResult)).toBe('messages.2.content.0.content.0.image.source.base64.data: At least one of the image dimensions exceed max allowed size: 8000 pixels');
  });
});

describe('attack: media from tools and the host never make a request the API refuses', () => {
  it('screenshots of 3000 and 9000 pixels from parallel tool calls, then PDFs from the host: every request passes, through the real client', async () => {
    server = await startMessagesServer();
    const shots = () => {
      const mcp = new McpServer({ name: 'cam', version: '1.0.0' });
      mcp.registerTool('shots', { description: 'Takes screenshots.', annotations: { readOnlyHint: true } }, async () => ({
        content: [...Array.from({ length: 9 }, () => ({ type: 'image' as const, mimeType: 'image/png', data: base64(pngHeader(3000, 1800)) })), { type: 'image' as const, mimeType: 'image/png', data: base64(pngHeader(9000, 100)) }],
      }));
      return mcp;
    };
    const call = (id: string) => ({ type: 'tool_use' as const, id, name: 'mcp__cam__shots', input: {} });
    server.enqueue({ content: [call('toolu_1'), call('toolu_2'), call('toolu_3')] }, { content: [{ type: 'text', text: 'Seen them.' }] }, { content: [{ type: 'text', text: 'Read them.' }] });
    const agent = createAgent({ model: anthropicModel({ model: 'claude-sonnet-4-6', apiKey: 'k', baseURL: server.url, maxRetries: 0 }), mcpServers: { cam: { type: 'sdk', server: shots } } });
    agents.push(agent);
    const first = await agent.run('Take the screenshots.').result;
    expect(first.error).toBeUndefined();
    expect(first.status).toBe('completed');
    const second = await agent.run([...Array.from({ length: 95 }, () => pdf), { type: 'text', text: 'And these papers?' }] as never).result;
    expect(second.error).toBeUndefined();
    expect(second.status).toBe('completed');
    expect(server.errors).toEqual([]);
    expect(server.requests).toHaveLength(3);
    // The history keeps all 30 screenshots.
    const kept = agent.messages.flatMap((message) => (Array.isArray(message.content) ? message.content : [])).flatMap((block) => (block.type === 'tool_result' && Array.isArray(block.content) ? block.content : [])).filter((block) => block.type === 'image');
    expect(kept).toHaveLength(30);
  });
});
