// How verifyPlan fails when the verifier ends without a valid verdict: one typed error, each way.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentHarnessError, ConfigurationError, createAgent, defineTool, ModelError, PlanVerificationError, StructuredOutputError, verifyPlan, type AgentEvent, type AgentOptions } from 'agent-harness';
import { scriptedModel, toolCall, turn, type ScriptItem } from 'agent-harness/testing';
import { deferred } from '../helpers.js';

const read = defineTool({ name: 'read', description: 'Reads.', inputSchema: z.object({}), readOnly: true, execute: () => 'file contents' });

/** An agent with an approved plan whose verifier plays `script`. */
async function agentWithPlan(script: ScriptItem[], options: Partial<AgentOptions> = {}) {
  const verifier = scriptedModel(script, { modelId: 'claude-sonnet-4-6' });
  const agent = createAgent({ model: verifier, tools: [read], ...options });
  await agent.savePlan('1. Write the file.');
  return { agent, verifier };
}

/** The error `verifyPlan` rejects with. */
async function failure(verifying: Promise<unknown>): Promise<PlanVerificationError> {
  const error = await verifying.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(PlanVerificationError);
  expect(PlanVerificationError.isInstance(error)).toBe(true);
  expect(AgentHarnessError.isInstance(error)).toBe(true);
  expect((error as PlanVerificationError).code).toBe('plan-verification');
  return error as PlanVerificationError;
}

describe('verifyPlan fails with a PlanVerificationError', () => {
  it('when no answer of the verifier is a valid verdict (the structured output error is its cause)', async () => {
    const { agent } = await agentWithPlan(['not json', 'still not json']);
    const error = await failure(verifyPlan({ agent }));
    expect(error.status).toBe('error');
    expect(StructuredOutputError.isInstance(error.cause)).toBe(true);
    expect(error.message).toMatch(/no valid verdict after 2 answer\(s\)/);
    expect(error.message).toMatch(/verifyPlan\(\{ agent, model \}\)/);
  });

  it('when the verifier model refuses to answer', async () => {
    const refusal = turn("I can't help with that.", { stopReason: 'refusal' });
    const { agent } = await agentWithPlan([refusal, refusal]);
    const error = await failure(verifyPlan({ agent }));
    expect(error.status).toBe('error');
    // Asked once: the message names the refusal, not a retry count or a missing verdict's issues.
    expect(error.message).toMatch(/refused to give a verdict \(stop reason "refusal"\)/);
    expect((error.cause as StructuredOutputError).refused).toBe(true);
    expect((error.cause as StructuredOutputError).attempts).toBe(1);
    expect(error.text).toBe("I can't help with that.");
  });

  it('when the verifier model fails (its error is the cause)', async () => {
    const { agent } = await agentWithPlan([turn('Checking', { error: new ModelError('The model is overloaded.', { errorType: 'overloaded_error' }) })], { maxStreamRetries: 0 });
    const error = await failure(verifyPlan({ agent }));
    expect(error.status).toBe('error');
    expect(ModelError.isInstance(error.cause)).toBe(true);
    expect(error.message).toMatch(/The plan verifier failed: The model is overloaded\./);
  });

  it('when its signal aborts while the verifier runs', async () => {
    const held = deferred();
    const { agent } = await agentWithPlan([
      turn('Checking', { hold: (signal) => (held.resolve(), new Promise<void>((resolve) => signal!.addEventListener('abort', () => resolve(), { once: true }))) }),
    ]);
    const stop = new AbortController();
    const verifying = verifyPlan({ agent, signal: stop.signal });
    await held.promise;
    stop.abort(new Error('no longer needed'));
    const error = await failure(verifying);
    expect(error.status).toBe('interrupted');
    expect(error.message).toMatch(/interrupted before it gave a verdict/);
  });

  it('when its signal aborts while the verifier waits for a place under maxSubagentConcurrency (it never started)', async () => {
    const release = deferred();
    const started = deferred();
    const wait = defineTool({ name: 'wait', description: 'Waits.', inputSchema: z.object({}), readOnly: true, execute: async () => (started.resolve(), await release.promise, 'waited') });
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('Agent', { description: 'job', prompt: 'do it', subagent_type: 'worker', run_in_background: true }, 'p_bg')), 'Started.']),
      tools: [read, wait],
      agents: { worker: { description: 'worker', prompt: 'worker', model: scriptedModel([turn(toolCall('wait', {}, 'w_wait')), 'Worker done.']) } },
      maxSubagentConcurrency: 1,
    });
    await agent.run('go').result;
    await started.promise;
    await agent.savePlan('1. Write the file.');
    const verifier = scriptedModel([]);
    const stop = new AbortController();
    const verifying = verifyPlan({ agent, model: verifier, signal: stop.signal });
    stop.abort(new Error('no longer needed'));
    const error = await failure(verifying);
    expect(error.status).toBe('interrupted');
    expect(error.message).toMatch(/before the verifier started/);
    expect(error.message).toMatch(/maxSubagentConcurrency/);
    expect(error.cause).toEqual(new Error('no longer needed'));
    release.resolve();
    expect(verifier.requests).toHaveLength(0);
    await agent.close();
  });

  it('when the verifier reaches maxTurns', async () => {
    const { agent } = await agentWithPlan([turn(toolCall('read', {}, 'v_read'))], { maxTurns: 1 });
    const error = await failure(verifyPlan({ agent }));
    expect(error.status).toBe('max-turns');
    expect(error.message).toMatch(/maxTurns/);
  });

  it('when the verifier reaches maxBudgetUsd', async () => {
    const { agent } = await agentWithPlan([turn(toolCall('read', {}, 'v_read'), { usage: { inputTokens: 100_000, outputTokens: 0 } }), 'unreached'], { maxBudgetUsd: 0.1 });
    const error = await failure(verifyPlan({ agent }));
    expect(error.status).toBe('budget-exceeded');
    expect(error.message).toMatch(/maxBudgetUsd/);
  });

  it('when a call of the verifier waits for an approval verifyPlan cannot give', async () => {
    const { agent } = await agentWithPlan([turn(toolCall('read', {}, 'v_read'))], { rules: { ask: ['read'] } });
    const error = await failure(verifyPlan({ agent }));
    expect(error.status).toBe('awaiting-approval');
    expect(error.message).toMatch(/approval/);
  });

  it('reported as a non-fatal error event by verifyPlanOnCompletion, and the run still completes', async () => {
    const model = scriptedModel([turn(toolCall('TodoWrite', { todos: [{ content: 'Write the file', status: 'completed', activeForm: 'Writing' }] }, 't1')), 'All done.', 'not json', 'still not json']);
    const agent = createAgent({ model, tools: [read], verifyPlanOnCompletion: true });
    await agent.savePlan('1. Write the file.');
    const errors: AgentEvent[] = [];
    agent.on('error', (event) => errors.push(event));
    const result = await agent.run('Carry out the plan.').result;
    expect(result.status).toBe('completed');
    expect(result.planVerification).toBeUndefined();
    // The verifier's own run ends with its error (events marked with its agentId); the agent's run reports the typed one.
    expect(errors.filter((event) => event.agentId === undefined)).toEqual([expect.objectContaining({ fatal: false, error: expect.any(PlanVerificationError) })]);
  });
});

