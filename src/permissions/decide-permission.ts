import type { DecidePermissionArgs, PermissionOutcome } from './decide-permission-types.js';
import { isThenable } from '../tools/is-thenable.js';
import { validateInputStep } from './steps/1-validate-input.js';
import { preToolUseHooksStep } from './steps/2-pre-tool-use-hooks.js';
import { denyRulesStep } from './steps/3-deny-rules.js';
import { askRulesStep } from './steps/4-ask-rules.js';
import { modeStep, planModeDenial } from './steps/5-mode.js';
import { allowRulesStep } from './steps/6-allow-rules.js';
import { toolCheckStep } from './steps/7-tool-check.js';
import { askStep } from './steps/8-ask.js';
import type { PermissionStep, PipelineState, StepResult } from './steps/pipeline-state.js';
import { CallTargets } from './call-targets.js';
import { argumentError, isObjectValue } from '../errors/argument-error.js';
import { isAbortSignal } from '../options/option-checks.js';
import { assertPermissionMode } from './assert-permission-mode.js';

/**
 * Steps 1–7 in their documented order; the first that decides wins, one that asks jumps to
 * step 8 ({@link askStep}), which always decides.
 */
export const PERMISSION_STEPS: readonly PermissionStep[] = [
  validateInputStep,
  preToolUseHooksStep,
  denyRulesStep,
  askRulesStep,
  modeStep,
  allowRulesStep,
  toolCheckStep,
];

/** A step's verdict as the pipeline's outcome; undefined when the step had no opinion. */
function settle(state: PipelineState, result: StepResult): PermissionOutcome | Promise<PermissionOutcome> | undefined {
  if (result?.type === 'decided') return result.outcome;
  if (result?.type === 'ask') {
    // An answer may take any time, and what a path leads to may change meanwhile: the final check
    // of an allowed call works out what it reads and writes afresh.
    state.targets = new CallTargets();
    return askStep(state, result.ask);
  }
  return undefined;
}

/**
 * Runs the steps from `from` on. Most steps decide synchronously, and a call no step awaits
 * anything for is decided without a promise (awaiting each would cost a promise and a microtask
 * per step and per frame); the first step that returns a promise continues the rest after it.
 */
function runSteps(state: PipelineState, from = 0): PermissionOutcome | Promise<PermissionOutcome> {
  for (let index = from; index < PERMISSION_STEPS.length; index++) {
    const pending = PERMISSION_STEPS[index]!(state);
    if (isThenable(pending)) return Promise.resolve(pending).then((result) => settle(state, result) ?? runSteps(state, index + 1));
    const outcome = settle(state, pending);
    if (outcome) return outcome;
  }
  // Unreachable: the tool-check step always decides or asks.
  return askStep(state, { reason: { type: 'default' } });
}

/**
 * Decides one tool call, in this order (the first decisive step wins):
 * 1. schema, then the tool's `validateInput` (failure → deny, reason `validation`);
 * 2. `PreToolUse` hooks (deny > defer > ask > allow; rewrites chain and are validated again; a
 *    failing hook denies);
 * 3. deny rules → deny (every mode); 4. ask rules, or a hook's ask/defer → ask (every mode);
 * 5. mode: `bypassPermissions` → allow, `plan` → deny what is not read-only, `acceptEdits` →
 *    allow edit-kind calls unless the tool's check asks or denies;
 * 6. allow rules, or a hook's allow → allow;
 * 7. the tool's `checkPermissions`; with no opinion, read-only → allow, else ask;
 * 8. ask: `dontAsk` → deny; `auto` → classifier; `PermissionRequest` hooks; then a
 *    `permission-request` event and `canUseTool` (none → defer).
 * Whatever the answer, an allowed call is checked once more with its final input: deny rules
 * always win, and a call that is not read-only is never allowed in plan mode.
 *
 * Pure apart from the callbacks it is given: it applies no permission updates and emits only
 * `permission-request` and non-fatal `error` events (the loop emits `permission-decision`).
 * @returns the decision, the validated input, and for `defer` what a pending approval needs.
 * @example
 * const { decision, input } = await decidePermission({ tool, toolUseId, rawInput, mode: 'default',
 *   rules, canUseTool, signal, agent, emit: (event) => emitter.emit({ ...event, sessionId }) });
 */
export async function decidePermission(args: DecidePermissionArgs): Promise<PermissionOutcome> {
  if (!isObjectValue(args)) throw argumentError('decidePermission', 'args', 'an object ({ tool, toolUseId, rawInput, mode, signal, ... })', args);
  if (!isObjectValue(args.tool) || typeof args.tool.name !== 'string') throw argumentError('decidePermission', 'args.tool', 'a tool (defineTool())', args.tool);
  if (typeof args.toolUseId !== 'string') throw argumentError('decidePermission', 'args.toolUseId', "the call's toolUseId (a string)", args.toolUseId);
  assertPermissionMode(args.mode, 'decidePermission: `args.mode`');
  isAbortSignal(args.signal, { owner: 'decidePermission', path: 'args.signal' });
  if (!isObjectValue(args.agent)) throw argumentError('decidePermission', 'args.agent', "the agent the call runs in (a tool's context.agent)", args.agent);
  if (typeof args.emit !== 'function') throw argumentError('decidePermission', 'args.emit', 'a function taking the events the pipeline emits', args.emit);
  return decidePermissionNow(args);
}

/**
 * {@link decidePermission} without a promise when nothing on the way is asynchronous (no hook,
 * no host question): the loop decides most calls this way. A step that throws throws here.
 */
export function decidePermissionNow(args: DecidePermissionArgs): PermissionOutcome | Promise<PermissionOutcome> {
  const state: PipelineState = {
    args,
    input: undefined,
    hookVerdict: undefined,
    toolCheck: undefined,
    outsidePath: undefined,
    targets: new CallTargets(),
  };
  const outcome = runSteps(state);
  return isThenable(outcome) ? Promise.resolve(outcome).then((settled) => checkAllowed(state, settled)) : checkAllowed(state, outcome);
}

function checkAllowed(state: PipelineState, outcome: PermissionOutcome): PermissionOutcome | Promise<PermissionOutcome> {
  return outcome.decision.behavior === 'allow' ? enforceInvariants(state, outcome) : outcome;
}

/**
 * Whatever answered, an allowed call must still pass the deny rules and plan mode with the input
 * it will run with: a host or `PermissionRequest` hook may have edited it after step 3 (e.g. a
 * read-only command turned into a writing one).
 */
function enforceInvariants(state: PipelineState, outcome: PermissionOutcome): PermissionOutcome | Promise<PermissionOutcome> {
  const pending = denyRulesStep(state);
  if (isThenable(pending)) return Promise.resolve(pending).then((denied) => invariantOutcome(state, denied, outcome));
  return invariantOutcome(state, pending, outcome);
}

function invariantOutcome(state: PipelineState, denied: StepResult, outcome: PermissionOutcome): PermissionOutcome {
  if (denied?.type === 'decided') return denied.outcome;
  if (state.args.mode === 'plan' && !state.targets.readOnly(state.args.tool, state.input)) return planModeDenial(state);
  return outcome;
}
