import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { LONE_SURROGATE } from '../../src/model/code-point-boundary.js';

describe('blocks a tool returns', () => {
  it('an image block without a source (or text without text) is sent as JSON text, not as a block the API refuses', async () => {
    const odd = defineTool({ name: 'odd', description: 'Odd.', inputSchema: z.object({}), readOnly: true, execute: () => [{ type: 'image' }] as never });
    const model = scriptedModel([turn(toolCall('odd', {}, 'o1')), 'Done.']);
    await createAgent({ model, tools: [odd] }).run('Go.').result;
    const result = (model.requests[1]!.messages.at(-1)!.content as Array<{ content: unknown }>)[0]!;
    expect(typeof result.content).toBe('string');
    expect(result.content).toContain('"type": "image"');
  });
});

/** The text of the one tool result the model was sent on its second call, and whether it is an error. */
async function resultOf(execute: () => unknown, options: { maxToolResultChars?: number; canUseTool?: never } = {}) {
  // Asked about (not read-only) only when there is a canUseTool to ask.
  const probe = defineTool({ name: 'probe', description: 'Probes.', inputSchema: z.object({}), readOnly: !options.canUseTool, execute: execute as never });
  const model = scriptedModel([turn(toolCall('probe', {}, 'p1')), 'Done.']);
  const agent = createAgent({ model, tools: [probe], ...options });
  expect((await agent.run('Go.').result).status).toBe('completed');
  const result = (model.requests[1]!.messages.at(-1)!.content as Array<{ content: string | Array<{ type: string; text?: string }>; is_error?: boolean }>)[0]!;
  const blocks = typeof result.content === 'string' ? [{ type: 'text', text: result.content }] : result.content;
  return { blocks, text: blocks.map((block) => block.text ?? '').join(''), isError: result.is_error === true };
}

const NOTE = /\[Output truncated: showing the first (\d+) of (\d+) characters\.\]$/;
const manyBlocks = (count: number, size: number, char = 'y') => Array.from({ length: count }, () => ({ type: 'text', text: char.repeat(size) }));

describe('maxToolResultChars bounds the whole result', () => {
  it('a result of many text blocks: the blocks together, cut once, with one note', async () => {
    const { blocks, text } = await resultOf(() => manyBlocks(50, 1_000), { maxToolResultChars: 1_000 });
    expect(text.replace(NOTE, '').replace(/\s+$/, '')).toBe('y'.repeat(1_000));
    expect(text.match(NOTE)!.slice(1)).toEqual(['1000', '50000']);
    expect(text.match(/Output truncated/g)).toHaveLength(1);
    // The first block whole, then the note where the second would have started.
    expect(blocks).toHaveLength(2);
  });

  it('a toolOutput({ content }) of blocks, cut inside the third block; images are kept', async () => {
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } };
    const { blocks, text } = await resultOf(() => ({ type: 'tool-output', content: [...manyBlocks(2, 400), image, ...manyBlocks(10, 400, 'z')] }), { maxToolResultChars: 1_000 });
    expect(blocks.map((block) => block.type)).toEqual(['text', 'text', 'image', 'text']);
    expect(text.replace(NOTE, '').replace(/\s+$/, '')).toBe('y'.repeat(800) + 'z'.repeat(200));
    expect(text.match(NOTE)!.slice(1)).toEqual(['1000', '4800']);
  });

  it('blocks within the limit together are sent as they are', async () => {
    const { blocks, text } = await resultOf(() => manyBlocks(4, 250), { maxToolResultChars: 1_000 });
    expect(blocks).toHaveLength(4);
    expect(text).toBe('y'.repeat(1_000));
  });

  it('an error thrown with a huge message is cut too, and still an error', async () => {
    const { text, isError } = await resultOf(() => { throw new Error('e'.repeat(50_000)); }, { maxToolResultChars: 1_000 });
    expect(isError).toBe(true);
    expect(text.length).toBeLessThan(1_100);
    expect(text).toMatch(/^Tool "probe" failed: e+\n\n\[Output truncated: showing the first 1000 of 50021 characters\.\]$/);
  });

  it('a denial with a huge message is cut too', async () => {
    const { text, isError } = await resultOf(() => 'not run', { maxToolResultChars: 1_000, canUseTool: (() => ({ behavior: 'deny', message: 'n'.repeat(50_000) })) as never });
    expect(isError).toBe(true);
    expect(text).toMatch(NOTE);
    expect(text.length).toBeLessThan(1_100);
  });

  it('never cuts a surrogate pair, whatever block the limit falls in', async () => {
    for (let offset = 0; offset < 4; offset++) {
      const { text } = await resultOf(() => [{ type: 'text', text: 'a'.repeat(497 + offset) }, { type: 'text', text: '😀'.repeat(600) }], { maxToolResultChars: 1_000 });
      expect(LONE_SURROGATE.test(text)).toBe(false);
      expect(text).toMatch(NOTE);
    }
    const { text } = await resultOf(() => { throw new Error('😀'.repeat(600)); }, { maxToolResultChars: 1_000 });
    expect(LONE_SURROGATE.test(text)).toBe(false);
  });
});