describe('verifyPlan beside the agent', () => {
  /** An agent whose verifier holds its first turn until its signal aborts. */
  async function heldVerification() {
    const held = deferred();
    const { agent, verifier } = await agentWithPlan([
      turn('Checking', { hold: (signal) => (held.resolve(), new Promise<void>((resolve) => signal!.addEventListener('abort', () => resolve(), { once: true }))) }),
      '{"verdict":"compliant","summary":"late","steps":[]}',
    ]);
    const verifying = verifyPlan({ agent });
    await held.promise;
    return { agent, verifier, verifying };
  }

  it('is stopped by agent.interrupt(): interrupted, no further model call', async () => {
    const { agent, verifier, verifying } = await heldVerification();
    agent.interrupt('host stopped it');
    const error = await failure(verifying);
    expect(error.status).toBe('interrupted');
    expect(verifier.requests).toHaveLength(1);
  });

  it('is stopped by agent.close(), which resolves only once the verifier has ended', async () => {
    const { agent, verifier, verifying } = await heldVerification();
    const order: string[] = [];
    const settled = verifying.then(
      () => order.push('verified'),
      () => order.push('verification failed'),
    );
    await agent.close().then(() => order.push('closed'));
    await settled;
    expect(order).toEqual(['verification failed', 'closed']);
    expect((await failure(verifying)).status).toBe('interrupted');
    expect(verifier.requests).toHaveLength(1);
  });

  it('is refused on a closed agent', async () => {
    const { agent } = await agentWithPlan(['{}']);
    await agent.close();
    await expect(verifyPlan({ agent })).rejects.toThrow(/is closed/);
  });
});

