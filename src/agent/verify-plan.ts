import { codePointBoundary, headOfText } from '../model/code-point-boundary.js';
import { z } from 'zod/v4';
import { ConfigurationError } from '../errors/configuration-error.js';
import type { PlanVerification, RunResult } from '../events/run-result.js';
import { prepareOutput } from '../loop/structured-output.js';
import type { Model } from '../model/model.js';
import type { AgentCore } from '../runtime/agent-core.js';
import type { VerifyPlanOnCompletionOptions } from '../runtime/agent-options.js';
import { BUILTIN_AGENTS, buildSubagentCore, createAgentTools, newAgentId, runSubagent, subagentLimiterOf } from '../subagents/index.js';
import type { ToolRunContext } from '../tools/types.js';
import { Agent, coreOfAgent, workBesideAgent } from './agent.js';
import { isModel } from './validate-agent-options.js';
import { checkOptions, isAbortSignal, isString, optionProblem, required, type OptionCheck, type OptionsSpec } from '../options/index.js';
import { beginSubagent } from '../subagents/begin-subagent.js';
import { verifierFailure, verifierNotStarted } from './verifier-failure.js';
import { sha256 } from '@noble/hashes/sha2';
import { builtOnFirstUse } from '../tools/built-on-first-use.js';

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

const isAgent: OptionCheck = (value, place) => {
  if (value instanceof Agent) return;
  throw new ConfigurationError(optionProblem(place, 'an agent made by createAgent() (of this copy of agent-harness)', value));
};

const VERIFY_PLAN_OPTIONS: OptionsSpec<VerifyPlanOptions> = { agent: required(isAgent), plan: isString, model: isModel, signal: isAbortSignal };

/** Options of {@link verifyPlan}. */
export interface VerifyPlanOptions {
  /** The agent whose work is checked (its history, todos and read-only tools). */
  agent: Agent;
  /**
   * The approved plan (markdown).
   * @default the agent's approved plan (`agent.plan`)
   */
  plan?: string;
  /**
   * The model the verifier runs on.
   * @default the agent's model
   */
  model?: Model;
  /**
   * Aborting it stops the verification (`PlanVerificationError` with status `interrupted`), as
   * `agent.interrupt()` and `agent.close()` do, as soon as the verifier's loop stops: its
   * `SubagentStop` hooks may go on cleaning up after it, and `close()` stops them and waits.
   */
  signal?: AbortSignal;
}

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
async function runVerifier(core: AgentCore, plan: string, options: { model?: Model; signal: AbortSignal; reportSubagent?: ToolRunContext['reportSubagent'] }): Promise<PlanVerification> {
  const definition = { ...BUILTIN_AGENTS.verify, ...(options.model ? { model: options.model } : {}) };
  const child = buildSubagentCore({
    parent: core,
    subagentType: 'verify',
    definition,
    agentId: newAgentId(),
    parentToolUseId: `verify_${newAgentId()}`,
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

/**
 * Checks the work an agent did against the approved plan with a read-only verifier subagent (its
 * transcript a sidechain of the agent's session), and returns the structured verdict:
 * `compliant`, `deviations` or `incomplete`, with per-step findings and evidence.
 * @throws ConfigurationError when there is no plan to check against, or the agent is running or closed.
 * @throws PlanVerificationError when the verifier ends without a valid verdict: no answer was one
 *   (`status: 'error'`, a `StructuredOutputError` as `cause`), its model failed (`error`, the
 *   failure as `cause`), `signal` aborted before or while it ran (`interrupted`), or it reached
 *   `maxTurns` (`max-turns`) or `maxBudgetUsd` (`budget-exceeded`), or a call of it waits for an
 *   approval (`awaiting-approval`).
 * @example
 * const { verdict, steps } = await verifyPlan({ agent });
 */
export async function verifyPlan(options: VerifyPlanOptions): Promise<PlanVerification> {
  checkOptions<VerifyPlanOptions>(options, VERIFY_PLAN_OPTIONS, { owner: 'verifyPlan', usage: 'verifyPlan({ agent })' });
  await options.agent.ready;
  if (options.agent.running) throw new ConfigurationError('verifyPlan: the agent is running; verify once its run has ended.');
  const core = coreOfAgent(options.agent);
  const plan = options.plan ?? core.plan?.text;
  if (typeof plan !== 'string' || plan.trim() === '') {
    throw new ConfigurationError('verifyPlan: there is no plan to check against; pass `plan` (markdown), or approve one first (agent.plan is empty).');
  }
  // Beside the agent's runs: interrupt() and close() stop it, and close() waits for it to end.
  const verification = await workBesideAgent(options.agent, options.signal, (signal) => runVerifier(core, plan, { ...(options.model ? { model: options.model } : {}), signal }));
  await core.flush();
  return verification;
}

const VERIFIED_KEY = 'agent-harness/plan-verified';

/**
 * Which plan was verified: its name and a digest of its text. The name alone is the session's
 * (every plan approved in a session is saved under it), so a later plan would pass for verified.
 */
function verifiedMark(plan: { name: string; text: string }): string {
  let digest = '';
  for (const byte of sha256(new TextEncoder().encode(plan.text))) digest += byte.toString(16).padStart(2, '0');
  return `${plan.name}#${digest}`;
}

/**
 * For `verifyPlanOnCompletion`: at the end of a completed run, when the session has an approved
 * plan not yet verified (a plan approved later in the session is verified too) and every todo is
 * completed, verify it and announce the verdict.
 */
export function verifyOnCompletion(core: AgentCore, setting: boolean | VerifyPlanOnCompletionOptions) {
  const model = typeof setting === 'object' ? setting.model : undefined;
  return async (args: { signal: AbortSignal; reportSubagent?: ToolRunContext['reportSubagent'] }): Promise<PlanVerification | undefined> => {
    const plan = core.plan;
    const todos = core.state.todos;
    if (!plan || todos.length === 0 || todos.some((todo) => todo.status !== 'completed')) return undefined;
    const mark = verifiedMark(plan);
    if (core.toolState.get<string>(VERIFIED_KEY) === mark) return undefined;
    const verification = await runVerifier(core, plan.text, { ...(model ? { model } : {}), signal: args.signal, ...(args.reportSubagent ? { reportSubagent: args.reportSubagent } : {}) });
    core.toolState.set(VERIFIED_KEY, mark);
    core.emit({ type: 'plan-verification', name: plan.name, verification });
    return verification;
  };
}
