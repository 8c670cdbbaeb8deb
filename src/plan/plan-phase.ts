import type { HookEntry, PreToolUseHookInput, PreToolUseHookOutput } from '../hooks/types.js';
import type { CanUseTool, PermissionResult } from '../types/permission.js';
import type { ToolKind } from '../tools/types.js';
import { arrayOf, checkOptions, isBoolean, isFunction, isPlainObject, type OptionsSpec } from '../options/index.js';

/** What the plan-phase guard knows about a tool. */
export interface PlanPhaseToolInfo {
  readonly name: string;
  readonly readOnly: boolean;
  readonly kind: ToolKind;
}

/** One tool call, as the guard sees it. */
export interface PlanPhaseCall {
  toolName: string;
  input: unknown;
  /** The tool's definition, when the guard can find it (from the hook input or `tools`). */
  tool?: Omit<PlanPhaseToolInfo, 'name'>;
}

/**
 * Tools taken as read-only when the guard has no definition for them: the read tools of Claude
 * Code and of `agent-harness/node`, and the built-in `TodoWrite` (it only touches the agent's list).
 */
export const DEFAULT_READ_ONLY_TOOL_NAMES: readonly string[] = ['Read', 'Glob', 'Grep', 'LS', 'WebFetch', 'WebSearch', 'TodoWrite'];

/** Options of {@link createPlanPhase}. */
export interface PlanPhaseOptions {
  /**
   * Decides whether a call writes (and is denied while the phase is active).
   * @default a call writes unless its tool is read-only (`readOnly`, or `kind: 'read'`); a tool
   * the guard knows nothing about counts as writing unless it is in {@link DEFAULT_READ_ONLY_TOOL_NAMES}
   */
  isWriteTool?: (call: PlanPhaseCall) => boolean;
  /**
   * The agent's tools (e.g. the array given to `createAgent`), so the default `isWriteTool` knows
   * which are read-only.
   * @default [] (only {@link DEFAULT_READ_ONLY_TOOL_NAMES} are known)
   */
  tools?: readonly PlanPhaseToolInfo[];
  /**
   * The message the model receives for a denied call.
   * @default a message telling the model to keep exploring read-only and that writing comes after the plan is approved
   */
  denialMessage?: (toolName: string) => string;
  /**
   * Start with the phase on.
   * @default false
   */
  active?: boolean;
}

/** The guard returned by {@link createPlanPhase}. */
export interface PlanPhase {
  /** Turns the phase on: write tools are denied from now on. */
  begin(): void;
  /** Turns the phase off: every call goes through the normal pipeline again. */
  end(): void;
  /** Whether the phase is on. */
  readonly active: boolean;
  /**
   * Wraps a `canUseTool` callback: while the phase is on, write calls are denied without calling
   * it; everything else is passed through. Without a callback, passed-through calls are deferred
   * (as with no `canUseTool` at all).
   */
  wrap(canUseTool?: CanUseTool): CanUseTool;
  /**
   * A `PreToolUse` hook to spread into the agent's hooks. Hooks run before the mode step, so this
   * also stops edit tools that `acceptEdits` would otherwise approve without asking.
   * @example createAgent({ ..., hooks: { PreToolUse: [...phase.hooks.PreToolUse, ...mine] } })
   */
  readonly hooks: { PreToolUse: Array<HookEntry<'PreToolUse'>> };
  /** Whether the guard would deny this call now. */
  denies(call: PlanPhaseCall): boolean;
}

/** The default denial message. */
export function planPhaseDenialMessage(toolName: string): string {
  return `${toolName} was not run: the planning phase is active, and it may change things. Keep exploring with read-only tools (reading, searching, listing) to gather what the plan needs. Writing comes after the plan is approved.`;
}

const OPTIONS: OptionsSpec<PlanPhaseOptions> = {
  isWriteTool: isFunction,
  tools: arrayOf(isPlainObject, "an array of tools (the agent's `tools`)"),
  denialMessage: isFunction,
  active: isBoolean,
};

/**
 * A plan-phase guard for hosts that run their own plan/execute phases without switching the
 * permission mode (e.g. staying in `acceptEdits`). While active, write tools are denied at once —
 * no callback, no approval card — with a message that tells the model to keep exploring
 * read-only; read tools pass through. Plug in `hooks` (it runs first in the pipeline) and/or
 * `wrap(canUseTool)`.
 * @example
 * const phase = createPlanPhase({ tools });
 * const agent = createAgent({ tools, permissionMode: 'acceptEdits', hooks: { ...phase.hooks } });
 * phase.begin();
 * await agent.run('Research the topic and propose a plan').result;
 * phase.end();
 */
export function createPlanPhase(options: PlanPhaseOptions = {}): PlanPhase {
  checkOptions<PlanPhaseOptions>(options, OPTIONS, { owner: 'createPlanPhase', optional: true });
  let active = options.active ?? false;
  const known = new Map<string, PlanPhaseToolInfo>((options.tools ?? []).map((tool) => [tool.name, tool]));
  const message = options.denialMessage ?? planPhaseDenialMessage;
  const isWriteTool =
    options.isWriteTool ??
    ((call: PlanPhaseCall): boolean => {
      const tool = call.tool ?? known.get(call.toolName);
      if (tool) return !(tool.readOnly || tool.kind === 'read');
      return !DEFAULT_READ_ONLY_TOOL_NAMES.includes(call.toolName);
    });
  const denies = (call: PlanPhaseCall): boolean => active && isWriteTool(call);

  const hook = (input: PreToolUseHookInput): PreToolUseHookOutput => {
    // The hook input describes the tool (read-only per call); prefer it over the name lookup.
    const tool = input.tool as PlanPhaseCall['tool'] | undefined;
    const call: PlanPhaseCall = { toolName: input.toolName, input: input.toolInput, ...(tool ? { tool } : {}) };
    return denies(call) ? { decision: 'deny', reason: message(input.toolName) } : {};
  };

  return {
    begin() {
      active = true;
    },
    end() {
      active = false;
    },
    get active() {
      return active;
    },
    denies,
    hooks: { PreToolUse: [{ hook }] },
    wrap(canUseTool) {
      return (toolName, input, context): PermissionResult | Promise<PermissionResult> => {
        if (denies({ toolName, input })) return { behavior: 'deny', message: message(toolName) };
        return canUseTool ? canUseTool(toolName, input, context) : { behavior: 'defer' };
      };
    },
  };
}
