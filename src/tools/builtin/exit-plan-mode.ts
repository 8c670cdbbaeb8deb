import { z } from 'zod/v4';
import type { AgentServices } from './agent-services.js';
import { defineTool } from '../define-tool.js';
import { precompiledInputSchema } from '../input-schema.js';
import { isVisiblyBlank } from '../reveal-hidden-characters.js';

const DESCRIPTION = `Use this tool when you are in plan mode and have finished planning: it presents your plan to the user for approval.
Pass the complete plan as markdown in "plan": the goal, the steps in order, and the risks or open questions. If the user approves, you leave plan mode and continue right away with the execution; if they reject it, you receive their feedback and stay in plan mode to revise the plan.`;

/** What a subagent whose type only plans reads: approval does not end its plan mode. */
const PLANS_ONLY_DESCRIPTION = `Use this tool when you have finished planning: it presents your plan to the user for approval.
Pass the complete plan as markdown in "plan": the goal, the steps in order, and the risks or open questions. You are a subagent that only plans: if the user approves, the plan is saved and you stay in plan mode, so end with the plan as your final answer for the agent that started you; if they reject it, you receive their feedback and revise the plan.`;

/** Options of {@link createExitPlanModeTool}. */
export interface ExitPlanModeToolOptions {
  /** The agent never leaves plan mode (a subagent whose type's `permissionMode` is `plan`): its description says so. */
  plansOnly?: boolean;
}

/**
 * Checked and compiled once, at the first agent (not per agent: createAgent's cost; nor at import:
 * a cold start's), and each agent gets a copy whose `execute` reaches its own services.
 */
/** A plan of blanks or invisible characters is an empty card: nothing to approve, nor to carry out. */
const blankPlan = ({ input }: { input: { plan: string } }): string | undefined =>
  isVisiblyBlank(input.plan) ? 'The plan is blank (only whitespace or invisible characters): write out the plan (the goal, the steps in order, the risks) and present it again.' : undefined;

const PLAN = 'The plan to present, in markdown.';

/** The input schema, built at the tool's first call. Exported for its test. @internal */
export const exitPlanModeInput = () => z.object({ plan: z.string().min(1).describe(PLAN) });

/** What zod's converter makes of {@link exitPlanModeInput}, written out (see `precompiledInputSchema`). */
const exitPlanModeJsonSchema = () => ({ type: 'object', properties: { plan: { type: 'string', minLength: 1, description: PLAN } }, required: ['plan'], additionalProperties: false });

const defineExitPlanMode = () => ({
  ...defineTool({
    name: 'ExitPlanMode',
    description: DESCRIPTION,
    inputSchema: precompiledInputSchema(exitPlanModeJsonSchema(), exitPlanModeInput),
    readOnly: true,
    concurrencySafe: false,
    validateInput: (args) => {
      if (args.agent.permissionMode !== 'plan') {
        return 'You are not in plan mode, so there is no plan to present. Continue with the task directly (use TodoWrite to track steps if helpful).';
      }
      return blankPlan(args);
    },
    checkPermissions: () => ({ behavior: 'ask', message: 'The plan needs the user\'s approval.', askReason: { type: 'plan-approval' } }),
    // The mode the host chose with its approval applies only once the plan is saved, so nothing
    // runs outside plan mode on a plan that was not kept.
    handlesHostAnswer: true,
    execute: (): string => {
      throw new Error('ExitPlanMode runs only in the copy createExitPlanModeTool() makes for an agent.');
    },
  }),
  // The host's edit answers a plan the model presented in plan mode: the host may have left plan
  // mode while the approval waited, and its edited plan is still the plan it approved.
  validateHostInput: blankPlan,
});

/** The tools {@link createExitPlanModeTool} made: a host tool may be named `ExitPlanMode` too. */
const builtins = new WeakSet<object>();

/**
 * Whether `tool` is the built-in `ExitPlanMode` (only saves the plan and changes the mode, so a
 * resume may run an approved call of it again), not a host tool of that name.
 */
