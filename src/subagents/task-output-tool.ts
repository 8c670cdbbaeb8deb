import { z } from 'zod/v4';
import type { AgentCore } from '../runtime/agent-core.js';
import { builtOnFirstUse } from '../tools/built-on-first-use.js';
import { defineTool } from '../tools/define-tool.js';
import { toolOutput } from '../tools/tool-output.js';
import { storedBackgroundTasks } from './background-task.js';

/** Built at the first `TaskOutput` tool, then shared by all: its JSON Schema and parser are made once. */
const taskOutputInput = builtOnFirstUse(() => z.object({ task_id: z.string().min(1).describe('The task id the Agent tool returned.') }));

/**
 * The built-in read-only `TaskOutput` tool: the state of a background subagent task and, once it
 * ended, its output. A task recorded as running that this process does not run was interrupted
 * (the process stopped while it ran).
 */
export function createTaskOutputTool(parent: () => AgentCore) {
  return defineTool({
    name: 'TaskOutput',
    description: 'Check a background task started with Agent({ run_in_background: true }): whether it is still running and, once it ended, its output.',
    inputSchema: taskOutputInput(),
    readOnly: true,
    execute: ({ input }) => {
      const core = parent();
      const tasks = storedBackgroundTasks(core);
      // Own keys only: a task id such as "constructor" or "__proto__" names no task.
      const stored = Object.hasOwn(tasks, input.task_id) ? tasks[input.task_id] : undefined;
      if (!stored) {
        const known = Object.keys(tasks);
        return toolOutput(`There is no background task "${input.task_id}".${known.length ? ` Tasks: ${known.join(', ')}.` : ''}`, { isError: true });
      }
      if (stored.status === 'running' && core.backgroundTasks.has(input.task_id)) return `Task ${input.task_id} (${stored.description}) is still running.`;
      if (stored.status === 'running') return `Task ${input.task_id} (${stored.description}) was interrupted: the session stopped while it ran, and it did not finish.`;
      return `Task ${input.task_id} (${stored.description}) ${stored.status}. Its output:\n${stored.output ?? ''}`;
    },
  });
}
