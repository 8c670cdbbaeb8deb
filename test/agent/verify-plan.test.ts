import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, PlanVerificationError, verifyPlan, type AgentEvent, type PlanVerification } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { deferred, tick } from '../helpers.js';

const verdict = (value: PlanVerification['verdict']): string =>
  JSON.stringify({ verdict: value, summary: `The work is ${value}.`, steps: [{ step: 'Write the file', status: value === 'compliant' ? 'done' : 'missing', evidence: 'write ran once' }] });

function tools() {
  const read = defineTool({ name: 'read', description: 'Reads.', inputSchema: z.object({}), readOnly: true, execute: () => 'file contents' });
  const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({}), kind: 'edit', execute: () => 'wrote' });
  return [read, write];
}

describe('verifyPlan', () => {
  it('runs a read-only verifier on the agent and returns the structured verdict', async () => {
    const model = scriptedModel([turn(toolCall('read', {}, 'v_read')), verdict('compliant')]);
    const agent = createAgent({ model, tools: tools() });
    await agent.savePlan('1. Write the file.');
    const events: AgentEvent[] = [];
    agent.on('tool-result', (event) => events.push(event));
    const result = await verifyPlan({ agent });
    expect(result).toEqual({ verdict: 'compliant', summary: 'The work is compliant.', steps: [{ step: 'Write the file', status: 'done', evidence: 'write ran once' }] });
    // The verifier is read-only: it is offered `read`, never `write`.
    expect(model.requests[0]!.request.tools!.map((tool) => tool.name)).toContain('read');
    expect(model.requests[0]!.request.tools!.map((tool) => tool.name)).not.toContain('write');
    expect(JSON.stringify(model.requests[0]!.messages)).toContain('1. Write the file.');
    expect(events[0]).toMatchObject({ toolUseId: 'v_read', agentId: expect.any(String) });
    // The agent's own history is untouched.
    expect(agent.messages).toEqual([]);
  });

  it('cuts the work it describes to the verifier on whole characters (an emoji at the 600th character stays whole)', async () => {
    const emojiTool = defineTool({ name: 'emoji', description: 'Emoji.', inputSchema: z.object({}), readOnly: true, execute: () => `${'a'.repeat(599)}${'😀'.repeat(50)}` });
    const main = scriptedModel([turn(toolCall('emoji', {}, 'e1')), 'Done.']);
    const agent = createAgent({ model: main, tools: [emojiTool] });
    await agent.run('Go.').result;
    await agent.savePlan('1. Use emoji.');
    const verifier = scriptedModel([verdict('compliant')]);
    await verifyPlan({ agent, model: verifier });
    const sent = JSON.stringify(verifier.requests[0]!.messages);
    expect(sent).toContain('a'.repeat(599));
    // JSON.stringify writes a lone surrogate as an escape (\ud83d), a whole emoji as itself.
    expect(sent).not.toMatch(/\\ud[89a-f][0-9a-f]{2}/i);
  });

  it('needs a plan, and fails with the verifier\'s error when it never gives a valid verdict', async () => {
    const agent = createAgent({ model: scriptedModel(['not json', 'still not json']), tools: tools() });
    await expect(verifyPlan({ agent })).rejects.toThrow(/no plan to check against/);
    await expect(verifyPlan({ agent, plan: '1. Something.' })).rejects.toThrow();
  });
});

describe('verifyPlan and maxSubagentConcurrency', () => {
  /** An agent whose background `worker` holds the tree's only subagent place until released. */
  async function busyAgent() {
    const release = deferred();
    const started = deferred();
    const wait = defineTool({ name: 'wait', description: 'Waits.', inputSchema: z.object({}), readOnly: true, execute: async () => (started.resolve(), await release.promise, 'waited') });
    const worker = scriptedModel([turn(toolCall('wait', {}, 'w_wait')), 'Worker done.']);
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('Agent', { description: 'job', prompt: 'do it', subagent_type: 'worker', run_in_background: true }, 'p_bg')), 'Started.']),
      tools: [...tools(), wait],
      agents: { worker: { description: 'worker', prompt: 'worker', model: worker } },
      maxSubagentConcurrency: 1,
    });
    await agent.run('go').result;
    await started.promise;
    await agent.savePlan('1. Write the file.');
    return { agent, release: () => release.resolve() };
  }

  it('the verifier takes a place of the tree-wide limit: it waits while a background task holds the only one', async () => {
    const { agent, release } = await busyAgent();
    const verifier = scriptedModel([verdict('compliant')]);
    const verifying = verifyPlan({ agent, model: verifier });
    await tick();
    await tick();
    expect(verifier.requests).toHaveLength(0);
    release();
    expect(await verifying).toMatchObject({ verdict: 'compliant' });
    expect(verifier.requests).toHaveLength(1);
    await agent.close();
  });

  it('a verification waiting for a place ends at once when its signal aborts, and never calls the model', async () => {
    const { agent, release } = await busyAgent();
    const verifier = scriptedModel([verdict('compliant')]);
    const stop = new AbortController();
    const verifying = verifyPlan({ agent, model: verifier, signal: stop.signal });
    await tick();
    stop.abort(new Error('no longer needed'));
    await expect(verifying).rejects.toThrow(/interrupted/);
    release();
    await tick();
    expect(verifier.requests).toHaveLength(0);
    await agent.close();
  });
});

