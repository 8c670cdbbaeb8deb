import { codePointBoundary, headOfText } from '../model/code-point-boundary.js';
import { z } from 'zod/v4';
import type { PlanVerification, RunResult } from '../events/run-result.js';
import { prepareOutput } from '../loop/structured-output.js';
import type { Model } from '../model/model.js';
import type { AgentCore } from '../runtime/agent-core.js';
import { BUILTIN_AGENTS, createAgentTools, loadSubagentCode, subagentLimiterOf } from '../subagents/index.js';
import type { ToolRunContext } from '../tools/types.js';
import { verifierFailure, verifierNotStarted } from './verifier-failure.js';
import { customAlphabet } from 'nanoid';
import { builtOnFirstUse } from '../tools/built-on-first-use.js';

// The verifier itself, loaded by verify-plan.ts the first time a plan is verified (verifyPlan,
// verifyPlanOnCompletion): a browser host does not download it up front.

const newId = customAlphabet('0123456789abcdefghijklmnopqrstuvwxyz', 12);

/** The verdict's shape, as the verifier must answer. */
const planVerificationSchema = builtOnFirstUse(() =>
  z.object({
    verdict: z.enum(['compliant', 'deviations', 'incomplete']).describe('compliant: every step done as planned; deviations: done, but differently; incomplete: steps not done.'),
    summary: z.string().describe('Two or three sentences for the user.'),
    steps: z
      .array(
        z.object({
          step: z.string().describe('The plan step, as the plan says it.'),
          status: z.enum(['done', 'deviated', 'missing']),
          evidence: z.string().describe('What shows it: files, results, quotes.'),
        }),
      )
      .describe('One finding per plan step, in plan order.'),
  }),
);

const MAX_WORK_CHARS = 24_000;

/** What was done, for the verifier: the todos and the calls made since the plan, with their results (bounded). */
function describeWork(core: AgentCore): string {
  const lines: string[] = [];
  const todos = core.state.todos;
  if (todos.length) lines.push('Todo list:', ...todos.map((todo) => `- [${todo.status}] ${todo.content}`), '');
  lines.push('Tool calls and results, in order:');
  for (const message of core.state.messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) {
      if (block.type === 'tool_use') lines.push(`call ${block.name} ${headOfText(JSON.stringify(block.input) ?? '', 600)}`);
      else if (block.type === 'tool_result') {
        const content = block.content as string | Array<{ type: string; text?: string }> | undefined;
        const text = typeof content === 'string' ? content : (content ?? []).map((part) => part.text ?? `[${part.type}]`).join(' ');
        lines.push(`  → ${block.is_error ? 'error: ' : ''}${headOfText(text, 600)}`);
      }
    }
  }
  const text = lines.join('\n');
  return text.length > MAX_WORK_CHARS ? `…${text.slice(codePointBoundary(text, text.length - MAX_WORK_CHARS, 'forward'))}` : text;
}

/** The verifier's `description` on its `subagent-start` and in its `SubagentStart` hooks. */
const VERIFIER_DESCRIPTION = 'Check the work against the approved plan';

/**
 * Runs the read-only verifier as a subagent of `core` (a sidechain of its session). It takes a
 * place of the tree's `maxSubagentConcurrency` like any subagent, waiting its turn; aborted while
 * it waits, it never starts.
 * @throws PlanVerificationError when it ends without a valid verdict, or never started.
 */
export async function runVerifier(core: AgentCore, plan: string, options: { model?: Model; signal: AbortSignal; reportSubagent?: ToolRunContext['reportSubagent'] }): Promise<PlanVerification> {
  const { beginSubagent, buildSubagentCore, runSubagent } = await loadSubagentCode();
  const definition = { ...BUILTIN_AGENTS.verify, ...(options.model ? { model: options.model } : {}) };
  const child = buildSubagentCore({
    parent: core,
    subagentType: 'verify',
    definition,
    agentId: newId(),
    parentToolUseId: `verify_${newId()}`,
    depthLeft: 0,
    background: false,
    agentTools: (self, left) => createAgentTools(self, { agents: {} }, left),
  });
  const prompt = `Check the work below against the approved plan. Read what you need to confirm each step with your tools; do not trust the log alone where you can look.\n\nThe approved plan:\n\n${plan}\n\nWhat was done:\n\n${describeWork(core)}`;
  const output = prepareOutput(child.options.model, planVerificationSchema(), 1, undefined);
  let started = false;
  let ended!: (result: RunResult) => void;
  const interrupted = new Promise<RunResult>((resolve) => (ended = (result) => {
    if (result.status === 'interrupted') resolve(result);
  }));
  const run = async () => {
    // Announced like any subagent once it has its place (SubagentStart hooks, subagent-start), so
    // the subagent-end that follows is paired; stopped before that, it never started.
    const begun = await beginSubagent({ parent: core, child, subagentType: 'verify', description: VERIFIER_DESCRIPTION, prompt, signal: options.signal });
    if (begun === undefined) throw options.signal.reason;
    started = true;
    return runSubagent(child, { prompt: begun, output }, {
      parent: core,
      subagentType: 'verify',
      signal: options.signal,
      run: options.reportSubagent ? ({ reportSubagent: options.reportSubagent } as unknown as ToolRunContext) : undefined,
      onEnd: ended,
    });
  };
  const running = subagentLimiterOf(core)
    .run(child, run, { waiter: core, signal: options.signal })
    .catch((error: unknown) => {
      if (!started) throw verifierNotStarted(error);
      throw error;
    });
  // Interrupted, the verification ends with the verifier's loop: its SubagentStop hooks may go
  // on cleaning up after it (close() waits for them), the caller does not wait for them.
  running.catch(() => undefined);
  const result = await Promise.race([running, interrupted]);
  if (result.status !== 'completed' || result.output === undefined) throw verifierFailure(result, child.options);
  return result.output as PlanVerification;
}

