import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, PromptBlockedError, type AgentEvent, type TextBlock, type ToolResultBlock } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { collect, deferred, echoTool, tick } from '../helpers.js';

const lastUser = (model: ReturnType<typeof scriptedModel>, request: number) =>
  model.requests[request]!.messages.at(-1)!.content as Array<TextBlock | ToolResultBlock>;

describe('hooks in the loop', () => {
  it('SessionStart and UserPromptSubmit add context before the prompt', async () => {
    const model = scriptedModel(['ok', 'ok']);
    const sources: string[] = [];
    const agent = createAgent({
      model,
      hooks: {
        SessionStart: [{ hook: (input) => (sources.push(input.source), { additionalContext: 'Today is Sunday.' }) }],
        UserPromptSubmit: [{ hook: (input) => ({ additionalContext: `Prompt length ${input.prompt.length}.` }) }],
      },
    });
    await agent.run('hello').result;
    await agent.run('again').result;
    expect(lastUser(model, 0).map((block) => (block as TextBlock).text)).toEqual(['Today is Sunday.', 'Prompt length 5.', 'hello']);
    expect(lastUser(model, 1).map((block) => (block as TextBlock).text)).toEqual(['Prompt length 5.', 'again']);
    expect(sources).toEqual(['startup']);
    const resumed = createAgent({ model: scriptedModel(['ok', 'ok']), hooks: { SessionStart: [{ hook: (input) => (sources.push(input.source), {}) }] }, resume: agent.snapshot() });
    await resumed.run('more').result;
    const forked = await resumed.fork();
    await forked.run('in the fork').result;
    expect(sources).toEqual(['startup', 'resume', 'fork']);
  });

  it('a blocking UserPromptSubmit hook ends the run before the model is called, history unchanged', async () => {
    const model = scriptedModel([]);
    const agent = createAgent({ model, hooks: { UserPromptSubmit: [{ hook: () => ({ block: true, reason: 'contains a secret' }) }] } });
    const result = await agent.run('my password is hunter2').result;
    expect(result.status).toBe('error');
    expect(PromptBlockedError.isInstance(result.error)).toBe(true);
    expect(result.error!.message).toMatch(/contains a secret/);
    expect(agent.messages).toEqual([]);
    expect(model.requests).toEqual([]);
  });

  it('PostToolUse replaces output and adds context; PostToolUseFailure sees failures', async () => {
    const failing = defineTool({ name: 'failing', description: 'Fails.', inputSchema: z.object({}), readOnly: true, execute: () => { throw new Error('nope'); } });
    const failures: string[] = [];
    const model = scriptedModel([turn(toolCall('echo', { text: 'raw' }, 'e'), toolCall('failing', {}, 'f')), 'ok']);
    const agent = createAgent({
      model,
      tools: [echoTool, failing],
      hooks: {
        PostToolUse: [{ matcher: '^echo$', hook: () => ({ updatedOutput: 'redacted', additionalContext: 'Checked by the host.' }) }],
        PostToolUseFailure: [{ hook: (input) => (failures.push(`${input.toolName}: ${input.error.message}`), {}) }],
      },
    });
    await agent.run('go').result;
    const [echoResult, failResult] = lastUser(model, 1) as ToolResultBlock[];
    expect(echoResult!.content).toEqual([{ type: 'text', text: 'redacted' }, { type: 'text', text: 'Checked by the host.' }]);
    expect(failResult!.is_error).toBe(true);
    expect(failures).toEqual(['failing: Tool "failing" failed: nope']);
  });

  it('an interrupt while a Stop hook runs ends the run interrupted, not completed', async () => {
    const model = scriptedModel(['first', 'second']);
    let started!: () => void;
    const hookStarted = new Promise<void>((resolve) => (started = resolve));
    const agent = createAgent({
      model,
      hooks: {
        Stop: [
          {
            hook: (input) =>
              new Promise<void>((resolve) => {
                started();
                input.signal.addEventListener('abort', () => resolve());
              }),
          },
        ],
      },
    });
    const run = agent.run('go');
    await hookStarted;
    agent.interrupt();
    const result = await run.result;
    expect(result.status).toBe('interrupted');
    expect(model.remaining).toBe(1);
  });

  it('a Stop hook sends the model back to work at most three times; the stop after that runs no Stop hook (docs/migrating-from-claude-agent-sdk.md)', async () => {
    const model = scriptedModel(['first', 'second', 'third', 'fourth', 'fifth']);
    let calls = 0;
    const agent = createAgent({ model, hooks: { Stop: [{ hook: (input) => (calls++, { continue: true, reason: `Check your work (${input.stopHookActive})` }) }] } });
    const result = await agent.run('go').result;
    expect(result.status).toBe('completed');
    expect(result.turns).toBe(4);
    expect(calls).toBe(3);
    expect((lastUser(model, 1)[0] as TextBlock).text).toBe('Check your work (false)');
    expect((lastUser(model, 2)[0] as TextBlock).text).toBe('Check your work (true)');
    expect(model.remaining).toBe(1);
  });

  it('hooks that throw report an error event and are otherwise ignored; SessionEnd runs on close', async () => {
    const ended: string[] = [];
    const agent = createAgent({
      model: scriptedModel(['ok']),
      hooks: {
        UserPromptSubmit: [{ hook: () => { throw new Error('hook bug'); } }],
        SessionEnd: [{ hook: (input) => (ended.push(input.reason ?? ''), {}) }],
      },
    });
    const { events, result } = await collect(agent.run('go'));
    expect(result.status).toBe('completed');
    expect(events.some((event) => event.type === 'error' && !event.fatal && /hook bug/.test(event.error.message))).toBe(true);
    await agent.close({ reason: 'user left' });
    expect(ended).toEqual(['user left']);
    expect(() => agent.run('more')).toThrow(/closed/);
  });

  it("a SessionEnd hook that hangs is aborted through its signal when close()'s signal aborts, and close() resolves", async () => {
    const started = deferred();
    const aborted = deferred<unknown>();
    const agent = createAgent({
      model: scriptedModel(['ok']),
      hooks: {
        SessionEnd: [{ hook: ({ signal }) => new Promise<void>((resolve) => (started.resolve(), signal.addEventListener('abort', () => (aborted.resolve(signal.reason), resolve()), { once: true }))) }],
      },
    });
    await agent.run('go').result;
    const errors: AgentEvent[] = [];
    agent.on('error', (event) => errors.push(event));
    const stop = new AbortController();
    const closing = agent.close({ signal: stop.signal });
    await Promise.race([started.promise, closing]);
    stop.abort(new Error('shutting down'));
    await closing;
    expect(await aborted.promise).toEqual(new Error('shutting down'));
    expect(errors).toEqual([
      expect.objectContaining({ fatal: false, error: expect.objectContaining({ hookEventName: 'SessionEnd', timedOut: false, message: expect.stringMatching(/SessionEnd hook #0 was aborted because close\(\)'s signal aborted/) }) }),
    ]);
  });

  it('SessionEnd hooks get an aborted signal at once when close() is given one already aborted', async () => {
    const seen: boolean[] = [];
    const agent = createAgent({ model: scriptedModel([]), hooks: { SessionEnd: [{ hook: ({ signal }) => void seen.push(signal.aborted) }] } });
    await agent.close({ signal: AbortSignal.abort() });
    expect(seen).toEqual([true]);
  });

  it('a second close() while the first waits on a SessionEnd hook resolves only once the first has', async () => {
    const started = deferred();
    const release = deferred();
    const ran: string[] = [];
    const agent = createAgent({ model: scriptedModel([]), hooks: { SessionEnd: [{ hook: async () => (ran.push('hook'), started.resolve(), await release.promise) }] } });
    let secondDone = false;
    const first = agent.close();
    await started.promise;
    const second = agent.close().then(() => (secondDone = true));
    for (let tick = 0; tick < 5; tick++) await new Promise((resolve) => setImmediate(resolve));
    expect(secondDone).toBe(false);
    release.resolve();
    await Promise.all([first, second]);
    expect(secondDone).toBe(true);
    // The hooks ran once.
    expect(ran).toEqual(['hook']);
  });
});

describe('canUseTool in the loop', () => {
  const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ text: z.string() }), kind: 'edit', execute: ({ input }) => `wrote ${input.text}` });

  it('a callback that throws denies that call, reports an error event, and the run goes on', async () => {
    const model = scriptedModel([turn(toolCall('write', { text: 'a' })), 'recovered']);
    const agent = createAgent({ model, tools: [write], canUseTool: () => { throw new Error('approval service down'); } });
    const { events, result } = await collect(agent.run('go'));
    expect(result.status).toBe('completed');
    expect(result.permissionDenials).toHaveLength(1);
    expect(events.some((event) => event.type === 'error' && /approval service down/.test(event.error.message))).toBe(true);
    expect((lastUser(model, 1)[0] as ToolResultBlock).is_error).toBe(true);
  });

  it('interrupt releases a callback that never returns, through ctx.signal', async () => {
    let signal: AbortSignal | undefined;
    const model = scriptedModel([turn(toolCall('write', { text: 'a' }, 'w1')), 'after']);
    const agent = createAgent({
      model,
      tools: [write],
      canUseTool: (_name, _input, context) => {
        signal = context.signal;
        return new Promise(() => undefined);
      },
    });
    const run = agent.run('go');
    while (!signal) await tick();
    agent.interrupt();
    const result = await run.result;
    expect(result.status).toBe('interrupted');
    expect(signal.aborted).toBe(true);
    const answered = agent.messages.at(-1)!.content as ToolResultBlock[];
    expect(answered.map((block) => [block.tool_use_id, block.is_error])).toEqual([['w1', true]]);
    expect((await agent.run('next').result).status).toBe('completed');
  });

  it('deny with interrupt ends the run once the batch is answered; nothing else of it runs', async () => {
    const model = scriptedModel([turn(toolCall('write', { text: 'a' }), toolCall('echo', { text: 'b' })), 'unused']);
    const agent = createAgent({ model, tools: [write, echoTool], canUseTool: () => ({ behavior: 'deny', message: 'Stop right there.', interrupt: true }) });
    const result = await agent.run('go').result;
    expect(result.status).toBe('interrupted');
    const answered = agent.messages.at(-1)!.content as ToolResultBlock[];
    expect(answered).toHaveLength(2);
    expect(answered[0]!.content).toBe('Stop right there.');
    expect(answered[1]!.is_error).toBe(true);
    expect(answered[1]!.content).toMatch(/stopped the run.*not run/);
    expect(model.remaining).toBe(1);
  });

  it('an edited input is validated again; "always allow" suggestions echoed back apply to the session', async () => {
    const model = scriptedModel([turn(toolCall('write', { text: 'a' }, 'w1')), turn(toolCall('write', { text: 'b' }, 'w2')), turn(toolCall('write', { text: 'c' }, 'w3')), 'done']);
    let asked = 0;
    const agent = createAgent({
      model,
      tools: [write],
      canUseTool: (_name, _input, context) => {
        asked++;
        if (asked === 1) return { behavior: 'allow', updatedInput: { text: 42 } };
        return { behavior: 'allow', updatedPermissions: context.suggestions.filter((update) => update.type === 'addRules') };
      },
    });
    const result = await agent.run('go').result;
    expect(result.status).toBe('completed');
    expect(asked).toBe(2);
    expect((lastUser(model, 1)[0] as ToolResultBlock).is_error).toBe(true);
    expect(String((lastUser(model, 1)[0] as ToolResultBlock).content)).toMatch(/text/);
    expect((lastUser(model, 3)[0] as ToolResultBlock).content).toBe('wrote c');
    expect(agent.snapshot().sessionRules.allow.length).toBeGreaterThan(0);
  });

  it('a new prompt supersedes pending approvals: they are denied and the history stays valid', async () => {
    const model = scriptedModel([turn(toolCall('write', { text: 'a' }, 'w1')), 'fine']);
    const agent = createAgent({ model, tools: [write] });
    const first = await agent.run('go').result;
    expect(first.status).toBe('awaiting-approval');
    const second = await agent.run('never mind').result;
    expect(second.status).toBe('completed');
    const blocks = lastUser(model, 1);
    expect((blocks[0] as ToolResultBlock).is_error).toBe(true);
    expect((blocks[1] as TextBlock).text).toBe('never mind');
    expect(agent.pendingApprovals).toEqual([]);
  });

  it('resolveApproval rejects unknown ids and a second resolution of the same id', async () => {
    const model = scriptedModel([turn(toolCall('write', { text: 'a' })), 'done']);
    const agent = createAgent({ model, tools: [write] });
    const result = await agent.run('go').result;
    expect(() => agent.resolveApproval('nope', { behavior: 'allow' })).toThrow(/No pending approval has id "nope"/);
    const id = result.pendingApprovals[0]!.id;
    await agent.resolveApproval(id, { behavior: 'allow' }).result;
    expect(() => agent.resolveApproval(id, { behavior: 'allow' })).toThrow(/already resolved/);
  });
});

describe('resolving approvals', () => {
  const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ path: z.string() }), kind: 'edit', ruleTarget: { field: 'path', kind: 'path' }, execute: ({ input }) => `wrote ${input.path}` });

  it('an edited input cannot get around the deny rules', async () => {
    const model = scriptedModel([turn(toolCall('write', { path: 'notes/a.md' }, 'w1')), 'ok']);
    const agent = createAgent({ model, tools: [write], rules: { deny: ['write(secrets/**)'] } });
    const first = await agent.run('go').result;
    const after = await agent.resolveApproval(first.pendingApprovals[0]!.id, { behavior: 'allow', updatedInput: { path: 'secrets/key.pem' } }).result;
    expect(after.status).toBe('completed');
    const result = (model.requests[1]!.messages.at(-1)!.content as ToolResultBlock[])[0]!;
    expect(result.is_error).toBe(true);
    expect(result.content).toMatch(/deny rule "write\(secrets\/\*\*\)"/);
  });
});