export function isBuiltinExitPlanMode(tool: unknown): boolean {
  return typeof tool === 'object' && tool !== null && builtins.has(tool);
}

let exitPlanModeBase: ReturnType<typeof defineExitPlanMode> | undefined;

/**
 * The built-in `ExitPlanMode` tool. In plan mode, a call asks the host to approve the plan
 * (a `plan-approval-request`); approval saves the plan (the host's edit of it, if any), restores
 * the mode from before planning (or the mode the host chose), and the same run goes on into
 * execution — in a fresh context when the approval carried `clearContext`. What the model reads
 * says plainly what happened: approved, the plan as saved, its name, the mode, whether edited.
 */
export function createExitPlanModeTool(agent: () => AgentServices, options: ExitPlanModeToolOptions = {}): ReturnType<typeof defineExitPlanMode> {
  // One spread (a second, even of an empty object, made every agent's copy the slow way).
  const tool: ReturnType<typeof defineExitPlanMode> = {
    ...(exitPlanModeBase ??= defineExitPlanMode()),
    execute: async ({ input, toolUseId, permissionUpdates, hostAnswer, signal }) => {
      const services = agent();
      const edited = hostAnswer?.edited === true;
      const clearContext = hostAnswer?.clearContext === true;
      // Saved first: if that fails, the call fails and the session stays in plan mode. The mode,
      // the rules and a fresh context are recorded with the plan, in one append: a crash never
      // leaves a saved plan in plan mode, nor an approval to start fresh without its request.
      const target = permissionUpdates?.filter((update) => update.type === 'setMode').at(-1);
      const saved = await services.savePlan(input.plan, toolUseId, {
        edited,
        clearContext,
        // Interrupted while the plan store writes: the approval does not take effect (the call is
        // answered as interrupted), so the model and the session agree it is still planning.
        signal,
        alongside: (name) => {
          // The mode the host chose with the approval (even if it left plan mode while the plan
          // waited), else the one from before planning.
          if (target?.type === 'setMode') services.setMode(target.mode, 'plan-approved');
          else if (services.mode === 'plan') services.setMode(services.modeAfterPlan(), 'plan-approved');
          services.applyPermissionUpdates(permissionUpdates?.filter((update) => update.type !== 'setMode'));
          if (clearContext) services.requestFreshContext({ text: input.plan, name });
        },
      });
      const tracking = services.hasTool('TodoWrite') ? ' Track the steps with TodoWrite.' : '';
      const approval = `The user approved your plan${edited ? ' after editing it: the plan below is the edited one, and it is the plan to follow' : ''}.`;
      const fresh = clearContext ? ' The conversation continues in a fresh context that holds this plan.' : '';
      // A subagent whose type plans never carries its plan out: the agent that started it does.
      if (services.alwaysPlans) {
        return [
          `${approval} You are a subagent that only plans, so you stay in plan mode (the permission mode stays "plan"): only read-only tools run.`,
          `The approved plan is saved as ${saved.name}. Do not try to carry it out: end with the plan as your final answer, for the agent that started you.${fresh}`,
          '',
          'The approved plan:',
          '',
          input.plan,
        ].join('\n');
      }
      // The host may approve and keep planning (its answer set the mode to plan): say so, not "carry it out".
      const stillPlanning = services.mode === 'plan';
      return [
        stillPlanning
          ? `${approval} The user kept you in plan mode: the permission mode is still "plan", so only read-only tools run.`
          : `${approval} You are no longer in plan mode: the permission mode is now "${services.mode}".`,
        stillPlanning
          ? `The approved plan is saved as ${saved.name}. Do not carry it out yet: wait until the user leaves plan mode.${fresh}`
          : `The approved plan is saved as ${saved.name}. Carry it out now, step by step.${tracking}${fresh}`,
        '',
        'The approved plan:',
        '',
        input.plan,
      ].join('\n');
    },
  };
  if (options.plansOnly) tool.description = PLANS_ONLY_DESCRIPTION;
  builtins.add(tool);
  return tool;
}
