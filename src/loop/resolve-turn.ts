import { storedDecision } from './stored-decision.js';
import { mcpToolOrigin } from '../mcp/mcp-tool.js';
import { mcpOriginRefusal } from './mcp-origin-refusal.js';
import { disconnectedMcpServer } from './unreachable-mcp-server.js';
import { randomId } from '../ids/random-id.js';
import type { AgentCore, AgentEventInput } from '../runtime/agent-core.js';
import { INCOMPLETE_TOOL_INPUT_KEY, isIncompleteToolInput } from '../model/incomplete-tool-input.js';
import { decidePermissionNow } from '../permissions/decide-permission.js';
import { isThenable } from '../tools/is-thenable.js';
import type { PermissionOutcome } from '../permissions/decide-permission-types.js';
import type { Tool } from '../tools/types.js';
import type { PermissionDecision, PermissionReason } from '../types/permission.js';
import { announceQuestion, planRejected } from './announce-question.js';
import { toolUseOf, type BatchCall, type OpenBatch } from '../state/index.js';
import { describeInputChange, inputChanged } from './describe-input-change.js';
import { refuseCall } from './refuse-call.js';
import { commitCallAllowed } from './commit-call-allowed.js';
import { withSpan, type SpanLike } from '../telemetry/index.js';
import { CallPermissionArgs } from './call-permission-args.js';
import type { RunAbort } from './run-abort.js';

/** How many tool calls of one answer are considered when `maxToolCallsPerTurn` is not set. */
export const DEFAULT_MAX_TOOL_CALLS_PER_TURN = 64;

/** What the model is told about a call past the bound on calls per answer. */
function tooManyCalls(count: number, limit: number, index: number): string {
  // The full explanation once, on the first call past the bound; a short line on the others, so
  // that a thousand refused calls do not fill the context with the same paragraph.
  if (index > limit) return `Not run: past the ${limit} tool calls one answer may make (maxToolCallsPerTurn); see the result of call number ${limit + 1}.`;
  return (
    `This answer made ${count} tool calls, and at most ${limit} of one answer are run (maxToolCallsPerTurn), so this call (number ${index + 1}) was not run. ` +
    `Split your work: send the calls that were not run again in your next answers, at most ${limit} at a time, once you have the results of these.`
  );
}

/** What deciding a batch leaves for the run: denials for the result, and whether the host asked to stop. */
export interface TurnDecisions {
  /** Denied calls, for `RunResult.permissionDenials`. */
  denials: PermissionDecision[];
  /** A host denial asked to end the run once the batch is answered. */
  stopRequested: boolean;
}

/**
 * Decides every undecided call of the batch, in `tool_use` order, through the permission
 * pipeline. Decisions run one at a time, so a mode change or an "always allow" from one call
 * applies to the calls after it. Denied calls are answered at once; allowed ones wait for
 * `executeTools`; deferred ones become pending approvals.
 * @returns undefined when every decision was made synchronously (no hook, no question to the
 * host, no tracer: most turns), else a promise of the rest of the batch.
 */
export function resolveTurn(core: AgentCore, batch: OpenBatch, abort: RunAbort, decisions: TurnDecisions): Promise<void> | undefined {
  return resolveFrom(core, batch.calls, 0, abort, decisions);
}

