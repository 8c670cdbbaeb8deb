import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type AgentEvent } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

function gate() {
  let release!: () => void;
  const opened = new Promise<void>((resolve) => (release = resolve));
  const wait = defineTool({ name: 'wait', description: 'Waits.', inputSchema: z.object({}), readOnly: true, execute: async () => (await opened, 'waited') });
  return { wait, release };
}

const background = (id: string) => toolCall('Agent', { description: 'long job', prompt: 'do the long job', subagent_type: 'worker', run_in_background: true }, id);

describe('background subagents', () => {
  it('return a task id at once, keep running, and tell the parent model in its next turn when they end', async () => {
    const { wait, release } = gate();
    const worker = scriptedModel([turn(toolCall('wait', {}, 'c_wait')), 'The long job is finished: 42.']);
    const parentModel = scriptedModel([turn(background('p_bg')), 'Started it.', turn(toolCall('TaskOutput', { task_id: 'PLACEHOLDER' }, 'p_out')), 'It said 42.']);
    const agent = createAgent({ model: parentModel, tools: [wait], agents: { worker: { description: 'w', prompt: 'w', model: worker } } });
    const first = await agent.run('start the job').result;
    expect(first.status).toBe('completed');
    const started = (agent.messages[2]!.content as Array<{ content: string }>)[0]!.content;
    const taskId = /task_[\w-]+/.exec(started)![0];
    expect(first.backgroundTasks).toEqual([expect.objectContaining({ taskId, subagentType: 'worker', status: 'running' })]);

    const ended = new Promise<AgentEvent>((resolve) => agent.once('background-task-end', resolve));
    release();
    expect(await ended).toMatchObject({ type: 'background-task-end', task: { taskId, status: 'completed' }, output: 'The long job is finished: 42.' });

    // The next turn carries the notification, and TaskOutput reads the output.
    const second = await agent.run('what did it say?').result;
    expect(second.status).toBe('completed');
    expect(second.backgroundTasks).toBeUndefined();
    const nextPrompt = JSON.stringify(parentModel.requests[2]!.messages.at(-1));
    expect(nextPrompt).toContain(`Background task ${taskId}`);
    expect(nextPrompt).toContain('The long job is finished: 42.');
  });

  it('TaskOutput reports a running task, its output once ended, and a task interrupted by a restart', async () => {
    const { wait, release } = gate();
    const worker = scriptedModel([turn(toolCall('wait', {}, 'c_wait')), 'done: 7']);
    const model = scriptedModel([turn(background('p_bg')), 'ok']);
    const agent = createAgent({ model, tools: [wait], agents: { worker: { description: 'w', prompt: 'w', model: worker } } });
    await agent.run('go').result;
    const taskId = /task_[\w-]+/.exec((agent.messages[2]!.content as Array<{ content: string }>)[0]!.content)![0];
    const taskOutput = async (model: ReturnType<typeof scriptedModel>, on = agent) => {
      model.push(turn(toolCall('TaskOutput', { task_id: taskId }, `out_${model.requests.length}`)), 'ok');
      await on.run('check').result;
      const results = on.messages.at(-2)!.content as Array<{ type: string; content: string }>;
      return results.find((block) => block.type === 'tool_result')!.content;
    };
    // Snapshot while it runs: another process never runs it, so it shows as interrupted there.
    const snapshot = JSON.parse(JSON.stringify(agent.snapshot()));
    const agentModel = scriptedModel([]);
    const running = createAgent({ model: agentModel, tools: [wait], agents: { worker: { description: 'w', prompt: 'w', model: worker } }, resume: snapshot });
    expect(await taskOutput(agentModel, running)).toMatch(/was interrupted/);
    // The resumed model was told of it with its next turn, as of any task's end, and it is recorded as such.
    expect(JSON.stringify(agentModel.requests[0]!.messages)).toContain(`Background task ${taskId} (worker: long job) interrupted.`);
    expect(running.snapshot().toolState['agent-harness/background-tasks']).toMatchObject({ [taskId]: { status: 'interrupted' } });

    const ended = new Promise((resolve) => agent.once('background-task-end', resolve));
    release();
    await ended;
    expect(await taskOutput(model)).toMatch(/completed\. Its output:\ndone: 7/);
  });

  it('a background subagent cannot wait for approval: what it would ask is denied, and it goes on', async () => {
    const writes: string[] = [];
    const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({}), kind: 'edit', execute: () => (writes.push('x'), 'wrote') });
    const worker = scriptedModel([turn(toolCall('write', {}, 'c_w')), 'Could not write.']);
    const agent = createAgent({ model: scriptedModel([turn(background('p_bg')), 'ok']), tools: [write], agents: { worker: { description: 'w', prompt: 'w', model: worker } } });
    const ended = new Promise<AgentEvent>((resolve) => agent.once('background-task-end', resolve));
    const result = await agent.run('go').result;
    expect(result.status).toBe('completed');
    expect(await ended).toMatchObject({ output: 'Could not write.' });
    expect(writes).toEqual([]);
    expect(agent.pendingApprovals).toEqual([]);
  });
});
