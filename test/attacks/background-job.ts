import { z } from 'zod';
import { createAgent, defineTool, type Agent, type SessionStore } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

/**
 * A background subagent job for the attacks where another process loads the session while it
 * runs: the job's subagent calls `wait`, which returns only once `release()` is called.
 */
export function backgroundJob() {
  let release!: () => void;
  const opened = new Promise<void>((resolve) => (release = resolve));
  const wait = defineTool({ name: 'wait', description: 'Waits.', inputSchema: z.object({}), readOnly: true, execute: async () => (await opened, 'waited') });
  const agentsOption = (model: ReturnType<typeof scriptedModel>) => ({ worker: { description: 'w', prompt: 'w', model } });
  const background = toolCall('Agent', { description: 'long job', prompt: 'do it', subagent_type: 'worker', run_in_background: true }, 'p_bg');
  /** The first process's agent: its first run starts the job in the background and completes. */
  const starter = (store: SessionStore): Agent =>
    createAgent({
      model: scriptedModel([turn(background), 'Started.']),
      tools: [wait],
      agents: agentsOption(scriptedModel([turn(toolCall('wait', {}, 'c_wait')), 'done: 7'])),
      store,
    });
  return { release, wait, agentsOption, starter };
}
