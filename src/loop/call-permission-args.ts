import type { HooksConfig } from '../hooks/types.js';
import type { DecidePermissionArgs, PermissionEventDraft } from '../permissions/decide-permission-types.js';
import type { RuleSet } from '../permissions/rule-set.js';
import type { AgentCore } from '../runtime/agent-core.js';
import type { Tool, ToolAgentContext } from '../tools/types.js';
import type { AutoModeOptions, CanUseTool, PermissionMode } from '../types/permission.js';
import type { RunAbort } from './run-abort.js';

/**
 * The permission pipeline's arguments for one call of a run, read from the agent as it is now.
 * `signal` is the run's, made when a step hands it out (to a hook, the host's `canUseTool`, a
 * tool's own check; see `RunAbort`): a call decided by rules and modes alone makes none. A
 * getter on the class, not an own property: the pipeline reads these arguments and never hands
 * them out or copies them.
 */
export class CallPermissionArgs implements DecidePermissionArgs {
  readonly #abort: RunAbort;
  readonly tool: Tool;
  readonly toolUseId: string;
  readonly rawInput: unknown;
  readonly mode: PermissionMode;
  readonly rules: RuleSet;
  readonly hooks: HooksConfig | undefined;
  readonly canUseTool: CanUseTool | undefined;
  readonly autoMode: AutoModeOptions | undefined;
  readonly agentId: string | undefined;
  readonly cannotWait: string | undefined;
  readonly cwd: string | undefined;
  readonly agent: ToolAgentContext;
  readonly emit: (event: PermissionEventDraft) => void;

  constructor(core: AgentCore, abort: RunAbort, tool: Tool, toolUseId: string, rawInput: unknown, emit: (event: PermissionEventDraft) => void) {
    this.#abort = abort;
    this.tool = tool;
    this.toolUseId = toolUseId;
    this.rawInput = rawInput;
    this.mode = core.mode;
    this.rules = core.rules;
    this.hooks = core.options.hooks;
    this.canUseTool = core.options.canUseTool;
    this.autoMode = core.options.autoMode;
    this.agentId = core.agentId;
    this.cannotWait = core.cannotWait;
    this.cwd = core.options.cwd;
    this.agent = core.toolContext;
    this.emit = emit;
  }

  /** The run's signal (made now if nothing asked for it before). */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }
}
