import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type Agent, type AgentEvent, type AgentRun } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { deferred } from '../helpers.js';

const agentCall = (id: string) => toolCall('Agent', { description: `task ${id}`, prompt: 'Work.', subagent_type: 'worker' }, id);

/** A tool that ignores its abort signal: it answers only when released. */
function deafTool() {
  const started = deferred();
  const release = deferred();
  const tool = defineTool({
    name: 'deaf',
    description: 'Works, deaf to interrupts.',
    inputSchema: z.object({}),
    readOnly: true,
    execute: async () => {
      started.resolve();
      await release.promise;
      return 'late';
    },
  });
  return { tool, started: started.promise, release: () => release.resolve() };
}

/** Iterates `run`, interrupting `agent` once `started` resolves; `iterated` resolves when the iterator ends. */
function iterateAndInterrupt(agent: Agent, run: AgentRun, started: Promise<void>): { seen: AgentEvent[]; iterated: Promise<void> } {
  const seen: AgentEvent[] = [];
  const iterating = (async () => {
    for await (const event of run) seen.push(event);
  })();
  const iterated = started.then(() => {
    agent.interrupt();
    return iterating;
  });
  return { seen, iterated };
}

/** The subagent starts, ends and run ends of a run's iterator, in order, as `type:agentId`. */
const starts = (events: AgentEvent[]) => events.filter((event) => event.type === 'subagent-start' || event.type === 'subagent-end' || (event.type === 'run-end' && event.agentId === undefined)).map((event) => event.type);

describe('interrupted while a subagent works, the run ends after the subagent announced its end', () => {
  it("the run's iterator sees subagent-end before run-end, and listeners in the same order", async () => {
    const deaf = deafTool();
    const agent = createAgent({
      model: scriptedModel([turn(agentCall('call_1')), 'never played']),
      tools: [deaf.tool],
      agents: { worker: { description: 'Works.', prompt: 'You work.', model: scriptedModel([turn(toolCall('deaf', {})), 'never played']) } },
    });
    const listened: AgentEvent[] = [];
    for (const type of ['subagent-start', 'subagent-end', 'run-end'] as const) agent.on(type, (event) => listened.push(event));
    const run = agent.run('go');
    const { seen, iterated } = iterateAndInterrupt(agent, run, deaf.started);
    expect((await run.result).status).toBe('interrupted');
    await iterated;
    expect(starts(seen)).toEqual(['subagent-start', 'subagent-end', 'run-end']);
    expect(starts(listened)).toEqual(['subagent-start', 'subagent-end', 'run-end']);
    const end = seen.find((event) => event.type === 'subagent-end');
    expect(end?.type === 'subagent-end' && end.summary.status).toBe('interrupted');
    deaf.release();
    await agent.close();
  });

  it('a subagent resumed by resolveApproval: the answering run ends after its subagent-end too', async () => {
    const deaf = deafTool();
    const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({}), kind: 'edit', execute: () => 'wrote' });
    const agent = createAgent({
      model: scriptedModel([turn(agentCall('call_1')), 'never played']),
      tools: [deaf.tool, write],
      agents: { worker: { description: 'Works.', prompt: 'You work.', model: scriptedModel([turn(toolCall('write', {})), turn(toolCall('deaf', {})), 'never played']) } },
    });
    // No canUseTool: the subagent's write waits for the host, and the parent run parks.
    const parked = await agent.run('go').result;
    expect(parked.status).toBe('awaiting-approval');
    const run = agent.resolveApproval(parked.pendingApprovals[0]!.id, { behavior: 'allow' });
    const { seen, iterated } = iterateAndInterrupt(agent, run, deaf.started);
    expect((await run.result).status).toBe('interrupted');
    await iterated;
    expect(starts(seen)).toEqual(['subagent-start', 'subagent-end', 'run-end']);
    deaf.release();
    await agent.close();
  });

  it('nested: each run ends after its own subagent, the outermost last', async () => {
    const deaf = deafTool();
    const agent = createAgent({
      model: scriptedModel([turn(agentCall('call_outer')), 'never played']),
      tools: [deaf.tool],
      agents: {
        worker: {
          description: 'Works.',
          prompt: 'You work.',
          maxDepth: 1,
          // The first worker starts a second one, which calls the deaf tool.
          model: scriptedModel([turn(agentCall('call_inner')), turn(toolCall('deaf', {})), 'never played', 'never played']),
        },
      },
    });
    const run = agent.run('go');
    const { seen, iterated } = iterateAndInterrupt(agent, run, deaf.started);
    await run.result;
    await iterated;
    expect(starts(seen)).toEqual(['subagent-start', 'subagent-start', 'subagent-end', 'subagent-end', 'run-end']);
    deaf.release();
    await agent.close();
  });
});
