import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { readToolOutputTool } from '../../../src/context/spill/read-tool-output-tool.js';
import { memorySpillStore, type SpillStore, type SpilledOutput } from '../../../src/context/spill/spill-store.js';
import type { ToolAgentContext } from '../../../src/tools/types.js';

// Handles are the model's input: one that names a property every object inherits must read as
// an unknown handle, not as an inherited function or object.
const HANDLES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];
const big = defineTool({ name: 'Big', description: 'Big.', inputSchema: z.object({}), readOnly: true, execute: () => 'line\n'.repeat(20_000) });

describe('a ReadToolOutput handle that names an inherited property', () => {
  it.each(HANDLES)('"%s" is an unknown handle in the session state', async (handle) => {
    const model = scriptedModel([turn(toolCall('Big', {})), turn(toolCall('ReadToolOutput', { handle })), 'Done.']);
    await createAgent({ model, tools: [big], context: { spill: true } }).run('Go.').result;
    const answer = (model.requests[2]!.messages.at(-1)!.content as Array<{ content: unknown; is_error?: boolean }>)[0]!;
    expect(String(answer.content)).toMatch(/No kept output has the handle/);
    expect(answer.is_error).toBe(true);
  });

  it('is unknown in the memory spill store too', () => {
    const store = memorySpillStore();
    store.save({ handle: 'out_x', toolUseId: 'x', toolName: 'T', text: 'abc' });
    for (const handle of HANDLES) expect(store.load(handle)).toBeUndefined();
  });

  it("ReadToolOutput answers so even when a host's store hands back what a plain object inherits", async () => {
    const kept: Record<string, SpilledOutput> = {};
    const naive: SpillStore = { save: (output) => void (kept[output.handle] = output), load: (handle) => kept[handle] };
    const tool = readToolOutputTool({ store: naive });
    const agent: ToolAgentContext = { sessionId: 's', agentId: undefined, permissionMode: 'default', toolState: { get: () => undefined, set: () => {} } };
    for (const handle of HANDLES) {
      const parsed = tool.parseInput({ handle });
      if (!parsed.ok) throw new Error(parsed.issues.join('; '));
      const answer = await tool.execute({ input: parsed.value, signal: new AbortController().signal, toolUseId: 'toolu_read', agent });
      expect(answer, handle).toMatchObject({ isError: true, content: expect.stringContaining(`No kept output has the handle "${handle}"`) });
    }
  });
});
