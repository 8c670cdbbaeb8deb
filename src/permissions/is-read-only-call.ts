import type { Tool } from '../tools/types.js';
import { argumentError, isObjectValue } from '../errors/argument-error.js';

/**
 * Whether one call only reads: the tool's per-call opinion (`isReadOnlyCall`) when it has one,
 * else its `readOnly` flag. A per-call check that throws counts as "not read-only".
 */
export function isReadOnlyCall(tool: Pick<Tool, 'readOnly' | 'isReadOnlyCall'>, input: unknown): boolean {
  if (!isObjectValue(tool)) throw argumentError('isReadOnlyCall', 'tool', 'a tool (defineTool())', tool);
  return isReadOnlyCallUnchecked(tool, input);
}

/** {@link isReadOnlyCall} without its argument checks, for the library's own calls (their arguments are known good). @internal */
export function isReadOnlyCallUnchecked(tool: Pick<Tool, 'readOnly' | 'isReadOnlyCall'>, input: unknown): boolean {
  if (tool.isReadOnlyCall === undefined) return tool.readOnly;
  try {
    return tool.isReadOnlyCall(input) === true;
  } catch {
    return false;
  }
}
