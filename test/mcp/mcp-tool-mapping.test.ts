import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mcpResultToOutput, mcpToolName } from '../../src/mcp/index.js';
import { assertMcpServerConfig } from '../../src/mcp/index.js';
import { ConfigurationError } from 'agent-harness';
import { PIXEL_PNG } from './fixtures/notes-server.js';

describe('mcpToolName', () => {
  it('names a tool mcp__<server>__<tool>, with characters the API refuses turned into _', () => {
    expect(mcpToolName('github', 'create_issue')).toBe('mcp__github__create_issue');
    expect(mcpToolName('fs', 'read.file/v2')).toBe('mcp__fs__read_file_v2');
  });

  it('keeps every name within 64 valid characters and distinct tools distinct, also when cut or colliding (property)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 90 }), { minLength: 1, maxLength: 20 }), (tools) => {
        const taken = new Set<string>();
        for (const tool of tools) {
          const name = mcpToolName('some-server_x', tool, taken);
          if (!/^[A-Za-z0-9_-]{1,64}$/.test(name) || taken.has(name)) return false;
          taken.add(name);
        }
        return true;
      }),
    );
  });
});

describe('mcpResultToOutput', () => {
  it('joins text-only content into one string and passes isError on', () => {
    expect(mcpResultToOutput({ content: [{ type: 'text', text: 'a' }, { type: 'text', text: '' }, { type: 'text', text: 'b' }] })).toEqual({ type: 'tool-output', content: 'a\n\nb', isError: false });
    expect(mcpResultToOutput({ content: [{ type: 'text', text: 'boom' }], isError: true })).toEqual({ type: 'tool-output', content: 'boom', isError: true });
  });

  it('shows structured content when there is no other content, and says when there is nothing', () => {
    expect(mcpResultToOutput({ content: [], structuredContent: { total: 3 } }).content).toBe('{\n  "total": 3\n}');
    expect(mcpResultToOutput({ content: [] }).content).toBe('(no output)');
    expect(mcpResultToOutput({ isError: true }).content).toBe('The tool reported an error without details.');
  });

  it('passes only image types the API takes, and notes the others and unknown content', () => {
    const output = mcpResultToOutput({
      content: [
        { type: 'image', data: 'AAAA', mimeType: 'image/svg+xml' },
        // A real PNG: bytes that are no image would be refused by the API (see hostile-mcp-images.test.ts).
        { type: 'resource', resource: { uri: 'file:///a.png', mimeType: 'image/png', blob: PIXEL_PNG } },
        { type: 'resource_link', uri: 'file:///b.md', name: 'b.md', description: 'the b file' },
        { type: 'hologram' },
      ],
    });
    expect(output.content).toEqual([
      { type: 'text', text: '[Image of type image/svg+xml (3 bytes) not shown: only JPEG, PNG, GIF and WebP images can be passed on]' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PIXEL_PNG } },
      { type: 'text', text: 'Resource link b.md <file:///b.md>: the b file' },
      { type: 'text', text: '[Content of type "hologram" not shown]' },
    ]);
  });
});

describe('MCP server configuration checks', () => {
  it('refuses bad names, types, URLs and numbers with the fix in the message', () => {
    const bad: Array<[string, unknown, RegExp]> = [
      ['a__b', { type: 'http', url: 'http://x' }, /single "_"/],
      ['ok', { type: 'ws', url: 'ws://x' }, /needs a type of 'http'/],
      ['ok', { type: 'http', url: 'ftp://x' }, /http\(s\) URL/],
      ['ok', { type: 'sdk', server: {} }, /MCP server object/],
      ['ok', { type: 'transport' }, /transport must be a function/],
      ['ok', { type: 'http', url: 'http://x', toolTimeoutMs: 0 }, /toolTimeoutMs must be a positive number/],
      ['ok', { type: 'http', url: 'http://x', reconnect: { maxAttempts: 1.5 } }, /maxAttempts must be an integer/],
    ];
    for (const [name, config, message] of bad) {
      expect(() => assertMcpServerConfig(name, config as never)).toThrow(ConfigurationError);
      expect(() => assertMcpServerConfig(name, config as never)).toThrow(message);
    }
  });
});
