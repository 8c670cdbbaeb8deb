import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type ToolAgentContext } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

describe('the agent context a tool is given', () => {
  it('reads the current mode and directories, even after the call has awaited, and is one object per agent', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const seen: Array<{ context: ToolAgentContext; before: string; after?: string; directories?: readonly string[] }> = [];
    const probe = defineTool({
      name: 'probe',
      description: 'Reads its context before and after waiting.',
      inputSchema: z.object({ wait: z.boolean() }),
      readOnly: true,
      execute: async ({ input, agent }) => {
        const entry: (typeof seen)[number] = { context: agent, before: agent.permissionMode };
        seen.push(entry);
        if (input.wait) await gate;
        entry.after = agent.permissionMode;
        entry.directories = agent.directories;
        return 'ok';
      },
    });
    const model = scriptedModel([turn(toolCall('probe', { wait: true }, 'call_1')), turn(toolCall('probe', { wait: false }, 'call_2')), 'done']);
    const agent = createAgent({ model, tools: [probe] });
    const run = agent.run('go');
    await agent.ready;
    while (seen.length === 0) await new Promise((resolve) => setImmediate(resolve));
    // The host changes the mode while the first call waits: a check after the await must see it
    // (a workspace tool checks bypassPermissions after resolving a path, for one).
    agent.setPermissionMode('acceptEdits');
    release();
    const result = await run.result;
    expect(result.status).toBe('completed');
    expect(seen[0]).toMatchObject({ before: 'default', after: 'acceptEdits', directories: [] });
    expect(seen[1]).toMatchObject({ before: 'acceptEdits', after: 'acceptEdits' });
    // One object for the agent, so a tool may key its own per-agent data on it.
    expect(seen[1]!.context).toBe(seen[0]!.context);
    // Its fields are its own: a spread or JSON copy carries the values of that moment.
    const copy = { ...seen[0]!.context };
    expect(copy).toMatchObject({ sessionId: agent.sessionId, permissionMode: 'acceptEdits', directories: [] });
    expect(JSON.parse(JSON.stringify(seen[0]!.context))).toMatchObject({ sessionId: agent.sessionId, permissionMode: 'acceptEdits' });
    expect(Object.keys(seen[0]!.context).sort()).toEqual(['agentId', 'directories', 'permissionMode', 'sessionId', 'toolState']);
    // The agent behind it is not reachable from the tool.
    expect(Object.getOwnPropertySymbols(seen[0]!.context)).toEqual([]);
  });

  it('gives two agents different contexts that read their own agents', async () => {
    const contexts: ToolAgentContext[] = [];
    const keep = ({ agent }: { agent: ToolAgentContext }) => {
      contexts.push(agent);
      return 'ok';
    };
    const probe = defineTool({ name: 'probe', description: 'Keeps its context.', inputSchema: z.object({}), readOnly: true, execute: keep });
    const one = createAgent({ model: scriptedModel([turn(toolCall('probe', {}, 'a')), 'done']), tools: [probe] });
    const two = createAgent({ model: scriptedModel([turn(toolCall('probe', {}, 'b')), 'done']), tools: [probe], permissionMode: 'plan' });
    await one.run('go').result;
    await two.run('go').result;
    expect(contexts[0]).not.toBe(contexts[1]);
    expect(contexts.map((context) => [context.sessionId, context.permissionMode])).toEqual([
      [one.sessionId, 'default'],
      [two.sessionId, 'plan'],
    ]);
  });
});