describe('the verifier announced like any subagent', () => {
  it('runs the SubagentStart hooks and emits subagent-start before its subagent-end, paired by agent id', async () => {
    const starts: string[] = [];
    const { agent } = await agentWithPlan(['{"verdict":"compliant","summary":"All done.","steps":[{"step":"1. Write the file.","status":"done","evidence":"read it"}]}'], {
      hooks: { SubagentStart: [{ hook: (input) => (starts.push(input.subagentType), {}) }] },
    });
    const events: AgentEvent[] = [];
    agent.on('subagent-start', (event) => void events.push(event));
    agent.on('subagent-end', (event) => void events.push(event));
    const verification = await verifyPlan({ agent });
    expect(verification.verdict).toBe('compliant');
    expect(starts).toEqual(['verify']);
    expect(events.map((event) => event.type)).toEqual(['subagent-start', 'subagent-end']);
    expect(events[0]!.agentId).toBeDefined();
    expect(events[1]!.agentId).toBe(events[0]!.agentId);
  });

  it('stopped in its SubagentStart hook, it never starts: interrupted, no subagent event, no model call', async () => {
    const inHook = deferred();
    const { agent, verifier } = await agentWithPlan(['{}'], {
      hooks: { SubagentStart: [{ hook: (input) => (inHook.resolve(), new Promise((resolve) => input.signal.addEventListener('abort', () => resolve({}), { once: true }))) }] },
    });
    const events: AgentEvent[] = [];
    agent.on('subagent-start', (event) => void events.push(event));
    agent.on('subagent-end', (event) => void events.push(event));
    const verifying = verifyPlan({ agent });
    await inHook.promise;
    agent.interrupt();
    expect((await failure(verifying)).status).toBe('interrupted');
    expect(events).toEqual([]);
    expect(verifier.requests).toHaveLength(0);
  });
});

describe('verifyPlan checks its options before any work', () => {
  it('refuses a missing or wrong agent, an unknown option and values of the wrong type, naming the option and the fix, without calling a model', async () => {
    const { agent, verifier } = await agentWithPlan(['never asked']);
    const refused = async (options: unknown, message: RegExp) => {
      const error = await verifyPlan(options as never).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(ConfigurationError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(message);
    };
    await refused(undefined, /verifyPlan takes an options object, such as verifyPlan\(\{ agent \}\)/);
    await refused({}, /agent/);
    await refused({ agent: 'my-agent' }, /agent.*must be an agent made by createAgent\(\).*"my-agent"/);
    await refused({ agent: { ready: Promise.resolve(), running: false } }, /agent.*must be an agent made by createAgent\(\)/);
    await refused({ agent, plan: 42 }, /plan.*must be a string.*42/);
    await refused({ agent, model: 'claude-sonnet-4-6' }, /model.*wrap it: model: anthropicModel/);
    await refused({ agent, signal: 'stop' }, /signal.*must be an AbortSignal/);
    await refused({ agent, modle: verifier }, /modle.*model/);
    expect(verifier.requests).toHaveLength(0);
  });
});

describe('verifyPlanOnCompletion stopped by the host', () => {
  /** A run that completes its plan's one todo, then a verifier turn held until its signal aborts (`held` resolves when it starts). */
  function completedPlanThenHeldVerifier(held: { resolve: () => void }, ...after: ScriptItem[]) {
    return scriptedModel([
      turn(toolCall('TodoWrite', { todos: [{ content: 'Write the file', status: 'completed', activeForm: 'Writing' }] }, 't1')),
      'All done.',
      turn('Checking', { hold: (signal) => (held.resolve(), new Promise<void>((resolve) => signal!.addEventListener('abort', () => resolve(), { once: true }))) }),
      ...after,
    ]);
  }

  it('ends the run interrupted (result, run-end event), with no error event, and verifies at the next completed run', async () => {
    const held = deferred();
    const model = completedPlanThenHeldVerifier(held, 'Nothing more to do.', '{"verdict":"compliant","summary":"done","steps":[]}');
    const agent = createAgent({ model, tools: [read], verifyPlanOnCompletion: true });
    await agent.savePlan('1. Write the file.');
    const errors: AgentEvent[] = [];
    const ends: AgentEvent[] = [];
    agent.on('error', (event) => errors.push(event));
    agent.on('run-end', (event) => ends.push(event));
    const run = agent.run('Carry out the plan.');
    await held.promise;
    agent.interrupt('host stopped it');
    const result = await run.result;
    expect(result.status).toBe('interrupted');
    expect(result.planVerification).toBeUndefined();
    expect(ends.filter((event) => event.agentId === undefined)).toEqual([expect.objectContaining({ result: expect.objectContaining({ status: 'interrupted' }) })]);
    expect(errors.filter((event) => event.agentId === undefined)).toEqual([]);
    // Not marked verified: the next run that completes verifies the plan.
    const next = await agent.run('Anything left?').result;
    expect(next.status).toBe('completed');
    expect(next.planVerification).toMatchObject({ verdict: 'compliant' });
    await agent.close();
  });

  it('stopped by the run signal, the run ends interrupted as well', async () => {
    const held = deferred();
    const model = completedPlanThenHeldVerifier(held);
    const agent = createAgent({ model, tools: [read], verifyPlanOnCompletion: true });
    await agent.savePlan('1. Write the file.');
    const controller = new AbortController();
    const run = agent.run('Carry out the plan.', { signal: controller.signal });
    await held.promise;
    controller.abort();
    expect((await run.result).status).toBe('interrupted');
    await agent.close();
  });
});
