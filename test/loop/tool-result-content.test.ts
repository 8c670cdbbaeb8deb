import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

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
