import { randomLowercaseId } from '../ids/random-id.js';
import { completedReport } from './completed-report.js';
import { z } from 'zod/v4';
import type { RunResult } from '../events/run-result.js';
import { releasePlanName } from '../plan/allocate-plan-slug.js';
import { planFileName } from '../plan/plan-name.js';
import type { AgentCore } from '../runtime/agent-core.js';
import { builtOncePerKey } from '../tools/built-once-per-key.js';
import { defineTool } from '../tools/define-tool.js';
import { toolOutput } from '../tools/tool-output.js';
import { suspendCall, type Tool, type ToolRunContext } from '../tools/types.js';
import type { AgentDefinition } from './agent-definition.js';
import { startBackgroundTask } from './background-task.js';
import { beginSubagent } from './begin-subagent.js';
import { buildSubagentCore, type SubagentSetup } from './build-subagent-core.js';
import { runSubagent } from './run-subagent.js';
import { noteSubagentStarted } from '../loop/open-subagents.js';
import { subagentLimiterOf } from './subagent-limiter.js';
import { createTaskOutputTool } from './task-output-tool.js';

/** A subagent id: 12 lower-case letters and digits, safe in plan file names (`{slug}-agent-{agentId}.md`). */
export const newAgentId = (): string => randomLowercaseId(12);

/** What the `Agent` tools of one agent share. */
export interface AgentToolSettings {
  /** The subagent types by name. */
  agents: Readonly<Record<string, AgentDefinition>>;
}

/** What a suspended `Agent` call keeps to continue its subagent (plain JSON). */
interface AgentCallData {
  subagentType: string;
  description: string;
  depthLeft: number;
}

function agentInput(names: readonly string[]) {
  return z.object({
    description: z.string().min(1).max(200).describe('A short (3-5 word) description of the task.'),
    prompt: z.string().min(1).describe('The task for the subagent, with everything it needs to know: it does not see this conversation.'),
    subagent_type: z.enum(names as [string, ...string[]]).describe('Which kind of subagent to start.'),
    run_in_background: z.boolean().optional().describe('Start it in the background: you get a task id at once and are told when it ends; check its output with TaskOutput.'),
  });
}

/**
 * The `Agent` tool's input schema per list of subagent types (the last 64 lists, keyed by the
 * names in order): see `builtOncePerKey`.
 */
const inputFor = builtOncePerKey((key: string) => agentInput(JSON.parse(key) as string[]), 64);

function describeTypes(agents: Readonly<Record<string, AgentDefinition>>): string {
  return Object.entries(agents)
    .map(([name, definition]) => `- ${name}: ${definition.description}${definition.readOnly ? ' (read-only)' : ''}`)
    .join('\n');
}

/**
 * The built-in `Agent` tool (and `TaskOutput` beside it): starts a subagent of one of the
 * defined types on a task, in the foreground (the call's result is the subagent's final message)
 * or in the background (`run_in_background`: a task id at once, a notification when it ends).
 * A subagent's approvals suspend the call; the host's answer resumes it (`resume`).
 * `depthLeft` is how many levels of subagents the calling agent may still start. The subagents
 * take their places from the tree's limiter (`subagentLimiterOf`, the top agent's
 * `maxSubagentConcurrency`), shared at every level below it.
 */