/** Decides the calls from `start` on; goes on asynchronously only from a decision that is a promise. */
function resolveFrom(core: AgentCore, calls: readonly BatchCall[], start: number, abort: RunAbort, decisions: TurnDecisions): Promise<void> | undefined {
  for (let index = start; index < calls.length; index++) {
    const call = calls[index]!;
    if (call.state !== 'undecided') continue;
    // Aborted, or the host denied a call and asked to stop: the caller answers the rest.
    if (abort.aborted || decisions.stopRequested) return undefined;
    // Past the bound on calls per answer: answered at once, never run nor asked about.
    const limit = core.options.maxToolCallsPerTurn ?? DEFAULT_MAX_TOOL_CALLS_PER_TURN;
    if (index >= limit) {
      refuseCall(core, call, tooManyCalls(calls.length, limit, index));
      continue;
    }
    const tool = core.tools.get(call.toolName);
    if (!tool) {
      // A call made before a restart for a tool of an MCP server that is down now: told as such.
      const down = disconnectedMcpServer(core, call.toolName);
      if (down !== undefined) {
        const why = down.error ? ` (${down.error.replace(/\.+$/, '')})` : '';
        deny(core, call, `The call was not run: ${call.toolName} is a tool of the MCP server "${down.name}", which is ${down.status}${why}. Make the call again later if it is still needed, or do without it.`, decisions, { type: 'validation', message: 'MCP server not connected' });
        continue;
      }
      const available = [...core.tools.keys()].join(', ');
      deny(core, call, `No tool named "${call.toolName}" exists. Available tools: ${available || 'none'}.`, decisions, { type: 'validation', message: 'unknown tool' });
      continue;
    }
    // Made for another MCP tool (or server, or definition) than the name means now — before a
    // crash, or allowed before a restart and reset to be decided again: never decided (nor asked
    // about) for what holds the name now.
    if (call.mcpTool !== undefined) {
      const moved = mcpOriginRefusal(call.toolName, tool, call.mcpTool);
      if (moved !== undefined) {
        deny(core, call, moved, decisions, { type: 'validation', message: moved });
        continue;
      }
    }
    const rawInput = toolUseOf(core.state, call.toolUseId)?.input;
    if (isIncompleteToolInput(rawInput)) {
      const why = incompleteInputProblem(rawInput[INCOMPLETE_TOOL_INPUT_KEY]);
      deny(core, call, `Your input for "${call.toolName}" ${why.text}, so the call was not run. ${why.fix}`, decisions, { type: 'validation', message: why.audit });
      continue;
    }
    // A call this agent may not make now (a read-only subagent's that writes): refused before anyone is asked.
    const refusal = core.toolRefusal?.(tool, rawInput);
    if (refusal !== undefined) {
      deny(core, call, refusal, decisions, { type: 'validation', message: refusal });
      continue;
    }
    const question: AskedQuestion = { reasonType: undefined, held: [] };
    const tracer = core.options.tracer;
    // A call nothing asynchronous decides (no hook, no question to the host) is decided without a promise.
    const deciding = tracer
      ? withSpan(tracer, `permission ${call.toolName}`, { attributes: { 'gen_ai.tool.name': call.toolName, 'gen_ai.tool.call.id': call.toolUseId } }, async (span) =>
          decideCall(core, call, tool, rawInput, abort, question, span),
        )
      : decideCall(core, call, tool, rawInput, abort, question, undefined);
    if (isThenable(deciding)) {
      return deciding.then((outcome) => {
        recordDecision(core, call, tool, rawInput, outcome, question, abort, decisions);
        return resolveFrom(core, calls, index + 1, abort, decisions);
      });
    }
    recordDecision(core, call, tool, rawInput, deciding, question, abort, decisions);
  }
  return undefined;
}

/** Records an allowed call and applies the host's permission updates that came with it (checked when the decision was recorded). */
function allowCall(core: AgentCore, call: BatchCall, tool: Tool, input: unknown, details: Parameters<typeof commitCallAllowed>[4]): void {
  commitCallAllowed(core, call, tool, input, details);
  if (!tool.handlesHostAnswer) core.applyCheckedPermissionUpdates(details.updatedPermissions);
}

/** Records one call's decision and acts on it: allowed (waits for `executeTools`), denied (answered), or deferred (a pending approval). */
function recordDecision(
  core: AgentCore,
  call: BatchCall,
  tool: Tool,
  rawInput: unknown,
  outcome: PermissionOutcome,
  question: AskedQuestion,
  abort: RunAbort,
  decisions: TurnDecisions,
): void {
  const asked = question.reasonType;
  const decision = outcome.decision;
  // The host's updates are checked whole before anything of the answer is recorded or applied
  // (a bad one ends the run with a ConfigurationError), and recorded as plain data.
  if (decision.behavior === 'allow' && decision.updatedPermissions !== undefined) decision.updatedPermissions = core.checkPermissionUpdates(decision.updatedPermissions);
  // What an allowed call runs with; stored once, by its `call-allowed` entry below.
  const input = outcome.input ?? decision.input;
  core.commit({ kind: 'permission-decision', decision: storedDecision(core, decision, input) });
  const announce = () => {
    for (const held of question.held) held();
    core.emit({ type: 'permission-decision', ...decision });
  };
  if (decision.behavior !== 'defer') announce();
  if (decision.behavior === 'allow') {
    // Only an input the host really changed is an edit (an echo of the model's is not).
    const edited = 'editedFrom' in outcome && inputChanged(outcome.editedFrom, input);
    // A question's answers are the point of the call, not an edit to warn about.
    const note = edited && !tool.requiresUserInteraction && !tool.handlesHostAnswer ? describeInputChange(outcome.editedFrom, input) : undefined;
    const details = { updatedPermissions: decision.updatedPermissions, edited, note, clearContext: outcome.clearContext };
    // With the host's permission updates, one append: a crash never keeps the allowed call without them.
    if (decision.updatedPermissions?.length && !tool.handlesHostAnswer) core.inOneWrite(() => allowCall(core, call, tool, input, details));
    else allowCall(core, call, tool, input, details);
  } else if (decision.behavior === 'deny') {
    const message = decision.message ?? `Permission to use ${call.toolName} was denied.`;
    refuseCall(core, call, asked === 'plan-approval' ? planRejected(core, call.toolUseId, message) : message);
    // An interrupt is not the host's denial: keep it out of the audit of denials.
    if (!abort.aborted) decisions.denials.push(decision);
    if (decision.interrupt) decisions.stopRequested = true;
  } else {
    const mcpTool = call.mcpTool ?? mcpToolOrigin(tool);
    core.commit({
      kind: 'approval-pending',
      approval: {
        id: `approval_${randomId(12)}`,
        toolName: call.toolName,
        input: outcome.input ?? rawInput,
        toolUseId: call.toolUseId,
        ...(core.agentId !== undefined ? { agentId: core.agentId } : {}),
        reason: decision.reason,
        suggestions: outcome.suggestions ?? [],
        ...(outcome.blockedPath !== undefined ? { blockedPath: outcome.blockedPath } : {}),
        ...(outcome.display !== undefined ? { display: outcome.display } : {}),
        ...(tool.annotations !== undefined ? { toolAnnotations: { ...tool.annotations } } : {}),
        // What the model called (recorded with its message), which the card then describes.
        ...(mcpTool !== undefined ? { mcpTool } : {}),
        createdAt: new Date().toISOString(),
      },
    });
    // Announced once the approval it asks about is recorded: a host never draws a card for an
    // approval the store did not keep.
    announce();
  }
}

