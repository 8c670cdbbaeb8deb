// Attack class: the order of the tools in a request (docs/architecture.md, "Tools and tool
// sources": loaded function tools, the client-side ToolSearch when it is used, server tools, then
// deferred tools with `defer_loading: true`, left out for models whose `capabilities.toolSearch`
// is 'none'). The host passes its tools in a shuffled order, deferred and server tools first; the
// request must still keep that order, and the same one on every turn (the cached prefix).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, serverTool, type ToolSearchSupport } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

const tool = (name: string, deferLoading = false) => defineTool({ name, description: `The ${name} tool.`, inputSchema: z.object({}), readOnly: true, deferLoading, execute: () => name });
const webSearch = serverTool({ type: 'web_search_20250305', name: 'web_search' });

async function requestTools(toolSearch: ToolSearchSupport, mode: 'auto' | 'client') {
  const model = scriptedModel([turn(toolCall('alpha', {}, 'c1')), 'Done.'], { capabilities: { toolSearch } });
  const agent = createAgent({ model, toolSearch: mode, todoWrite: false, exitPlanMode: false, tools: [tool('late_one', true), webSearch, tool('zeta'), tool('late_two', true), tool('alpha')] });
  await agent.run('Go.').result;
  const names = model.requests.map((request) =>
    (request.request.tools ?? []).map((definition) => `${definition.name}${'defer_loading' in definition && definition.defer_loading ? ' (deferred)' : ''}`),
  );
  return names;
}

describe('attack: the tools of a request, in the documented order', () => {
  it('a model with a server-side search: loaded, server tools (the search among them), then deferred, the same on every turn', async () => {
    const [first, second] = await requestTools('server', 'auto');
    expect(second).toEqual(first);
    const deferredAt = first!.findIndex((name) => name.endsWith('(deferred)'));
    expect(first!.slice(0, 2)).toEqual(['zeta', 'alpha']);
    expect(first!.slice(deferredAt)).toEqual(['late_one (deferred)', 'late_two (deferred)']);
    expect(first!.slice(2, deferredAt)).toContain('web_search');
  });

  it("a model without tool search: loaded, the client-side ToolSearch, server tools; deferred tools left out", async () => {
    const [first, second] = await requestTools('none', 'client');
    expect(second).toEqual(first);
    expect(first).toEqual(['zeta', 'alpha', 'ToolSearch', 'web_search']);
  });
});
