import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createAgent, type Agent, type ToolResultBlock } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { mcpResultToOutput } from '../../src/mcp/mcp-result-to-output.js';
import { PIXEL_PNG } from './fixtures/notes-server.js';

// An image the Messages API refuses (over its 5 MB, or bytes that are not the image type given)
// would sit in the history and make every later request of the session fail: a server's bad
// image becomes a note, and a mislabelled one is sent with the type its bytes have.

const JPEG = btoa(String.fromCharCode(0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1));
const BIG_PNG = PIXEL_PNG.slice(0, 16) + 'A'.repeat(5 * 1024 * 1024);

describe('images from an MCP server', () => {
  it('over the API limit become a note, not an image block', () => {
    const output = mcpResultToOutput({ content: [{ type: 'image', mimeType: 'image/png', data: BIG_PNG }] });
    expect(output.content).toEqual(expect.stringMatching(/^\[Image of type image\/png \(\d+ KiB\) not shown: .*5 MB/));
  });

  it('whose bytes are no image the API takes become a note', () => {
    const output = mcpResultToOutput({ content: [{ type: 'image', mimeType: 'image/png', data: btoa('<svg xmlns="http://www.w3.org/2000/svg"/>') }] });
    expect(output.content).toEqual(expect.stringMatching(/^\[Image of type image\/png .* not shown: its data is not a JPEG, PNG, GIF or WebP image\]$/));
  });

  it('labelled with the wrong type go with the type of their bytes', () => {
    const output = mcpResultToOutput({
      content: [
        { type: 'image', mimeType: 'image/png', data: JPEG },
        { type: 'resource', resource: { uri: 'file:///a.webp', mimeType: 'image/webp', blob: PIXEL_PNG } },
      ],
    });
    expect(output.content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: JPEG } },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PIXEL_PNG } },
    ]);
  });

  const agents: Agent[] = [];
  afterEach(async () => {
    await Promise.all(agents.splice(0).map((agent) => agent.close()));
  });

  it('a screenshot tool returning 6 MB leaves the session usable: the model reads a note', async () => {
    const server = () => {
      const made = new McpServer({ name: 'shots', version: '1.0.0' });
      made.registerTool('screenshot', { description: 'Takes a screenshot.', annotations: { readOnlyHint: true } }, async () => ({
        content: [{ type: 'image', mimeType: 'image/png', data: BIG_PNG }],
      }));
      return made;
    };
    const model = scriptedModel([turn(toolCall('mcp__shots__screenshot', {}, 'call_1')), 'Done.']);
    const agent = createAgent({ model, mcpServers: { shots: { type: 'sdk', server } } });
    agents.push(agent);
    const result = await agent.run('look').result;
    expect(result.status).toBe('completed');
    const answer = (model.requests[1]!.messages.at(-1)!.content as ToolResultBlock[])[0]!;
    expect(JSON.stringify(answer.content)).not.toContain('"type":"image"');
    expect(JSON.stringify(answer.content)).toMatch(/not shown/);
  });
});
