import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { describeClearedCall } from '../../src/context/clearing/clear-stale-tool-results.js';
import { describeInputChange } from '../../src/loop/describe-input-change.js';
import { createMcpTool } from '../../src/mcp/mcp-tool.js';
import { codePointBoundary, wellFormedText } from '../../src/model/code-point-boundary.js';
import { describeValue } from '../../src/plan/value-schema.js';

/** No lone surrogate (with the u flag, a pair is one code point and does not match). */
const wellFormed = (text: string) => !/\p{Surrogate}/u.test(text);

describe('codePointBoundary', () => {
  it('moves a cut between the halves of a pair back, or forward when asked; leaves any other index alone', () => {
    const text = 'a😀b';
    expect(codePointBoundary(text, 2)).toBe(1);
    expect(codePointBoundary(text, 2, 'forward')).toBe(3);
    for (const index of [-1, 0, 1, 3, 4, 5]) expect(codePointBoundary(text, index)).toBe(index);
    // Lone halves already in the text are not pairs: nothing to protect.
    expect(codePointBoundary('a\ud83d\ud83db', 2)).toBe(2);
    expect(codePointBoundary('a\ude00\ude00b', 2)).toBe(2);
  });
});

describe('text shortened for the model never ends in half a character', () => {
  const emoji = (count: number) => '😀'.repeat(count);

  it('the stub of a cleared result, and its input preview', () => {
    const stub = describeClearedCall({
      toolUseId: 't',
      toolName: 'Read',
      input: { path: emoji(200) },
      result: { type: 'tool_result', tool_use_id: 't', content: `x${emoji(200)}` },
      chars: 401,
      spilledHandle: undefined,
    });
    expect(wellFormed(stub)).toBe(true);
    expect(stub).not.toMatch(/\\ud[89ab]/i);
  });

  it('the note that an input was changed', () => {
    expect(wellFormed(describeInputChange({ text: 'a' }, { text: `"${emoji(200)}` })!)).toBe(true);
  });

  it('a long MCP tool description and a described value in a validation issue', () => {
    const tool = createMcpTool({ name: 'mcp__s__t', server: 's', info: { name: 't', description: emoji(2_000), inputSchema: { type: 'object' } }, deferLoading: false, call: async () => ({}) });
    expect(tool.description.length).toBeLessThanOrEqual(2_048);
    expect(wellFormed(tool.description)).toBe(true);
    expect(wellFormed(describeValue(`x${emoji(200)}`))).toBe(true);
    expect(wellFormed(describeValue([`${emoji(200)}`]))).toBe(true);
  });
});

describe('a lone surrogate in what a tool returns', () => {
  it('becomes U+FFFD in the tool result (string and text blocks), so the API takes it; whole characters stay', async () => {
    const broken = defineTool({ name: 'broken', description: 'Broken.', inputSchema: z.object({ blocks: z.boolean() }), readOnly: true, execute: ({ input }) => (input.blocks ? [{ type: 'text' as const, text: 'x\udc00y 😀' }] : 'a\ud800b 😀') });
    const model = scriptedModel([turn(toolCall('broken', { blocks: false }, 'b1'), toolCall('broken', { blocks: true }, 'b2')), 'Done.']);
    await createAgent({ model, tools: [broken] }).run('Go.').result;
    const results = model.requests[1]!.messages.at(-1)!.content as Array<{ content: unknown }>;
    expect(results[0]!.content).toBe('a\ufffdb 😀');
    expect(results[1]!.content).toEqual([{ type: 'text', text: 'x\ufffdy 😀' }]);
  });
});

describe('wellFormedText', () => {
  it('replaces lone surrogates with U+FFFD, natively and without String.prototype.toWellFormed (older browsers)', () => {
    const text = 'a\ud800b\udc00c 😀 \ud83d';
    const expected = 'a\ufffdb\ufffdc 😀 \ufffd';
    expect(wellFormedText(text)).toBe(expected);
    const prototype = String.prototype as { toWellFormed?: () => string };
    const native = prototype.toWellFormed;
    delete prototype.toWellFormed;
    try {
      expect(wellFormedText(text)).toBe(expected);
      expect(wellFormedText('plain 😀')).toBe('plain 😀');
    } finally {
      if (native) prototype.toWellFormed = native;
    }
  });
});

