import { z } from 'zod/v4';
import type { AgentServices } from './agent-services.js';
import { builtOnFirstUse } from '../built-on-first-use.js';
import { defineTool } from '../define-tool.js';
import { precompiledInputSchema } from '../input-schema.js';

const DESCRIPTION = `Ask to enter plan mode before a task that needs exploring and planning first: several possible approaches, unclear requirements, or changes the user should agree to. In plan mode you can only read and explore; present the plan with ExitPlanMode. Needs the user's approval.`;

const REASON = 'Why planning first helps here, in a sentence; the user sees it when asked.';

/** The input schema, built at the tool's first call. Exported for its test. @internal */
export const enterPlanModeInput = () => z.object({ reason: z.string().max(500).optional().describe(REASON) });

/** The stand-in `defineTool` takes, made at the first agent that has the tool and kept (see `precompiledInputSchema`). */
const enterPlanModeSchema = builtOnFirstUse(() =>
  precompiledInputSchema({ type: 'object', properties: { reason: { description: REASON, type: 'string', maxLength: 500 } }, additionalProperties: false }, enterPlanModeInput),
);

/** The opt-in `EnterPlanMode` tool: the model asks to switch into plan mode (needs approval; refused in subagents). */
export function createEnterPlanModeTool(agent: () => AgentServices) {
  return defineTool({
    name: 'EnterPlanMode',
    description: DESCRIPTION,
    inputSchema: enterPlanModeSchema(),
    readOnly: false,
    kind: 'other',
    validateInput: ({ agent }) => {
      if (agent.agentId !== undefined) return 'EnterPlanMode cannot be used by a subagent; only the main agent plans. Continue with your task.';
      if (agent.permissionMode === 'plan') return 'You are already in plan mode.';
      return undefined;
    },
    // The host sees why the model wants to plan when it is asked.
    checkPermissions: ({ input }) => ({
      behavior: 'ask',
      message: input.reason ? `The model asks to plan before acting: ${input.reason}` : 'The model asks to plan before acting.',
    }),
    execute: () => {
      agent().setMode('plan', 'enter-plan-mode');
      return 'Entered plan mode. Explore and read only; do not change anything yet. When the plan is ready, present it with ExitPlanMode.';
    },
  });
}
