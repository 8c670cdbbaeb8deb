import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BUILTIN_AGENTS, createAgent, defineTool, memorySessionStore, type AgentEvent, type CanUseToolContext } from 'agent-harness';
import { scriptedModel, toolCall, turn, validateMessagesRequest } from 'agent-harness/testing';

function tools() {
  const writes: string[] = [];
  const reads: string[] = [];
  const read = defineTool({ name: 'read', description: 'Reads.', inputSchema: z.object({ path: z.string() }), readOnly: true, execute: ({ input }) => (reads.push(input.path), `contents of ${input.path}`) });
  const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ text: z.string() }), kind: 'edit', execute: ({ input }) => (writes.push(input.text), `wrote ${input.text}`) });
  return { writes, reads, read, write };
}

const agentCall = (subagent_type: string, prompt: string, id: string, extra: Record<string, unknown> = {}) =>
  toolCall('Agent', { description: `task ${id}`, prompt, subagent_type, ...extra }, id);

describe('the Agent tool', () => {
  it('is in the tool list from the first turn, with TaskOutput, and runs a subagent whose final message is the call result', async () => {
    const { read, write, reads } = tools();
    const child = scriptedModel([turn(toolCall('read', { path: 'a.md' }, 'c_read')), 'a.md holds the answer.']);
    const parent = scriptedModel([turn(agentCall('explore', 'Find the answer', 'p_agent')), 'Done.']);
    const agent = createAgent({ model: parent, tools: [read, write], agents: { explore: { ...BUILTIN_AGENTS.explore, model: child } } });
    const result = await agent.run('go').result;
    expect(result.status).toBe('completed');
    const names = parent.requests[0]!.request.tools!.map((tool) => tool.name);
    expect(names).toEqual(['read', 'write', 'TodoWrite', 'ExitPlanMode', 'Agent', 'TaskOutput']);
    // The explorer is read-only: only `read` (and its own built-ins).
    expect(child.requests[0]!.request.tools!.map((tool) => tool.name)).toEqual(['read', 'TodoWrite', 'ExitPlanMode']);
    expect(child.requests[0]!.request.system?.[0]).toMatchObject({ text: BUILTIN_AGENTS.explore.prompt });
    expect(reads).toEqual(['a.md']);
    const results = agent.messages[2]!.content as Array<{ type: string; content: unknown }>;
    expect(results[0]).toMatchObject({ type: 'tool_result', content: 'a.md holds the answer.' });
    // The subagent's history is its own: the parent's has no trace of the child's read.
    expect(JSON.stringify(agent.messages)).not.toContain('c_read');
    expect(validateMessagesRequest(agent.messages)).toBeUndefined();
  });

  it('adds the subagent usage to the run result with a per-agent breakdown', async () => {
    const { read } = tools();
    const child = scriptedModel([turn(toolCall('read', { path: 'x' }, 'c1')), 'child done'], { modelId: 'claude-sonnet-4-6' });
    const parent = scriptedModel([turn(agentCall('explore', 'look', 'p1')), 'Done.'], { modelId: 'claude-sonnet-4-6' });
    const agent = createAgent({ model: parent, tools: [read], agents: { explore: { ...BUILTIN_AGENTS.explore, model: child } } });
    const result = await agent.run('go').result;
    expect(result.subagents).toEqual([expect.objectContaining({ subagentType: 'explore', parentToolUseId: 'p1', status: 'completed', turns: 2 })]);
    const childUsage = result.subagents![0]!.usage;
    expect(childUsage.outputTokens).toBeGreaterThan(0);
    const parentOwn = parent.requests.length; // two parent turns
    expect(parentOwn).toBe(2);
    // The run's usage is the parent's own turns plus the child's.
    expect(result.usage.outputTokens).toBeGreaterThan(childUsage.outputTokens);
    expect(result.costUsd).toBeGreaterThan(result.subagents![0]!.costUsd!);
  });

  it('marks subagent events with agentId and parentToolUseId, and its transcript is a sidechain of the same store', async () => {
    const { read } = tools();
    const store = memorySessionStore();
    const child = scriptedModel([turn(toolCall('read', { path: 'x' }, 'c1')), 'child done']);
    const agent = createAgent({ model: scriptedModel([turn(agentCall('explore', 'look', 'p1')), 'Done.']), tools: [read], store, agents: { explore: { ...BUILTIN_AGENTS.explore, model: child } } });
    const events: AgentEvent[] = [];
    const run = agent.run('go');
    for await (const event of run) events.push(event);
    const start = events.find((event) => event.type === 'subagent-start')!;
    expect(start).toMatchObject({ parentToolUseId: 'p1', subagentType: 'explore' });
    const agentId = start.agentId!;
    expect(events.find((event) => event.type === 'tool-result' && event.toolUseId === 'c1')).toMatchObject({ agentId, parentToolUseId: 'p1' });
    expect(events.find((event) => event.type === 'tool-result' && event.toolUseId === 'p1')?.agentId).toBeUndefined();
    const entries = [];
    for await (const entry of store.load(agent.sessionId)) entries.push(entry);
    expect(entries.some((entry) => entry.agentId === agentId && entry.kind === 'message')).toBe(true);
    // Resuming the parent from the store passes over the sidechain.
    await agent.close();
    const resumed = createAgent({ model: scriptedModel([]), tools: [read], store, resume: agent.sessionId, agents: { explore: BUILTIN_AGENTS.explore } });
    await resumed.ready;
    expect(resumed.messages).toEqual(agent.messages);
  });

  it('runs several Agent calls of one batch in parallel, bounded by maxSubagentConcurrency', async () => {
    let active = 0;
    let peak = 0;
    const releases: Array<() => void> = [];
    const slow = defineTool({
      name: 'slow',
      description: 'Waits.',
      inputSchema: z.object({}),
      readOnly: true,
      execute: async () => {
        active++;
        peak = Math.max(peak, active);
        await new Promise<void>((resolve) => {
          releases.push(resolve);
          // Release once three calls wait, or right away after the first three.
          if (releases.length >= 3 || peak >= 3) for (const release of releases.splice(0)) release();
        });
        active--;
        return 'ok';
      },
    });
    const models = ['a', 'b', 'c', 'd'].map((name) => scriptedModel([turn(toolCall('slow', {}, `${name}_slow`)), `${name} done`]));
    const agents = Object.fromEntries(models.map((model, index) => [`w${index}`, { description: 'worker', prompt: 'work', model }]));
    const agent = createAgent({
      model: scriptedModel([turn(...models.map((_, index) => agentCall(`w${index}`, 'work', `p${index}`))), 'All done.']),
      tools: [slow],
      agents,
      maxSubagentConcurrency: 3,
    });
    const result = await agent.run('go').result;
    expect(result.status).toBe('completed');
    expect(peak).toBe(3);
    const results = agent.messages[2]!.content as Array<{ content: unknown }>;
    expect(results.map((block) => block.content)).toEqual(['a done', 'b done', 'c done', 'd done']);
  });

  it('a subagent cannot start subagents unless its definition allows a depth', async () => {
    const { read } = tools();
    const flat = scriptedModel(['flat']);
    const deep = scriptedModel([turn(agentCall('flat', 'nested', 'd_agent')), 'deep done']);
    const agent = createAgent({
      model: scriptedModel([turn(agentCall('flat', 'x', 'p1'), agentCall('deep', 'y', 'p2')), 'Done.']),
      tools: [read],
      agents: { flat: { description: 'flat', prompt: 'flat', model: flat }, deep: { description: 'deep', prompt: 'deep', model: deep, maxDepth: 1 } },
      maxSubagentConcurrency: 1,
    });
    const result = await agent.run('go').result;
    expect(result.status).toBe('completed');
    expect(flat.requests[0]!.request.tools!.map((tool) => tool.name)).not.toContain('Agent');
    expect(deep.requests[0]!.request.tools!.map((tool) => tool.name)).toContain('Agent');
    // The grandchild ran (flat's second script item), and its usage is in the breakdown.
    expect(result.subagents!.map((summary) => summary.subagentType).sort()).toEqual(['deep', 'flat', 'flat']);
  });

  it('refuses EnterPlanMode inside a subagent, and definitions naming tools the parent lacks', () => {
    const { read } = tools();
    expect(() => createAgent({ model: scriptedModel([]), tools: [read], agents: { x: { description: 'x', prompt: 'x', tools: ['reed'] } } })).toThrow(/agents\["x"\]\.tools names "reed".*did you mean "read"/);
    expect(() => createAgent({ model: scriptedModel([]), tools: [read], enterPlanMode: true, agents: { x: { description: 'x', prompt: 'x', tools: ['EnterPlanMode'] } } })).toThrow(/EnterPlanMode/);
    expect(() => createAgent({ model: scriptedModel([]), agents: {} })).toThrow(/`agents` must define at least one/);
    expect(() => createAgent({ model: scriptedModel([]), agents: { x: { description: 'x' } as never } })).toThrow(/prompt/);
  });

  it('the subagent has its own todos', async () => {
    const child = scriptedModel([turn(toolCall('TodoWrite', { todos: [{ content: 'child step', status: 'completed', activeForm: 'stepping' }] }, 'c_todo')), 'ok']);
    const agent = createAgent({ model: scriptedModel([turn(agentCall('gp', 'x', 'p1')), 'Done.']), agents: { gp: { ...BUILTIN_AGENTS['general-purpose'], model: child } } });
    const todoEvents: AgentEvent[] = [];
    agent.on('todo-update', (event) => todoEvents.push(event));
    await agent.run('go').result;
    expect(agent.todos).toEqual([]);
    expect(todoEvents[0]).toMatchObject({ agentId: expect.any(String), todos: [{ content: 'child step' }] });
  });

  it('bubbles permission questions to the parent canUseTool with agentId, subagent type and the parent call', async () => {
    const { write, writes } = tools();
    const asked: Array<{ toolName: string; context: CanUseToolContext }> = [];
    const child = scriptedModel([turn(toolCall('write', { text: 'hello' }, 'c_w')), 'written']);
    const agent = createAgent({
      model: scriptedModel([turn(agentCall('gp', 'write hello', 'p1')), 'Done.']),
      tools: [write],
      agents: { gp: { description: 'gp', prompt: 'gp', model: child } },
      canUseTool: (toolName, _input, context) => (asked.push({ toolName, context }), { behavior: 'allow' }),
    });
    const requests: AgentEvent[] = [];
    agent.on('permission-request', (event) => requests.push(event));
    await agent.run('go').result;
    expect(writes).toEqual(['hello']);
    expect(asked).toHaveLength(1);
    expect(asked[0]!.context).toMatchObject({ agentId: expect.any(String), subagentType: 'gp', parentToolUseId: 'p1', toolUseId: 'c_w' });
    expect(requests[0]).toMatchObject({ agentId: asked[0]!.context.agentId, parentToolUseId: 'p1' });
  });
});
