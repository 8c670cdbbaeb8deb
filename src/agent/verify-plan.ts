import { ConfigurationError } from '../errors/configuration-error.js';
import type { PlanVerification } from '../events/run-result.js';
import type { Model } from '../model/model.js';
import type { AgentCore } from '../runtime/agent-core.js';
import type { VerifyPlanOnCompletionOptions } from '../runtime/agent-options.js';
import { loadOnce } from '../runtime/load-once.js';
import type { ToolRunContext } from '../tools/types.js';
import { Agent, coreOfAgent, workBesideAgent } from './agent.js';
import { isModel } from './validate-agent-options.js';
import { checkOptions, isAbortSignal, isString, optionProblem, required, type OptionCheck, type OptionsSpec } from '../options/index.js';
import { sha256 } from '@noble/hashes/sha2';

/** The verifier (run-verifier.ts), loaded the first time a plan is verified. */
const loadVerifier = loadOnce(() => import('./run-verifier.js'));

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
  const verification = await workBesideAgent(options.agent, options.signal, (signal) => loadVerifier().then(({ runVerifier }) => runVerifier(core, plan, { ...(options.model ? { model: options.model } : {}), signal })));
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
    const { runVerifier } = await loadVerifier();
    const verification = await runVerifier(core, plan.text, { ...(model ? { model } : {}), signal: args.signal, ...(args.reportSubagent ? { reportSubagent: args.reportSubagent } : {}) });
    core.toolState.set(VERIFIED_KEY, mark);
    core.emit({ type: 'plan-verification', name: plan.name, verification });
    return verification;
  };
}
