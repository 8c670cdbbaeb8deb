import { toolSearchVariantOf } from '../../tool-search/index.js';

type Raw = Record<string, unknown>;

function isFunctionTool(tool: Raw): boolean {
  return tool.type === undefined || tool.type === 'custom';
}

/**
 * The tool search rules of the Messages API (wording not confirmed from recorded real bodies):
 * a tool search tool cannot itself be deferred; at least one tool must be loaded; and a
 * `tool_reference` (in a tool result or a search result) must name a tool of the request.
 */
export function toolSearchProblem(request: Raw): string | undefined {
  const tools = Array.isArray(request.tools) ? (request.tools as Raw[]) : [];
  for (let index = 0; index < tools.length; index++) {
    const tool = tools[index]!;
    if (toolSearchVariantOf(tool.type) && tool.defer_loading === true) return `tools.${index}: the tool search tool cannot have defer_loading set to true`;
  }
  if (tools.length > 0 && tools.every((tool) => tool.defer_loading === true)) {
    return 'tools: at least one tool must have defer_loading set to false; all tools cannot be deferred';
  }
  const names = new Set(tools.filter(isFunctionTool).map((tool) => String(tool.name)));
  const messages = Array.isArray(request.messages) ? (request.messages as Raw[]) : [];
  for (let index = 0; index < messages.length; index++) {
    const content = messages[index]!.content;
    if (!Array.isArray(content)) continue;
    for (let position = 0; position < content.length; position++) {
      for (const name of referencedTools(content[position] as Raw)) {
        if (!names.has(name)) {
          return `messages.${index}.content.${position}: tool_reference to "${name}", which is not defined in tools; every referenced tool must be in the request's tools (with defer_loading: true)`;
        }
      }
    }
  }
  return undefined;
}

function referencedTools(block: Raw): string[] {
  if (block.type === 'tool_result' && Array.isArray(block.content)) {
    return (block.content as Raw[]).filter((item) => item.type === 'tool_reference').map((item) => String(item.tool_name));
  }
  if (block.type === 'tool_search_tool_result') {
    const references = (block.content as { tool_references?: Raw[] } | undefined)?.tool_references;
    return Array.isArray(references) ? references.map((item) => String(item.tool_name)) : [];
  }
  return [];
}
