import { describe, expect, it } from 'vitest';
import { createAgent, memoryMemoryStore, memoryTool } from 'agent-harness';
import { scriptedModel } from 'agent-harness/testing';

describe('tool definitions sent to the model', () => {
  it('carry a provider tool type (the memory tool goes out as memory_20250818, not a custom tool)', async () => {
    const model = scriptedModel(['ok']);
    const agent = createAgent({ model, tools: [memoryTool({ store: memoryMemoryStore() })] });
    await agent.run('remember this').result;
    const sent = model.requests[0]!.request.tools.find((tool) => tool.name === 'memory');
    expect(sent).toMatchObject({ name: 'memory', type: 'memory_20250818' });
    expect(model.requests[0]!.request.tools.find((tool) => tool.name === 'TodoWrite')).not.toHaveProperty('type');
  });
});
