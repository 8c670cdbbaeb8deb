import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memoryPlanStore, memorySessionStore, type AgentEvent, type Model } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

const LONG = `BEGIN ${'line of output\n'.repeat(400)}MIDDLE-MARK ${'more output\n'.repeat(400)}END`;
const bigTool = defineTool({ name: 'big', description: 'Prints a lot.', inputSchema: z.object({}), readOnly: true, execute: () => LONG });
const agentCall = toolCall('Agent', { description: 'look', prompt: 'Look.', subagent_type: 'worker' }, 'p_agent');

function parentWith(worker: Model, parentTurns: Parameters<typeof scriptedModel>[0], extra: { spill?: boolean; maxToolResultChars?: number } = {}) {
  const model = scriptedModel(parentTurns);
  const agent = createAgent({
    model,
    tools: [bigTool],
    ...(extra.spill === false ? {} : { context: { spill: { maxChars: 2_000 } } }),
    ...(extra.maxToolResultChars !== undefined ? { maxToolResultChars: extra.maxToolResultChars } : {}),
    agents: { worker: { description: 'Looks.', prompt: 'You look.', model: worker } },
  });
  return { agent, model };
}

async function eventsOf(agent: ReturnType<typeof createAgent>): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of agent.run('go')) events.push(event);
  return events;
}

const resultOf = (events: AgentEvent[], toolUseId: string) => events.find((event) => event.type === 'tool-result' && event.toolUseId === toolUseId) as (AgentEvent & { type: 'tool-result' }) | undefined;

