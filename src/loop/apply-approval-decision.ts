import { storedDecision } from './stored-decision.js';
import type { AgentCore } from '../runtime/agent-core.js';
import type { PermissionDecision, PermissionResult } from '../types/permission.js';
import { validateToolInput } from '../permissions/validate-tool-input.js';
import { jsonBoundsProblem, TOOL_INPUT_BOUNDS } from '../history/json-bounds.js';
import { hostFacingApproval, type BatchCall } from '../state/index.js';
import { planRejected } from './announce-question.js';
import { describeInputChange, inputChanged } from './describe-input-change.js';
import { refuseCall } from './refuse-call.js';
import { commitCallAllowed } from './commit-call-allowed.js';
import { mcpOriginRefusal } from './mcp-origin-refusal.js';
import { copyToolInput } from '../hooks/copy-tool-input.js';

/** The host's answer to a pending approval. */
export type ApprovalDecision = Exclude<PermissionResult, { behavior: 'defer' }>;

/**
 * Applies the host's answer to a deferred call: records it, then either answers the call with
 * the denial, or allows it with the approval's input — the input the host was shown — or the
 * host's edit of it (validated again, checked against the deny rules, and told to the model).
 * Permission updates are applied (or, for a tool that applies its own, kept for it). The run
 * that follows executes what is allowed.
 * @returns true when the host asked to stop the run after the batch (a denial with `interrupt`).
 */
export async function applyApprovalDecision(core: AgentCore, call: BatchCall, answer: ApprovalDecision, signal: AbortSignal): Promise<boolean> {
  const approval = call.approval!;
  const decision = recordedDecision(core, answer);
  core.commit({
    kind: 'approval-resolved',
    approvalId: approval.id,
    toolUseId: call.toolUseId,
    decision,
    ...(decision.behavior === 'allow' && decision.updatedInput !== undefined ? { input: decision.updatedInput } : {}),
  });
  const base = { toolName: call.toolName, toolUseId: call.toolUseId };
  const refuse = (message: string, reason: PermissionDecision['reason'], interrupt = false) => {
    const refusal: PermissionDecision = { ...base, reason, behavior: 'deny', message, ...(interrupt ? { interrupt: true } : {}) };
    core.commit({ kind: 'permission-decision', decision: refusal });
    core.emit({ type: 'permission-decision', ...refusal });
    refuseCall(core, call, message);
    return interrupt;
  };
  if (decision.behavior === 'deny') {
    const message = approval.reason.type === 'plan-approval' ? planRejected(core, call.toolUseId, decision.message) : decision.message;
    return refuse(message, { type: 'callback', message: 'resolved approval' }, decision.interrupt === true);
  }
  const tool = core.tools.get(call.toolName);
  if (!tool) return refuse(`No tool named "${call.toolName}" exists any more, so the call was not run.`, { type: 'validation', message: 'unknown tool' });
  // The name may now mean another tool of the server (its tools changed since the call was asked,
  // in this process or another): only the tool the model called and the host approved runs.
  if (approval.mcpTool !== undefined) {
    const message = mcpOriginRefusal(call.toolName, tool, approval.mcpTool);
    if (message !== undefined) return refuse(message, { type: 'validation', message });
  }
  // What runs is what the host was shown: the approval's input (one source, never a second copy),
  // without answers the model wrote into a question's input (kept by older builds).
  // The host's edit as it was given (the recorded decision leaves out one that is not plain JSON).
  const edit = answer.behavior === 'allow' ? answer.updatedInput : undefined;
  let input = hostFacingApproval(approval).input;
  let note: string | undefined;
  let edited = false;
  if (edit === undefined) {
    // The approval may have been read from a snapshot or a transcript: its input is checked
    // against the tool's schema again (and its bounds) before anything runs with it.
    const bounds = jsonBoundsProblem(input, TOOL_INPUT_BOUNDS);
    const parsed = bounds ? undefined : tool.parseInput(input);
    if (bounds || !parsed?.ok) {
      const message = `The call was not run: the input of its approval does not fit the tool's schema (${bounds ? `the input is ${bounds}` : parsed!.ok ? '' : parsed!.issues.join('; ')}). The tool has changed since the call was asked (or the stored session was altered); make the call again if it is still needed.`;
      return refuse(message, { type: 'validation', message });
    }
  } else {
    // The same checks as the model's input: bounds, the schema, then the tool's own validateInput.
    const validated = await validateToolInput({ tool, input: edit, writtenBy: 'host', toolUseId: call.toolUseId, agent: core.toolContext, signal });
    if (!validated.ok) {
      const message = `The edited input was not run: ${validated.message}`;
      return refuse(message, { type: 'validation', message });
    }
    // A question's answers are the point of the call, not an edit to warn about.
    if (!tool.requiresUserInteraction && !tool.handlesHostAnswer) note = describeInputChange(input, validated.value);
    // Only an input the host really changed is an edit (an echo of the approval's is not).
    // Nor is an echo of the input as an older build showed it (a question's, with the answers the
    // model wrote, which a host may have kept on its own card).
    edited = inputChanged(input, validated.value) && (input === approval.input || inputChanged(approval.input, validated.value));
    input = validated.value;
  }
  // Whatever the host answered, the deny rules still hold for the input that would run.
  const rule = core.rules.match('deny', tool, input, { cwd: core.options.cwd });
  if (rule !== undefined) {
    return refuse(`The input for ${call.toolName} matches the deny rule "${rule}", so the call was not run.`, { type: 'rule', behavior: 'deny', rule });
  }
  const allowed: PermissionDecision = {
    ...base,
    reason: { type: 'callback', message: 'resolved approval' },
    behavior: 'allow',
    input,
    ...(decision.updatedPermissions ? { updatedPermissions: decision.updatedPermissions } : {}),
  };
  // One append: a crash never keeps the allowed call without the host's permission updates.
  core.inOneWrite(() => {
    // The input is stored once, by the `call-allowed` entry.
    core.commit({ kind: 'permission-decision', decision: storedDecision(core, allowed, input) });
    commitCallAllowed(core, call, tool, input, { updatedPermissions: decision.updatedPermissions, edited, note, clearContext: decision.clearContext });
    core.emit({ type: 'permission-decision', ...allowed });
    // Checked when the decision was recorded.
    if (!tool.handlesHostAnswer) core.applyCheckedPermissionUpdates(decision.updatedPermissions);
  });
  return false;
}

/**
 * The host's answer as it is recorded: its known fields only (a UI's decision object may carry
 * methods), its permission updates checked whole and copied, and an edited input only when it is
 * plain JSON — one that is not is refused as the call's result below, never stored.
 * @throws ConfigurationError for a malformed permission update (nothing is recorded then).
 */
function recordedDecision(core: AgentCore, answer: ApprovalDecision): ApprovalDecision {
  if (answer.behavior === 'deny') return { behavior: 'deny', message: answer.message, ...(answer.interrupt === true ? { interrupt: true } : {}) };
  const updatedPermissions = core.checkPermissionUpdates(answer.updatedPermissions);
  const plainInput = answer.updatedInput !== undefined && jsonBoundsProblem(answer.updatedInput, TOOL_INPUT_BOUNDS) === undefined;
  return {
    behavior: 'allow',
    // A copy: an object the host keeps and changes later does not alter the record (what runs is
    // validateToolInput's own copy).
    ...(plainInput ? { updatedInput: copyToolInput(answer.updatedInput) } : {}),
    ...(updatedPermissions ? { updatedPermissions } : {}),
    ...(answer.clearContext === true ? { clearContext: true } : {}),
  };
}
