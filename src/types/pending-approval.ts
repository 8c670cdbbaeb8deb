import type { McpToolRecord } from './mcp-tool-record.js';
import type { ToolDisplay } from './tool-display.js';
import type { PermissionReason, PermissionUpdate } from './permission.js';
import type { ToolAnnotations } from './tool-annotations.js';

/** A tool call parked until the host answers, possibly days later in another process. */
export interface PendingApproval {
  /** Pass this to `agent.resolveApproval(id, decision)`. */
  id: string;
  toolName: string;
  /** The validated input the call would run with. */
  input: unknown;
  toolUseId: string;
  agentId?: string;
  /** Why the call is being asked. */
  reason: PermissionReason;
  /** Ready-made "always allow" updates the host may echo back. */
  suggestions: PermissionUpdate[];
  /** A path outside the workspace that caused the question. */
  blockedPath?: string;
  /** What the approval card shows, from the tool's `display` (a unified diff, a command); absent when the tool has none. */
  display?: ToolDisplay;
  /** The tool's behaviour hints (an MCP tool's `destructiveHint`, say), to show with the question. */
  toolAnnotations?: ToolAnnotations;
  /**
   * For an MCP tool: the server, the tool's name on it and fingerprints of both, from when the
   * model made the call (what the card describes). An approval answered where `toolName` now
   * names another tool of the server (its tool set changed, so names that collide once normalised
   * were given out differently), another server (the configuration points the server's name
   * elsewhere, or the server calls itself differently), or the tool changed (description, input
   * schema, annotations), is refused with a message for the model, not run.
   */
  mcpTool?: McpToolRecord;
  /** ISO 8601 time the approval was created. */
  createdAt: string;
  /**
   * Where the call sits: the `toolUseId`s from the outermost call down to this one — just
   * `[toolUseId]` for the agent's own calls, `[parentToolUseId, …, toolUseId]` for a call inside a
   * subagent the parent's call waits on. Set when approvals are listed.
   */
  path?: string[];
}
