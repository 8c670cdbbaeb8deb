/**
 * The key under which a tool call's unparseable input JSON is kept. When the model stops inside a
 * tool call (`stop_reason: 'max_tokens'`) or streams JSON that does not parse, the adapter sets the
 * block's `input` to `{ [INCOMPLETE_TOOL_INPUT_KEY]: rawText }` instead of guessing a partial
 * object. The input stays a JSON object (so the message can be sent back to the API and survives
 * snapshots), and the loop can tell the call apart from a tool called with no arguments (`{}`).
 */
export const INCOMPLETE_TOOL_INPUT_KEY = '__incomplete_json__';

/** The `input` of a tool call whose streamed JSON could not be parsed. */
export interface IncompleteToolInput {
  /** The raw `partial_json` text received, concatenated. */
  [INCOMPLETE_TOOL_INPUT_KEY]: string;
}

/**
 * True when a tool call's `input` is the marker for JSON that was cut off or malformed.
 * @param input - the `input` of a `tool_use` block.
 * @example
 * if (isIncompleteToolInput(block.input)) return errorResult('Your tool input was cut off.');
 */
export function isIncompleteToolInput(input: unknown): input is IncompleteToolInput {
  return (
    typeof input === 'object' &&
    input !== null &&
    typeof (input as Record<string, unknown>)[INCOMPLETE_TOOL_INPUT_KEY] === 'string'
  );
}

/**
 * Parses a tool call's concatenated `partial_json`: empty → `{}`; bad JSON, or JSON that is not
 * an object (the API takes only object inputs back) → the marker object.
 */
export function parseToolInputJson(raw: string): unknown {
  if (raw === '') return {};
  try {
    const value = JSON.parse(raw) as unknown;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value;
  } catch {
    // cut off or malformed: marked below
  }
  return { [INCOMPLETE_TOOL_INPUT_KEY]: raw } satisfies IncompleteToolInput;
}
