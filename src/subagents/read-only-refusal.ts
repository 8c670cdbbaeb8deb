import { followsServerAnnotations } from '../mcp/index.js';
import type { Tool } from '../tools/types.js';

/**
 * Whether a read-only subagent type is given `tool`: a read-only one, or an MCP tool whose
 * read-only flag follows its server's listing (it may become read-only while the subagent runs;
 * each call is checked, see {@link readOnlyRefusal}).
 */
export function offeredToReadOnly(tool: Tool): boolean {
  return tool.readOnly || followsServerAnnotations(tool);
}

/**
 * Why a read-only subagent of type `subagentType` may not use `tool` now: an MCP tool its server's
 * latest listing does not mark `readOnlyHint` (it never was, or it stopped being read-only after a
 * list change). Undefined when it may: a tool read-only now, or one of its own built-ins.
 */
export function readOnlyRefusal(subagentType: string): (tool: Tool) => string | undefined {
  return (tool) =>
    followsServerAnnotations(tool) && !tool.readOnly
      ? `The ${subagentType} subagent is read-only, and its MCP server does not mark "${tool.name}" as read-only (readOnlyHint) now, so the call was not run. Use only read-only tools; report what else is needed.`
      : undefined;
}