describe('verifyPlanOnCompletion', () => {
  it('verifies once the run carrying out the approved plan completes with every todo done: an event and the run result', async () => {
    const model = scriptedModel([
      turn(toolCall('write', {}, 'w1'), toolCall('TodoWrite', { todos: [{ content: 'Write the file', status: 'completed', activeForm: 'Writing' }] }, 't1')),
      'All done.',
      verdict('compliant'),
    ]);
    const agent = createAgent({ model, tools: tools(), permissionMode: 'acceptEdits', verifyPlanOnCompletion: true });
    await agent.savePlan('1. Write the file.');
    const events: AgentEvent[] = [];
    agent.on('plan-verification', (event) => events.push(event));
    const result = await agent.run('Carry out the plan.').result;
    expect(result.status).toBe('completed');
    expect(result.planVerification).toMatchObject({ verdict: 'compliant' });
    expect(events).toEqual([expect.objectContaining({ type: 'plan-verification', name: agent.plan!.name, verification: result.planVerification })]);
    // The verifier's usage is in the run's breakdown.
    expect(result.subagents).toEqual([expect.objectContaining({ subagentType: 'verify', status: 'completed' })]);
    // Verified once: a later run does not verify the same plan again.
    model.push('Anything else?');
    const later = await agent.run('thanks').result;
    expect(later.planVerification).toBeUndefined();
  });

  it('does not verify while todos are open, or without a plan', async () => {
    const model = scriptedModel([turn(toolCall('TodoWrite', { todos: [{ content: 'Write', status: 'in_progress', activeForm: 'Writing' }] }, 't1')), 'Paused.']);
    const agent = createAgent({ model, tools: tools(), verifyPlanOnCompletion: true });
    await agent.savePlan('1. Write.');
    const result = await agent.run('go').result;
    expect(result.planVerification).toBeUndefined();
    expect(() => createAgent({ model, verifyPlanOnCompletion: 'yes' as never })).toThrow(/`verifyPlanOnCompletion`/);
  });
});

describe('verifyPlan interrupted', () => {
  it("ends with the verifier's loop, not after its SubagentStop hooks, which close() still stops and waits for", async () => {
    const modelHeld = deferred();
    const hookStarted = deferred();
    let hookAborted = false;
    // The verifier's model holds its turn until the verification is aborted.
    const model = scriptedModel([
      turn('never finished', {
        hold: (signal) => {
          modelHeld.resolve();
          return new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }));
        },
      }),
    ]);
    const agent = createAgent({
      model,
      tools: tools(),
      // A cleanup that holds until its signal aborts (only close() aborts it after an interrupt).
      hooks: {
        SubagentStop: [
          {
            hook: ({ signal }) =>
              new Promise<void>((resolve) => {
                hookStarted.resolve();
                signal.addEventListener('abort', () => ((hookAborted = true), resolve()), { once: true });
              }),
          },
        ],
      },
    });
    await agent.savePlan('1. Write the file.');
    const controller = new AbortController();
    const verifying = verifyPlan({ agent, signal: controller.signal }).catch((error: unknown) => error);
    await modelHeld.promise;
    controller.abort();
    const error = await verifying;
    expect(PlanVerificationError.isInstance(error)).toBe(true);
    expect((error as PlanVerificationError).status).toBe('interrupted');
    // The hook runs on after the verification ended, until close() stops it.
    await hookStarted.promise;
    expect(hookAborted).toBe(false);
    await agent.close();
    expect(hookAborted).toBe(true);
  });
});
