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

/**
 * Why a subagent may not use a tool now, or undefined when it may; undefined (no refusal at all)
 * when nothing restricts it. A read-only type is restricted by {@link readOnlyRefusal}, and so is
 * every subagent below one, whatever its own type: a read-only subagent cannot do through the
 * subagents it starts what it may not do itself (its MCP tools are all offered to them).
 * @param parentRefusal - the refusal of the agent that starts it (a subagent's, or none).
 */
export function subagentToolRefusal(
  subagentType: string,
  readOnly: boolean,
  parentRefusal: ((tool: Tool) => string | undefined) | undefined,
): ((tool: Tool) => string | undefined) | undefined {
  const own = readOnly ? readOnlyRefusal(subagentType) : undefined;
  if (parentRefusal === undefined) return own;
  const inherited = (tool: Tool): string | undefined => {
    const refusal = parentRefusal(tool);
    return refusal === undefined || refusal.startsWith(STARTED_BY_READ_ONLY) ? refusal : `${STARTED_BY_READ_ONLY} ${refusal}`;
  };
  return own === undefined ? inherited : (tool) => own(tool) ?? inherited(tool);
}

/** How the refusal of a subagent below a read-only one begins. */
const STARTED_BY_READ_ONLY = 'This subagent was started by a read-only subagent, so it is read-only too.';