describe("a subagent spills its own long tool results when the parent spills (context.spill)", () => {
  it('previews its long result with a handle, and pages it with its own ReadToolOutput', async () => {
    const worker = scriptedModel([
      turn(toolCall('big', {}, 'c_big')),
      turn(toolCall('ReadToolOutput', { handle: 'out_c_big', search: 'MIDDLE-MARK' }, 'c_search')),
      turn(toolCall('ReadToolOutput', { handle: 'out_c_big', offset: LONG.length - 3 }, 'c_page')),
      'Looked.',
    ]);
    const { agent } = parentWith(worker, [turn(agentCall), 'Done.']);
    const events = await eventsOf(agent);
    expect(worker.requests[0]!.request.tools!.map((tool) => tool.name)).toContain('ReadToolOutput');
    // Its request carries a preview naming the handle, not the whole output nor a cut-off one.
    const second = JSON.stringify(worker.requests[1]!.messages);
    expect(second).toContain('out_c_big');
    expect(second).not.toContain('MIDDLE-MARK');
    expect(resultOf(events, 'c_search')).toMatchObject({ isError: false });
    expect(JSON.stringify(worker.requests[2]!.messages)).toMatch(/MIDDLE-MARK/);
    expect(resultOf(events, 'c_page')).toMatchObject({ isError: false });
    expect(JSON.stringify(worker.requests[3]!.messages)).toMatch(/END/);
    // Kept in the subagent's own state, not the parent's.
    expect(agent.snapshot().spilled?.['out_c_big']).toBeUndefined();
  });

  it("cannot page the parent's spilled outputs with its own ReadToolOutput", async () => {
    const worker = scriptedModel([turn(toolCall('ReadToolOutput', { handle: 'out_p_big', offset: 0 }, 'c_page')), 'Looked.']);
    const { agent } = parentWith(worker, [turn(toolCall('big', {}, 'p_big')), turn(agentCall), 'Done.']);
    const events = await eventsOf(agent);
    expect(agent.snapshot().spilled?.['out_p_big']).toBeDefined();
    expect(resultOf(events, 'c_page')).toMatchObject({ isError: true });
    expect(JSON.stringify(worker.requests[1]!.messages)).not.toContain('MIDDLE-MARK');
  });

  it("a long subagent answer is the parent's Agent result spilled like any other, and the parent pages it", async () => {
    const worker = scriptedModel([LONG]);
    const { agent, model } = parentWith(worker, [turn(agentCall), turn(toolCall('ReadToolOutput', { handle: 'out_p_agent', search: 'MIDDLE-MARK' }, 'p_search')), 'Done.']);
    const events = await eventsOf(agent);
    expect(agent.snapshot().spilled?.['out_p_agent']?.text).toContain('MIDDLE-MARK');
    const second = JSON.stringify(model.requests[1]!.messages);
    expect(second).toContain('out_p_agent');
    expect(second).not.toContain('MIDDLE-MARK');
    expect(resultOf(events, 'p_search')).toMatchObject({ isError: false });
    expect(JSON.stringify(model.requests[2]!.messages)).toContain('MIDDLE-MARK');
  });

  it('without spill, a long subagent answer is bounded at maxToolResultChars, as any tool result', async () => {
    const worker = scriptedModel([LONG]);
    const { agent, model } = parentWith(worker, [turn(agentCall), 'Done.'], { spill: false, maxToolResultChars: 3_000 });
    await eventsOf(agent);
    const sent = model.requests[1]!.messages.at(-1)!;
    const text = JSON.stringify(sent);
    expect(text).not.toContain('END');
    expect(text.length).toBeLessThan(4_000);
    expect(worker.requests[0]!.request.tools!.map((tool) => tool.name)).not.toContain('ReadToolOutput');
  });

  it('a type whose tools name ReadToolOutput gets its own (not refused)', async () => {
    const worker = scriptedModel([turn(toolCall('big', {}, 'c_big')), 'Looked.']);
    const agent = createAgent({
      model: scriptedModel([turn(agentCall), 'Done.']),
      tools: [bigTool],
      context: { spill: { maxChars: 2_000 } },
      agents: { worker: { description: 'Looks.', prompt: 'You look.', model: worker, tools: ['big', 'ReadToolOutput'] } },
    });
    await agent.run('go').result;
    expect(worker.requests[0]!.request.tools!.map((tool) => tool.name)).toEqual(expect.arrayContaining(['ReadToolOutput', 'big']));
    expect(JSON.stringify(worker.requests[1]!.messages)).toContain('out_c_big');
  });

  it('a subagent that spilled, then waited on an approval, still pages its output after resuming in another agent (snapshot and store)', async () => {
    for (const via of ['snapshot', 'store'] as const) {
      const writes: string[] = [];
      const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ text: z.string() }), kind: 'edit', execute: ({ input }) => (writes.push(input.text), 'wrote') });
      const store = memorySessionStore();
      const planStore = memoryPlanStore();
      const options = { tools: [bigTool, write], store, planStore, context: { spill: { maxChars: 2_000 } } };
      const before = scriptedModel([turn(toolCall('big', {}, 'c_big')), turn(toolCall('write', { text: 'x' }, 'c_write'))]);
      const first = createAgent({ ...options, model: scriptedModel([turn(agentCall)]), agents: { worker: { description: 'w', prompt: 'w', model: before } } });
      const waiting = await first.run('go').result;
      expect(waiting.status, via).toBe('awaiting-approval');
      const snapshot = JSON.parse(JSON.stringify(first.snapshot()));
      await first.close();
      const after = scriptedModel([turn(toolCall('ReadToolOutput', { handle: 'out_c_big', search: 'MIDDLE-MARK' }, 'c_search')), 'Looked.']);
      const resumed = createAgent({ ...options, model: scriptedModel(['Done.']), agents: { worker: { description: 'w', prompt: 'w', model: after } }, resume: via === 'snapshot' ? snapshot : first.sessionId });
      await resumed.ready;
      const events: AgentEvent[] = [];
      for await (const event of resumed.resolveApproval(resumed.pendingApprovals[0]!.id, { behavior: 'allow' })) events.push(event);
      expect(writes, via).toEqual(['x']);
      expect(resultOf(events, 'c_search'), via).toMatchObject({ isError: false });
      expect(JSON.stringify(after.requests[1]!.messages), via).toContain('MIDDLE-MARK');
      await resumed.close();
    }
  });
});
