import { ToolInputError } from '../errors/tool-input-error.js';
import { jsonBoundsProblem, TOOL_INPUT_BOUNDS } from '../history/json-bounds.js';
import type { Tool, ToolAgentContext } from '../tools/types.js';
import { describeThrown } from '../errors/describe-thrown.js';

/** The input, validated, or the problem as a sentence for the model. */
export type ValidatedInput = { ok: true; value: unknown } | { ok: false; message: string };

/** Options of {@link validateToolInput}. */
export interface ValidateToolInputOptions {
  tool: Tool;
  /** The input to check: the model's, a hook's rewrite, or the host's edit. */
  input: unknown;
  toolUseId: string;
  agent: ToolAgentContext;
  signal: AbortSignal;
}

/**
 * Validates an input: its size and depth first (plain JSON within `TOOL_INPUT_BOUNDS`), then the
 * tool's schema (`parseInput`), then its own `validateInput`.
 * Never throws: a `validateInput` that throws counts as a failed validation.
 */
export async function validateToolInput(options: ValidateToolInputOptions): Promise<ValidatedInput> {
  const parsed = parseToolInput(options.tool, options.input);
  if (parsed.ok && options.tool.validateInput !== undefined) return checkWithTool(options, parsed.value);
  return parsed;
}

/**
 * The first two checks of {@link validateToolInput}, which need no signal: the input's size and
 * depth (plain JSON within `TOOL_INPUT_BOUNDS`), then the tool's schema (`parseInput`).
 */
export function parseToolInput(tool: Tool, input: unknown): ValidatedInput {
  // Bounded before anything walks it: a hostile input nested thousands deep never reaches a parser.
  const bounds = jsonBoundsProblem(input, TOOL_INPUT_BOUNDS);
  if (bounds) return { ok: false, message: new ToolInputError(tool.name, [`the input is ${bounds}`]).message };
  const parsed = tool.parseInput(input);
  if (!parsed.ok) return { ok: false, message: new ToolInputError(tool.name, parsed.issues).message };
  return { ok: true, value: parsed.value };
}

/** The tool's own `validateInput`, after the schema passed ({@link parseToolInput}). */
export async function checkWithTool(options: ValidateToolInputOptions, value: unknown): Promise<ValidatedInput> {
  const { tool, toolUseId, agent, signal } = options;
  let problem: string | undefined;
  try {
    problem = await tool.validateInput!({ input: value, toolUseId, agent, signal });
  } catch (cause) {
    problem = `its validateInput check failed (${describeThrown(cause)})`;
  }
  if (typeof problem === 'string' && problem !== '') {
    return { ok: false, message: new ToolInputError(tool.name, [problem]).message };
  }
  return { ok: true, value };
}
