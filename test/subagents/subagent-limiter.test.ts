import { describe, expect, it } from 'vitest';
import { createAgent, type AgentDefinition, type ModelRequest } from 'agent-harness';
import { scriptedModel, toolCall, turn, type ScriptedTurn } from 'agent-harness/testing';
import { tick } from '../helpers.js';

const agentCall = (subagent_type: string, id: string, extra: Record<string, unknown> = {}) => toolCall('Agent', { description: `task ${id}`, prompt: 'work', subagent_type, ...extra }, id);

/**
 * Subagent model turns that each hold until the test lets them go, counting how many are held at
 * once: a subagent streaming from its model is at work.
 */
function workbench() {
  const held: Array<() => void> = [];
  let peak = 0;
  let served = 0;
  /** A model whose every turn, `answer(request, turn number)`, is held first. */
  const model = (turns: number, answer: (request: ModelRequest, index: number) => ScriptedTurn) =>
    scriptedModel(
      Array.from({ length: turns }, () => async (request: ModelRequest, index: number) => {
        await new Promise<void>((resolve) => {
          held.push(resolve);
          peak = Math.max(peak, held.length);
        });
        served++;
        return answer(request, index);
      }),
    );
  /**
   * Drives the run: waits until nothing more can start (the loop waits on promises only, so a
   * few event-loop turns suffice), checks the run is not stuck, lets every held turn go, again.
   */
  const drive = async (result: Promise<unknown>) => {
    let ended = false;
    void result.then(() => (ended = true));
    for (;;) {
      for (let turn = 0; turn < 10; turn++) await tick();
      if (ended) return;
      expect(held.length, 'deadlock: no subagent is at work and the run has not ended').toBeGreaterThan(0);
      for (const release of held.splice(0)) release();
    }
  };
  return { model, drive, peak: () => peak, served: () => served };
}

/** A subagent's first turn starts `fanOut` subagents of `childType` in parallel; its second ends. */
const fanningOut = (childType: string, fanOut: number, name: string) => (request: ModelRequest, index: number) =>
  request.messages.length === 1 ? turn(...Array.from({ length: fanOut }, (_, child) => agentCall(childType, `${name}${index}_${child}`))) : turn(`${name} done`);

describe('maxSubagentConcurrency', () => {
  it('bounds the subagents at work across the whole tree, and nested fan-out completes (no deadlock)', async () => {
    const bench = workbench();
    // 3 leads, each starting 3 workers: 12 subagents on two levels, 2 at work at once.
    const workers = bench.model(9, () => turn('worker done'));
    const leads = bench.model(6, fanningOut('worker', 3, 'lead'));
    const agents: Record<string, AgentDefinition> = {
      lead: { description: 'lead', prompt: 'lead', model: leads, maxDepth: 1 },
      worker: { description: 'worker', prompt: 'worker', model: workers },
    };
    const agent = createAgent({ model: scriptedModel([turn(agentCall('lead', 'p0'), agentCall('lead', 'p1'), agentCall('lead', 'p2')), 'All done.']), agents, maxSubagentConcurrency: 2 });
    const run = agent.run('go');
    await bench.drive(run.result);
    const result = await run.result;
    expect(result.status).toBe('completed');
    expect(bench.served()).toBe(15);
    expect(bench.peak()).toBe(2);
    expect(result.subagents!.filter((summary) => summary.status === 'completed')).toHaveLength(12);
    const answers = agent.messages[2]!.content as Array<{ content: unknown }>;
    expect(answers.map((block) => block.content)).toEqual(['lead done', 'lead done', 'lead done']);
  });

  it('holds at one, three levels deep, with background tasks sharing the bound', async () => {
    const bench = workbench();
    const workers = bench.model(8, () => turn('worker done'));
    const mids = bench.model(4, fanningOut('worker', 4, 'mid'));
    const leads = bench.model(2, fanningOut('mid', 2, 'lead'));
    const agents: Record<string, AgentDefinition> = {
      lead: { description: 'lead', prompt: 'lead', model: leads, maxDepth: 2 },
      mid: { description: 'mid', prompt: 'mid', model: mids, maxDepth: 1 },
      worker: { description: 'worker', prompt: 'worker', model: workers },
    };
    const background = bench.model(2, () => turn('background done'));
    const agent = createAgent({
      model: scriptedModel([turn(agentCall('lone', 'p_bg0', { run_in_background: true }), agentCall('lead', 'p_lead'), agentCall('lone', 'p_bg1', { run_in_background: true })), 'All done.']),
      agents: { ...agents, lone: { description: 'lone', prompt: 'lone', model: background } },
      maxSubagentConcurrency: 1,
    });
    const ended = new Promise<void>((resolve) => {
      let count = 0;
      agent.on('background-task-end', () => ++count === 2 && resolve());
    });
    const run = agent.run('go');
    await bench.drive(Promise.all([run.result, ended]));
    expect((await run.result).status).toBe('completed');
    expect(bench.served()).toBe(16);
    expect(bench.peak()).toBe(1);
  });
});
