import { ToolInputError } from '../errors/tool-input-error.js';
import { jsonBoundsProblem, TOOL_INPUT_BOUNDS } from '../history/json-bounds.js';
import type { Tool, ToolAgentContext } from '../tools/types.js';
import { callNowOrLater } from '../tools/call-now-or-later.js';
import { describeThrown } from '../errors/describe-thrown.js';
import { copyToolInput } from '../hooks/copy-tool-input.js';

/** The input, validated, or the problem as a sentence for the model. */
export type ValidatedInput = { ok: true; value: unknown } | { ok: false; message: string };

/** Options of {@link validateToolInput}. */
export interface ValidateToolInputOptions {
  tool: Tool;
  /** The input to check: the model's, a hook's rewrite, or the host's edit. */
  input: unknown;
  /**
   * Who wrote `input`: the host's edits are checked with the tool's `parseHostInput` when it has
   * one (fields only the host may set), and its `validateHostInput` when it has one.
   */
  writtenBy: 'model' | 'host';
  toolUseId: string;
  agent: ToolAgentContext;
  signal: AbortSignal;
}

/** What a tool's own `validateInput` is given besides the input; `signal` is read only if it runs. */
export interface ToolCheckContext {
  readonly toolUseId: string;
  readonly agent: ToolAgentContext;
  readonly signal: AbortSignal;
}

/**
 * Validates an input: its size and depth first (plain JSON within `TOOL_INPUT_BOUNDS`), then the
 * tool's schema (`parseInput`), then its own `validateInput`.
 * Never throws: a `validateInput` that throws counts as a failed validation.
 */
export async function validateToolInput(options: ValidateToolInputOptions): Promise<ValidatedInput> {
  return validateToolInputNow(options.tool, options.input, options, options.writtenBy);
}

/**
 * {@link validateToolInput} without a promise when it can answer at once: a tool without its own
 * `validateInput` is checked synchronously (the permission pipeline's common case, every call),
 * and `context.signal` is read only when that check runs (a run's signal is made on first read,
 * see `RunAbort`).
 */
export function validateToolInputNow(tool: Tool, input: unknown, context: ToolCheckContext, writtenBy: 'model' | 'host' = 'model'): ValidatedInput | Promise<ValidatedInput> {
  // Bounded before anything walks it: a hostile input nested thousands deep never reaches a parser.
  const bounds = jsonBoundsProblem(input, TOOL_INPUT_BOUNDS);
  if (bounds) return { ok: false, message: new ToolInputError(tool.name, [`the input is ${bounds}`]).message };
  // The host's input is copied (plain JSON, as just checked): a callback that keeps the object it
  // gave as `updatedInput` and changes it later changes neither the call that runs nor its record.
  const given = writtenBy === 'host' ? copyToolInput(input) : input;
  const parsed = writtenBy === 'host' && tool.parseHostInput !== undefined ? tool.parseHostInput(given) : tool.parseInput(given);
  if (!parsed.ok) return { ok: false, message: new ToolInputError(tool.name, parsed.issues).message };
  // The host's edit is checked by the tool's host check when it has one (see `Tool.validateHostInput`).
  const check = writtenBy === 'host' && tool.validateHostInput !== undefined ? tool.validateHostInput : tool.validateInput;
  if (check !== undefined) return checkWithTool(tool, check, context, parsed.value);
  return { ok: true, value: parsed.value };
}

/**
 * The tool's own `validateInput` (or `validateHostInput`), after the schema passed: read at once
 * when the check answers synchronously (no promise for the call's decision), else once it settles.
 */
function checkWithTool(tool: Tool, check: NonNullable<Tool['validateInput']>, context: ToolCheckContext, value: unknown): ValidatedInput | Promise<ValidatedInput> {
  return callNowOrLater(
    () => check.call(tool, { input: value, toolUseId: context.toolUseId, agent: context.agent, signal: context.signal }),
    (problem) => judged(tool, problem, value),
    (cause) => judged(tool, `its validateInput check failed (${describeThrown(cause)})`, value),
  );
}

/** What a tool's check said of an input: a problem (a non-empty string) refuses it. */
function judged(tool: Tool, problem: unknown, value: unknown): ValidatedInput {
  if (typeof problem === 'string' && problem !== '') {
    return { ok: false, message: new ToolInputError(tool.name, [problem]).message };
  }
  return { ok: true, value };
}
