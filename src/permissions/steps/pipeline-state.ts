import type { ComposedPreToolUse } from '../../hooks/compose-pre-tool-use.js';
import type { DecidePermissionArgs, PermissionOutcome } from '../decide-permission-types.js';
import type { ToolDisplay } from '../../types/tool-display.js';
import type { PermissionReason, PermissionUpdate, ToolPermissionCheck } from '../../types/permission.js';
import { toError } from '../../errors/describe-thrown.js';
import type { CallTargets } from '../call-targets.js';

/** What the steps share while one call is decided. */
export interface PipelineState {
  readonly args: DecidePermissionArgs;
  /** The validated input so far (after hook rewrites and host edits). */
  input: unknown;
  /** The composed `PreToolUse` verdict when it was ask, defer or allow (a deny ends the pipeline). */
  hookVerdict: ComposedPreToolUse | undefined;
  /** The tool's `checkPermissions` answer (a promise of it while an asynchronous check runs), computed at most once (see `getToolCheck`). */
  toolCheck: ToolPermissionCheck | Promise<ToolPermissionCheck> | undefined;
  /** A path outside the workspace that kept `acceptEdits` from approving an edit. */
  outsidePath: string | undefined;
  /** What the call reads and writes, worked out once for the rule checks of this decision (afresh after the ask step). */
  targets: CallTargets;
  /** The input before the host edited it (set by the ask step's answers). */
  editedFrom?: unknown;
  /** What the approval card shows (the tool's `display`), once the call is asked. */
  display?: ToolDisplay;
}

/** A question for the ask step. */
export interface AskRequest {
  /** Why the call is asked. */
  reason: PermissionReason;
  /** Suggestions more precise than the generic ones (from the tool check). */
  suggestions?: PermissionUpdate[];
  /** The path outside the workspace that caused the question. */
  blockedPath?: string;
  /** A `PreToolUse` hook said `defer`: park the call without asking anyone. */
  deferOnly?: boolean;
}

/** A step either decides, sends the call to the ask step, or (`undefined`) passes it on. */
export type StepResult = { type: 'decided'; outcome: PermissionOutcome } | { type: 'ask'; ask: AskRequest } | undefined;

/** One step of the pipeline. */
export type PermissionStep = (state: PipelineState) => StepResult | Promise<StepResult>;

/** Builds an `allow` outcome with the current input. */
export function allow(
  state: PipelineState,
  reason: PermissionReason,
  updatedPermissions?: PermissionUpdate[],
): PermissionOutcome {
  const { tool, toolUseId } = state.args;
  return {
    decision: {
      toolName: tool.name,
      toolUseId,
      behavior: 'allow',
      reason,
      input: state.input,
      ...(updatedPermissions === undefined ? {} : { updatedPermissions }),
    },
    input: state.input,
    ...('editedFrom' in state ? { editedFrom: state.editedFrom } : {}),
  };
}

/** Builds a `deny` outcome; `message` is what the model reads. */
export function deny(state: PipelineState, reason: PermissionReason, message: string, interrupt = false): PermissionOutcome {
  const { tool, toolUseId } = state.args;
  return {
    decision: { toolName: tool.name, toolUseId, behavior: 'deny', reason, message, ...(interrupt ? { interrupt: true } : {}) },
    input: state.input,
  };
}

/**
 * Builds a `defer` outcome: the loop parks the call as a pending approval. Where nobody can wait
 * for the answer (`cannotWait`, a background subagent) it is a denial instead, whichever step
 * would have parked it (a `PreToolUse` hook's `defer` asks no `canUseTool` that could refuse it).
 */
export function defer(
  state: PipelineState,
  reason: PermissionReason,
  suggestions: PermissionUpdate[],
  blockedPath: string | undefined,
): PermissionOutcome {
  const { tool, toolUseId, cannotWait } = state.args;
  if (cannotWait !== undefined) return deny(state, reason, cannotWait);
  return {
    decision: { toolName: tool.name, toolUseId, behavior: 'defer', reason },
    input: state.input,
    suggestions,
    ...(blockedPath === undefined ? {} : { blockedPath }),
    ...(state.display === undefined ? {} : { display: state.display }),
  };
}

/** Wraps an outcome as a decisive step result. */
export const decided = (outcome: PermissionOutcome): StepResult => ({ type: 'decided', outcome });

/** Reports a non-fatal error through the pipeline's `emit`. */
export function reportError(state: PipelineState, error: unknown): void {
  const { emit, agentId, agent } = state.args;
  const id = agentId ?? agent.agentId;
  emit({
    type: 'error',
    error: toError(error),
    fatal: false,
    ...(id === undefined ? {} : { agentId: id }),
  });
}

/** The run was interrupted while the question was open: deny, and end the run after the batch. */
export function interrupted(state: PipelineState): PermissionOutcome {
  const name = state.args.tool.name;
  return deny(
    state,
    { type: 'callback', message: 'The run was interrupted while waiting for a permission decision.' },
    `The run was interrupted before permission to use ${name} was decided; the call was not run.`,
    true,
  );
}
