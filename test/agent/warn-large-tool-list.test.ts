import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, deferTool, type AgentEvent } from 'agent-harness';
import { scriptedModel } from 'agent-harness/testing';

const manyTools = (count: number) =>
  Array.from({ length: count }, (_, index) =>
    defineTool({ name: `tool_${index}`, description: `Does thing ${index}. ${'A long explanation of what it does. '.repeat(10)}`, inputSchema: z.object({ value: z.string() }), execute: () => 'ok' }),
  );

async function warningsOf(options: Parameters<typeof createAgent>[0]): Promise<AgentEvent[]> {
  const agent = createAgent(options);
  const warnings: AgentEvent[] = [];
  agent.on('warning', (event) => warnings.push(event));
  await agent.ready;
  // The warning of an agent ready at once comes in a microtask, after the listeners.
  await Promise.resolve();
  return warnings;
}

describe('a tool list that fills the context window', () => {
  it('draws one warning (source tools) naming the count, the tokens, the share and the cure', async () => {
    const warnings = await warningsOf({ model: scriptedModel([]), tools: manyTools(60), context: { window: 20_000 } });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ type: 'warning', source: 'tools' });
    const message = (warnings[0] as { message: string }).message;
    expect(message).toMatch(/^The 6\d tool definitions sent in full with every request take about \d+ tokens, \d+% of the model's 20000-token context window/);
    expect(message).toContain('deferLoading: true');
  });

  it('draws none when the list is small, or when the tools are deferred', async () => {
    expect(await warningsOf({ model: scriptedModel([]), tools: manyTools(3), context: { window: 20_000 } })).toEqual([]);
    expect(await warningsOf({ model: scriptedModel([]), tools: manyTools(60).map((tool) => deferTool(tool)), context: { window: 20_000 }, toolSearch: 'client' })).toEqual([]);
    expect(await warningsOf({ model: scriptedModel([]), tools: manyTools(60) })).toEqual([]);
  });
});