export function createAgentTools(
  parent: () => AgentCore,
  settings: AgentToolSettings,
  depthLeft = Number.POSITIVE_INFINITY,
): Tool[] {
  const input = inputFor(JSON.stringify(Object.keys(settings.agents)));

  /** How many levels of subagents a subagent of this type, started here, may start itself. */
  const depthBelow = (definition: AgentDefinition) => (Number.isFinite(depthLeft) ? Math.min(definition.maxDepth ?? 0, depthLeft - 1) : (definition.maxDepth ?? 0));

  const setupFor = (type: string, agentId: string, parentToolUseId: string, left: number, background: boolean): SubagentSetup => ({
    parent: parent(),
    subagentType: type,
    definition: settings.agents[type]!,
    agentId,
    parentToolUseId,
    depthLeft: left,
    background,
    agentTools: (core, remaining) => createAgentTools(core, settings, remaining),
  });

  /** The call's result from how the subagent's run ended; a subagent waiting for the host suspends the call. */
  const answer = (core: AgentCore, result: RunResult, data: AgentCallData, signal: AbortSignal) => {
    // Interrupted while this run was not: the host denied a call of the subagent with `interrupt`
    // (its stop is for the run it sees, this one), not an interrupt of this run reaching it.
    if (result.status === 'interrupted' && !signal.aborted) parent().nestedStopRequested = true;
    if (result.status === 'awaiting-approval') return suspendCall({ agentId: core.agentId!, state: structuredClone(core.state), data: { ...data } });
    // The parent model is told when the report it gets is a cut-off one, or a refusal.
    if (result.status === 'completed') return completedReport(result, core.options.refusedAnswers !== 'keep');
    const why = result.status === 'error' ? `failed: ${(result.error?.message ?? 'unknown error').replace(/\.$/, '')}` : `stopped before finishing (${result.status})`;
    // A refused last message is withheld as a completed one is (see completedReport).
    const last = result.text && !(result.stopReason === 'refusal' && core.options.refusedAnswers !== 'keep') ? ` Its last message: ${result.text}` : '';
    return toolOutput(`The ${data.subagentType} subagent ${why}.${last}`, { isError: true });
  };

  const agentTool = defineTool({
    name: 'Agent',
    description: `Start a subagent on a self-contained task. It works in its own context with its own tools and returns one final message; it does not see this conversation, so give it everything it needs. Several Agent calls in one message run in parallel.\nSubagent types:\n${describeTypes(settings.agents)}`,
    inputSchema: input,
    // Starting one asks nothing: each call the subagent makes goes through the permissions itself.
    readOnly: true,
    concurrencySafe: true,
    kind: 'other',
    execute: async ({ input: call, toolUseId, signal, run }) => {
      const core = parent();
      const left = depthBelow(settings.agents[call.subagent_type]!);
      // The subagent's plan is named after the parent's session: draw the slug once, here.
      if (core.state.planSlug === undefined) {
        // One draw for parallel Agent calls; the parent's own plan is not written now, so its
        // name is not held in this process.
        const slug = await core.ensurePlanSlug();
        releasePlanName(core.planStore, planFileName({ slug, agentId: core.agentId }));
      }
      const agentId = newAgentId();
      const background = call.run_in_background === true;
      const child = buildSubagentCore(setupFor(call.subagent_type, agentId, toolUseId, left, background));
      const data: AgentCallData = { subagentType: call.subagent_type, description: call.description, depthLeft: left };
      const begin = { parent: core, child, subagentType: call.subagent_type, description: call.description, prompt: call.prompt };
      if (background) {
        const taskId = startBackgroundTask({ ...begin, limiter: subagentLimiterOf(core) });
        return `Started the ${call.subagent_type} subagent in the background as task ${taskId}. You will be told when it ends; check its output with TaskOutput({ task_id: "${taskId}" }).`;
      }
      // The calling subagent lets go of its place while it waits on this one. Interrupted while it
      // waits for a place (or in its SubagentStart hooks), it never starts: the call ends unanswered.
      const result = await subagentLimiterOf(core).run(
        child,
        async () => {
          // The run that made this call ends after the subagent's end (see openSubagentsEnded).
          const prompt = await beginSubagent({ ...begin, signal, onStart: () => noteSubagentStarted(core, child) });
          if (prompt === undefined) throw signal.reason;
          return runSubagent(child, { prompt }, { parent: core, subagentType: call.subagent_type, signal, run });
        },
        { waiter: core, signal },
      );
      return answer(child, result, data, signal);
    },
    resume: async ({ nested, approval, signal, run, toolUseId }) => {
      let data = nested.data as AgentCallData;
      // Own keys only: a stored type such as "constructor" (a tampered snapshot) names no type,
      // and must not resume as one without any of a type's limits.
      if (typeof data.subagentType !== 'string' || !Object.hasOwn(settings.agents, data.subagentType)) {
        return toolOutput(`The subagent type "${data.subagentType}" no longer exists, so the subagent could not continue.`, { isError: true });
      }
      const core = parent();
      // Never more than its type allows from here: a stored depth is a claim (a tampered snapshot
      // would hand a type with maxDepth 0 an Agent tool).
      const bound = depthBelow(settings.agents[data.subagentType]!);
      const stored = data.depthLeft;
      const left = Number.isInteger(stored) && stored >= 0 ? Math.min(stored, bound) : bound;
      data = { ...data, depthLeft: left };
      const child = buildSubagentCore(setupFor(data.subagentType, nested.agentId, toolUseId, left, false), structuredClone(nested.state));
      const result = await subagentLimiterOf(core).run(child, () => resumeSubagent(child, approval, data, { parent: core, subagentType: data.subagentType, signal, run }), { waiter: core, signal });
      return answer(child, result, data, signal);
    },
  });
  return [agentTool, createTaskOutputTool(parent)];
}

/**
 * Continues a subagent that waited on the host, once it has its place again: it ended with
 * `subagent-end` (`awaiting-approval`) when it stopped, so it starts again (`resumed`) before the
 * `subagent-end` its run now ends with. Its `SubagentStart` hooks ran when it first started.
 */
function resumeSubagent(child: AgentCore, approval: NonNullable<Parameters<typeof runSubagent>[1]['approval']>, data: AgentCallData, args: { parent: AgentCore; subagentType: string; signal: AbortSignal; run: ToolRunContext | undefined }): Promise<RunResult> {
  noteSubagentStarted(args.parent, child);
  child.emit({ type: 'subagent-start', subagentType: data.subagentType, description: data.description, resumed: true });
  return runSubagent(child, { approval }, args);
}