describe('hook outputs of the wrong type', () => {
  it.each([
    ['SessionStart additionalContext 42', { SessionStart: [{ hook: () => ({ additionalContext: 42 }) as never }] }],
    ['UserPromptSubmit additionalContext {}', { UserPromptSubmit: [{ hook: () => ({ additionalContext: {} }) as never }] }],
    ['Stop reason 7', { Stop: [{ hook: () => ({ continue: true, reason: 7 }) as never }] }],
    ['Stop continue "yes"', { Stop: [{ hook: () => ({ continue: 'yes' }) as never }] }],
  ])('%s: reported as an error event naming the field; the run completes', async (_name, hooks) => {
    const agent = createAgent({ model: scriptedModel(['Done.', 'Again.']), hooks: hooks as never });
    const errors: string[] = [];
    agent.on('error', (event) => errors.push(event.error.message));
    const result = await agent.run('hi').result;
    expect(result.status).toBe('completed');
    expect(errors.join('\n')).toMatch(/additionalContext|reason|continue/);
  });

  it('PostToolUse additionalContext counts against maxToolResultChars', async () => {
    const echo = defineTool({ name: 'echo', description: 'Echoes.', inputSchema: z.object({ text: z.string() }), readOnly: true, execute: ({ input }) => input.text });
    const model = scriptedModel([turn(toolCall('echo', { text: 'a' })), 'Done.']);
    const agent = createAgent({ model, tools: [echo], maxToolResultChars: 1_000, hooks: { PostToolUse: [{ hook: () => ({ additionalContext: 'y'.repeat(500_000) }) }] } });
    await agent.run('hi').result;
    const sent = JSON.stringify(model.requests[1]!.messages.at(-1));
    expect(sent.length).toBeLessThan(5_000);
    expect(sent).toContain('Output truncated');
  });
});
