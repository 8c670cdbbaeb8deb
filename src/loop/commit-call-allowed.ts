import { mcpToolOrigin } from '../mcp/mcp-tool.js';
import type { AgentCore } from '../runtime/agent-core.js';
import type { BatchCall } from '../state/index.js';
import type { Tool } from '../tools/types.js';
import type { PermissionUpdate } from '../types/permission.js';

/** What the host's answer said about an allowed call, beyond its input. */
export interface AllowedAnswer {
  /** The host's permission updates: held for the tool when it handles the host's answer itself. */
  updatedPermissions: PermissionUpdate[] | undefined;
  /** The host really changed the input (an echo of the model's is not an edit). */
  edited: boolean;
  /** The note telling the model how its input was edited. */
  note: string | undefined;
  /** The host asked for a fresh context (an approved plan). */
  clearContext: boolean | undefined;
}

/**
 * Records a call as allowed with the input it runs with: the one `call-allowed` entry both the
 * pipeline's decision and the host's answer to an approval write, with only the fields that apply.
 */
export function commitCallAllowed(core: AgentCore, call: BatchCall, tool: Tool, input: unknown, answer: AllowedAnswer): void {
  const held = tool.handlesHostAnswer ? answer.updatedPermissions : undefined;
  // Which MCP tool the name meant when the call was first decided (kept through a reset on resume):
  // it runs only on that tool.
  const mcpTool = call.mcpTool ?? mcpToolOrigin(tool);
  const hostAnswer = { ...(answer.edited ? { edited: true } : {}), ...(answer.clearContext === true ? { clearContext: true } : {}) };
  core.commit({
    kind: 'call-allowed',
    toolUseId: call.toolUseId,
    input,
    ...(held?.length ? { heldUpdates: held } : {}),
    ...(answer.note ? { note: answer.note } : {}),
    ...(Object.keys(hostAnswer).length ? { hostAnswer } : {}),
    ...(mcpTool !== undefined ? { mcpTool } : {}),
  });
}
