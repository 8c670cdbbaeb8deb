import type { PermissionOutcome } from '../decide-permission-types.js';
import { isReadOnlyCallUnchecked } from '../is-read-only-call.js';
import { copyToolInput } from '../../hooks/copy-tool-input.js';
import { withDescription } from '../describe-permission-update.js';
import { suggestPermissionUpdates } from '../suggest-permission-updates.js';
import type { PermissionUpdate } from '../../types/permission.js';
import type { ToolDisplay } from '../../tools/types.js';
import { hasHooks } from '../../hooks/has-hooks.js';
import { pathOutsideWorkspace, planModeDenial } from './5-mode.js';
import { autoClassifierStep } from './8a-auto-classifier.js';
import { permissionRequestHooksStep } from './8b-permission-request-hooks.js';
import { canUseToolStep } from './8c-can-use-tool.js';
import { defer, deny, type AskRequest, type PipelineState } from './pipeline-state.js';
import { copyDisplay, toolDisplay } from './tool-display.js';
import { copyQuestionPart } from './copy-question-part.js';
import { revealHiddenCharacters } from '../../tools/reveal-hidden-characters.js';

/**
 * Whether switching to `acceptEdits` would approve this call: not when the session is already in
 * it (the call was asked there), nor for a path outside the workspace (or any path with no `cwd`)
 * of a tool without its own check, which `acceptEdits` asks about too.
 */
function acceptEditsWouldAllow(state: PipelineState): boolean {
  if (state.args.mode === 'acceptEdits') return false;
  return state.args.tool.checkPermissions !== undefined || pathOutsideWorkspace(state) === undefined;
}

/**
 * The "always allow" updates offered with a question. In plan mode none switches the mode: the
 * question is about a call that only reads, and a host that takes the suggestions (an edit-kind
 * tool's would switch to `acceptEdits`) must not leave plan mode without a plan approved.
 */
function suggestionsFor(state: PipelineState, ask: AskRequest): PermissionUpdate[] {
  const { tool, cwd, mode } = state.args;
  if (ask.reason.type === 'plan-approval' || ask.reason.type === 'question') return ask.suggestions ?? [];
  let suggestions = ask.suggestions ?? suggestPermissionUpdates(tool, state.input, { cwd });
  if (mode === 'plan') suggestions = suggestions.filter((update) => update.type !== 'setMode');
  else if (!acceptEditsWouldAllow(state)) suggestions = suggestions.filter((update) => update.type !== 'setMode' || update.mode !== 'acceptEdits');
  // In plain words for the card's buttons ("Allow writing any file in this project").
  return suggestions.map((update) => withDescription(update, { tool, ...(cwd === undefined ? {} : { cwd }) }));
}

/**
 * Step 8: a question (from a hook, a rule or the tool check). In plan mode a call that is not
 * read-only is refused without asking (an ask rule cannot open plan mode); `dontAsk` denies;
 * a hook's `defer` parks the call; `auto` lets the classifier decide; then `PermissionRequest`
 * hooks; then a `permission-request` event and `canUseTool` (none → defer).
 *
 * Decided without a promise when nothing is awaited (not `auto`, no `PermissionRequest` hook, no
 * display still to make, no `canUseTool`): the approval of a call then is recorded in the tick
 * the answer that made the call was, and both go to the store in one write.
 */
export function askStep(state: PipelineState, ask: AskRequest): PermissionOutcome | Promise<PermissionOutcome> {
  const { mode, tool, hooks, canUseTool } = state.args;
  if (mode === 'plan' && !isReadOnlyCallUnchecked(tool, state.input)) return planModeDenial(state);
  if (mode === 'dontAsk' && tool.requiresUserInteraction) {
    const message = `The user cannot be asked now (the session is in dontAsk mode), so ${tool.name} was not run. Make a reasonable assumption, say which, and go on.`;
    return deny(state, { type: 'mode', mode, message }, message);
  }
  if (mode === 'dontAsk') {
    const message = `Permission to use ${tool.name} was not granted: the session is in dontAsk mode, where calls that need approval are refused without asking. Work with what is already allowed.`;
    return deny(state, { type: 'mode', mode, message }, message);
  }
  // The reason is drawn on the card, and a tool check's quotes the model's path or command: its
  // hidden characters are shown as `<U+202E>`, as the display's are.
  const message = (ask.reason as { message?: unknown }).message;
  if (typeof message === 'string') ask = { ...ask, reason: { ...ask.reason, message: revealHiddenCharacters(message) } as typeof ask.reason };
  const suggestions = suggestionsFor(state, ask);
  const displayMade = tool.display === undefined || state.display !== undefined;
  if (!displayMade || (!ask.deferOnly && (mode === 'auto' || hasHooks(hooks, 'PermissionRequest') || canUseTool !== undefined))) return askAfterWaits(state, ask, suggestions);
  if (!ask.deferOnly) emitRequest(state, ask, suggestions, state.display);
  return defer(state, ask.reason, suggestions, ask.blockedPath);
}

/** The rest of step 8 where something is awaited: the display, the classifier, the hooks or the host. */
async function askAfterWaits(state: PipelineState, ask: AskRequest, suggestions: PermissionUpdate[]): Promise<PermissionOutcome> {
  if (ask.deferOnly) {
    await toolDisplay(state);
    return defer(state, ask.reason, suggestions, ask.blockedPath);
  }
  const classified = await autoClassifierStep(state, ask);
  if (classified !== undefined) return classified;
  const hooked = await permissionRequestHooksStep(state, ask, suggestions);
  if (hooked !== undefined) return hooked;
  emitRequest(state, ask, suggestions, await toolDisplay(state));
  return canUseToolStep(state, ask, suggestions);
}

/** The `permission-request` event of a question about to go to the host. */
function emitRequest(state: PipelineState, ask: AskRequest, suggestions: PermissionUpdate[], display: ToolDisplay | undefined): void {
  const { tool, emit, agent } = state.args;
  const agentId = state.args.agentId ?? agent.agentId;
  emit({
    type: 'permission-request',
    toolUseId: state.args.toolUseId,
    toolName: tool.name,
    // Copies: a listener that changes them in place changes neither the question, nor the call,
    // nor the approval the session keeps.
    input: copyToolInput(state.input),
    reason: copyQuestionPart(ask.reason),
    suggestions: copyQuestionPart(suggestions),
    ...(ask.blockedPath === undefined ? {} : { blockedPath: ask.blockedPath }),
    ...(display === undefined ? {} : { display: copyDisplay(display) }),
    ...(tool.annotations === undefined ? {} : { toolAnnotations: { ...tool.annotations } }),
    ...(agentId === undefined ? {} : { agentId }),
  });
}
