import type { Model } from '../model/model.js';
import type { PermissionMode } from '../types/permission.js';

/**
 * A kind of subagent the model may start with the `Agent` tool (`createAgent({ agents: { name:
 * definition } })`). A subagent never has more than its parent: its tools are a subset of the
 * parent's, its mode the stricter of the parent's and `permissionMode`, and the parent's rules,
 * hooks and `canUseTool` apply to it.
 */
export interface AgentDefinition {
  /** When to use this kind of subagent, for the model (listed in the `Agent` tool's description). */
  description: string;
  /** The subagent's system prompt. */
  prompt: string;
  /**
   * The names of the parent's tools it may use (a subset; names the parent lacks are refused when
   * the agent is created). Deferred tools and provider server tools count: a subagent with
   * deferred tools gets its own tool search. A tool of a configured MCP server
   * (`mcp__<server>__<tool>`) may be named before the server lists it: the subagent has it while
   * the parent does.
   * @default every tool of the parent (but `Agent`, unless `maxDepth` allows it, and `EnterPlanMode`)
   */
  tools?: string[];
  /**
   * Only the parent's read-only tools (a tool defined with `readOnly: true`), and its provider
   * server tools (the provider runs them, never the host). Its MCP tools follow their server's
   * latest listing: they are all offered, and a call runs only while the server marks the tool
   * `readOnlyHint` (a tool that stops being read-only after a list change is refused, one that
   * becomes read-only may be used), checked before anyone is asked and again right before it runs.
   * @default false
   */
  readOnly?: boolean;
  /**
   * The model it runs on.
   * @default the parent's model
   */
  model?: Model;
  /**
   * Its permission mode; the stricter of this and the parent's applies (`bypassPermissions` never).
   * It is a cap for as long as the subagent lives: nothing it or its host does makes its mode
   * looser than this. A type with `'plan'` plans only: it may present its plan with
   * `ExitPlanMode` (the host's approval saves it as `{slug}-agent-{agentId}.md`), but the approval,
   * even one naming a mode to go on in, leaves it in plan mode, so it never gets to write, edit or
   * run commands; it ends with the plan as its answer, for the parent to carry out.
   * @default the parent's mode
   */
  permissionMode?: PermissionMode;
  /**
   * The most turns (model calls that answer the conversation) one of its runs may make; its
   * compactions' summary calls are not turns (they count in usage, cost and the budget).
   * @default the parent's `maxTurns`
   */
  maxTurns?: number;
  /**
   * How many levels of subagents below it may start (it gets its own `Agent` tool when above 0).
   * @default 0 (it cannot start subagents)
   */
  maxDepth?: number;
}
