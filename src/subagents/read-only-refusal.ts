import { followsServerAnnotations } from '../mcp/index.js';
import { isReadOnlyCallUnchecked } from '../permissions/is-read-only-call.js';
import type { Tool } from '../tools/types.js';

/** Why a subagent may not make a call now (see `AgentCore.toolRefusal`), or undefined when it may. */
export type ToolRefusal = (tool: Tool, input: unknown) => string | undefined;

/**
 * Whether a read-only subagent type is given `tool`: a read-only one, or an MCP tool whose
 * read-only flag follows its server's listing (it may become read-only while the subagent runs;
 * each call is checked, see {@link readOnlyRefusal}).
 */
export function offeredToReadOnly(tool: Tool): boolean {
  return tool.readOnly || followsServerAnnotations(tool);
}

/**
 * Why a read-only subagent of type `subagentType` may not make a call now: an MCP tool its
 * server's latest listing does not mark `readOnlyHint` (it never was, or it stopped being
 * read-only after a list change), or a call that does not only read by the tool's own per-call
 * judgement (`isReadOnlyCall`: a tool offered as read-only may still write with some inputs).
 * Undefined when it may: a call that only reads, e.g. of one of its own built-ins.
 */
export function readOnlyRefusal(subagentType: string): ToolRefusal {
  return (tool, input) => {
    if (followsServerAnnotations(tool) && !tool.readOnly) {
      return `The ${subagentType} subagent is read-only, and its MCP server does not mark "${tool.name}" as read-only (readOnlyHint) now, so the call was not run. Use only read-only tools; report what else is needed.`;
    }
    if (isReadOnlyCallUnchecked(tool, input)) return undefined;
    return `The ${subagentType} subagent is read-only, and this ${tool.name} call does not only read (as ${tool.name} judges its input), so it was not run. Make only calls that read; report what else is needed.`;
  };
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
  parentRefusal: ToolRefusal | undefined,
): ToolRefusal | undefined {
  const own = readOnly ? readOnlyRefusal(subagentType) : undefined;
  if (parentRefusal === undefined) return own;
  const inherited: ToolRefusal = (tool, input) => {
    const refusal = parentRefusal(tool, input);
    return refusal === undefined || refusal.startsWith(STARTED_BY_READ_ONLY) ? refusal : `${STARTED_BY_READ_ONLY} ${refusal}`;
  };
  return own === undefined ? inherited : (tool, input) => own(tool, input) ?? inherited(tool, input);
}

/** How the refusal of a subagent below a read-only one begins. */
const STARTED_BY_READ_ONLY = 'This subagent was started by a read-only subagent, so it is read-only too.';