/** The question the pipeline put to the host about a call, if it asked one. */
interface AskedQuestion {
  /** What kind of question it was (read when the host's answer is a denial). */
  reasonType: PermissionReason['type'] | undefined;
  /**
   * The question's events, held when nobody answers it now (no `canUseTool`: the call will wait
   * for the host), to be announced once its approval is recorded.
   */
  held: Array<() => void>;
}

/** One call through the permission pipeline (inside a `permission` span when the host traces). */
function decideCall(
  core: AgentCore,
  call: BatchCall,
  tool: Tool,
  rawInput: unknown,
  abort: RunAbort,
  question: AskedQuestion,
  span: SpanLike | undefined,
): PermissionOutcome | Promise<PermissionOutcome> {
  const deciding = decidePermissionNow(
    new CallPermissionArgs(core, abort, tool, call.toolUseId, rawInput, (event) => {
      if (event.type !== 'permission-request') return void core.emit(event as AgentEventInput);
      question.reasonType = event.reason.type;
      const ask = () => {
        announceQuestion(core, event.reason, call.toolUseId, event.input);
        core.emit(event as AgentEventInput);
      };
      // With canUseTool the host answers now, from this event (a card awaiting a click): it goes out at once.
      if (core.options.canUseTool) ask();
      else question.held.push(ask);
    }),
  );
  if (!span) return deciding;
  return Promise.resolve(deciding).then((decided) => {
    span.setAttribute('agent_harness.permission.behavior', decided.decision.behavior);
    span.setAttribute('agent_harness.permission.step', decided.decision.reason.type);
    return decided;
  });
}

function deny(core: AgentCore, call: BatchCall, message: string, decisions: TurnDecisions, reason: PermissionDecision['reason']): void {
  const decision: PermissionDecision = { toolName: call.toolName, toolUseId: call.toolUseId, behavior: 'deny', reason, message };
  core.commit({ kind: 'permission-decision', decision });
  core.emit({ type: 'permission-decision', ...decision });
  refuseCall(core, call, message);
  decisions.denials.push(decision);
}

/** What the model is told about a call whose input did not arrive as a JSON object, by the raw text it streamed. */
function incompleteInputProblem(raw: string): { text: string; fix: string; audit: string } {
  const shorter = 'Send the call again with a shorter input (split large content across several calls).';
  if (raw === '') return { text: 'was cut off before any of it arrived (the response reached a limit: max_tokens or the context window)', fix: shorter, audit: 'input cut off' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { text: 'did not parse as JSON: it was cut off (the response reached a limit: max_tokens or the context window) or is not valid JSON', fix: `Send the call again with a complete, valid JSON object as its input. ${shorter}`, audit: 'input cut off or not valid JSON' };
  }
  const what = parsed === null ? 'null' : Array.isArray(parsed) ? 'an array' : `a ${typeof parsed}`;
  return { text: `is ${what}, not a JSON object`, fix: 'Send the call again with a JSON object as its input, its fields named as the tool\'s input schema says.', audit: 'input not a JSON object' };
}
