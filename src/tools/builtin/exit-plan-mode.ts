import { z } from 'zod/v4';
import type { AgentCore } from '../../agent/agent-core.js';
import { defineTool } from '../define-tool.js';

const DESCRIPTION = `Use this tool when you are in plan mode and have finished planning: it presents your plan to the user for approval.
Pass the complete plan as markdown in "plan": the goal, the steps in order, and the risks or open questions. If the user approves, you leave plan mode and continue right away with the execution; if they reject it, you receive their feedback and stay in plan mode to revise the plan.`;

const exitPlanModeInput = z.object({ plan: z.string().min(1).describe('The plan to present, in markdown.') });

/**
 * The built-in `ExitPlanMode` tool. In plan mode, a call asks the host to approve the plan
 * (a `plan-approval-request`); approval saves the plan, restores the mode from before planning
 * (or the mode the host chose) and the same run goes on into execution.
 */
export function createExitPlanModeTool(core: () => AgentCore) {
  return defineTool({
    name: 'ExitPlanMode',
    description: DESCRIPTION,
    inputSchema: exitPlanModeInput,
    readOnly: true,
    concurrencySafe: false,
    validateInput: ({ agent }) =>
      agent.permissionMode === 'plan'
        ? undefined
        : 'You are not in plan mode, so there is no plan to present. Continue with the task directly (use TodoWrite to track steps if helpful).',
    checkPermissions: () => ({ behavior: 'ask', message: 'The plan needs the user\'s approval.', askReason: { type: 'plan-approval' } }),
    execute: async ({ input, toolUseId }) => {
      const agent = core();
      // Saved first: if that fails, the call fails and the session stays in plan mode.
      const saved = await agent.savePlan(input.plan, toolUseId);
      const target = agent.openBatch?.calls.find((call) => call.toolUseId === toolUseId)?.planTargetMode;
      // The mode the host chose with the approval, else the one from before planning.
      if (agent.mode === 'plan') agent.setMode(target ?? agent.modeAfterPlan(), 'plan-approved');
      return `The user approved your plan. Leave planning behind and start carrying it out now, step by step${agent.tools.has('TodoWrite') ? ' (track the steps with TodoWrite)' : ''}.\n\nThe approved plan (saved as ${saved.name}):\n\n${input.plan}`;
    },
  });
}
