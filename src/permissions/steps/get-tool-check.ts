import type { ToolPermissionCheck } from '../../types/permission.js';
import { reportError, type AskRequest, type PipelineState, type StepResult } from './pipeline-state.js';
import { describeThrown } from '../../errors/describe-thrown.js';
import { describeJson } from '../../options/describe-json.js';
import { readAnswer, type AnswerField } from '../../options/read-answer.js';
import { callNowOrLater } from '../../tools/call-now-or-later.js';
import { isThenable } from '../../tools/is-thenable.js';

/** The documented fields of a `ToolPermissionCheck`: what is read of the answer. */
const CHECK_FIELDS: ReadonlyArray<AnswerField<ToolPermissionCheck>> = ['behavior', 'message', 'blockedPath', 'suggestions', 'safety', 'askReason'];

const BEHAVIORS = new Set(['allow', 'deny', 'ask', 'passthrough']);

/**
 * Calls the tool's check. A check that answers synchronously is read at once (no promise: the
 * call may then be decided, and its approval recorded, in the tick its answer came in); a
 * promise is read once it settles.
 */
function callToolCheck(state: PipelineState): ToolPermissionCheck | Promise<ToolPermissionCheck> {
  const { tool, toolUseId, agent } = state.args;
  const check = tool.checkPermissions;
  if (check === undefined) return { behavior: 'passthrough' };
  // Read only when handed out: a run's signal is made on first read (see RunAbort).
  const { signal } = state.args;
  return callNowOrLater(
    () => check.call(tool, { input: state.input, toolUseId, agent, signal }),
    (answer) => readCheck(state, answer),
    (cause) => failedCheck(state, cause),
  );
}

/** A check's answer, read once: its documented fields, or a failed check for anything else. */
function readCheck(state: PipelineState, answer: unknown): ToolPermissionCheck {
  try {
    // Read once, inside the try: a check whose fields throw when read is a check that failed.
    const check = readAnswer(answer as ToolPermissionCheck, CHECK_FIELDS) as ToolPermissionCheck;
    if (typeof check === 'object' && check !== null && BEHAVIORS.has(check.behavior)) return check;
    throw new Error(`returned ${describeJson(check)}; expected { behavior: 'allow' | 'deny' | 'ask' | 'passthrough' }`);
  } catch (cause) {
    return failedCheck(state, cause);
  }
}

/** Fail closed: a broken check must not let the call through (reported as an `error` event). */
function failedCheck(state: PipelineState, cause: unknown): ToolPermissionCheck {
  const message = `The permission check of tool "${state.args.tool.name}" failed: ${describeThrown(cause).trim().replace(/\.+$/, '')}`;
  reportError(state, new Error(message, { cause }));
  return { behavior: 'deny', message: `${message}. The call was not run.` };
}

/**
 * The tool's own `checkPermissions` answer for the current input, called at most once per
 * decision (the mode step and the tool-check step share it): the answer itself when the check
 * gave it synchronously, else a promise of it. A check that throws or answers nonsense denies
 * (fail closed) and reports an `error` event.
 */
function getToolCheck(state: PipelineState): ToolPermissionCheck | Promise<ToolPermissionCheck> {
  state.toolCheck ??= callToolCheck(state);
  return state.toolCheck;
}

/**
 * `then` of the tool's check ({@link getToolCheck}): at once when the check answered
 * synchronously (the step decides without a promise), else once it settles.
 */
export function withToolCheck<R>(state: PipelineState, then: (check: ToolPermissionCheck) => R): R | Promise<R> {
  const check = getToolCheck(state);
  return isThenable(check) ? check.then(then) : then(check);
}

/** The ask request of a tool check that said `ask`: its own reason (e.g. plan approval) or `tool-check`. */
export function askFromToolCheck(check: Extract<ToolPermissionCheck, { behavior: 'ask' }>, fallbackBlockedPath?: string): StepResult {
  const ask: AskRequest = {
    reason: check.askReason ?? { type: 'tool-check', ...(check.message === undefined ? {} : { message: check.message }) },
  };
  if (check.suggestions !== undefined) ask.suggestions = check.suggestions;
  const blockedPath = check.blockedPath ?? fallbackBlockedPath;
  if (blockedPath !== undefined) ask.blockedPath = blockedPath;
  return { type: 'ask', ask };
}
