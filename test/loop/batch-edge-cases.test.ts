import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memorySessionStore } from 'agent-harness';
import { scriptedModel, toolCall, turn, validateMessagesRequest } from 'agent-harness/testing';
import { collect, deferred, echoTool, tick } from '../helpers.js';

const log: string[] = [];
const writeTool = defineTool({
  name: 'write',
  description: 'Writes.',
  inputSchema: z.object({ id: z.string() }),
  kind: 'edit',
  execute: ({ input }) => {
    log.push(`write ${input.id}`);
    return 'ok';
  },
});

describe('batch edge cases (found in review)', () => {
  it('a deny with interrupt: true stops the batch: nothing after it is asked or run', async () => {
    log.length = 0;
    const asked: string[] = [];
    const model = scriptedModel([turn(toolCall('write', { id: 'a' }, 'a'), toolCall('write', { id: 'b' }, 'b')), 'never']);
    const agent = createAgent({
      model,
      tools: [writeTool],
      canUseTool: (_name, input) => {
        const id = (input as { id: string }).id;
        asked.push(id);
        return id === 'a' ? { behavior: 'deny', message: 'stop everything', interrupt: true } : { behavior: 'allow' };
      },
    });
    const { result } = await collect(agent.run('go'));
    expect(result.status).toBe('interrupted');
    // The user said "deny and stop": nothing after it should be asked or run.
    expect(asked).toEqual(['a']);
    expect(log).toEqual([]);
  });

  it('an empty assistant reply is not kept, so the next request stays valid', async () => {
    const model = scriptedModel([turn(), 'ok']);
    const agent = createAgent({ model });
    expect((await agent.run('one').result).status).toBe('completed');
    await agent.run('two').result;
    expect(validateMessagesRequest(model.requests[1]!.messages)).toBeUndefined();
  });

  it('a pause_turn continuation joins the paused assistant message', async () => {
    const model = scriptedModel([turn('searching', { stopReason: 'pause_turn' }), 'found it', 'next']);
    const agent = createAgent({ model });
    expect((await agent.run('one').result).status).toBe('completed');
    await agent.run('two').result;
    expect(validateMessagesRequest(model.requests[2]!.messages)).toBeUndefined();
  });

  it('a snapshot taken while a tool runs answers that call; a resumed agent never runs it again', async () => {
    let runs = 0;
    const gate = deferred();
    const slow = defineTool({
      name: 'charge',
      description: 'Charges a card.',
      inputSchema: z.object({}),
      execute: async () => {
        runs++;
        await gate.promise;
        return 'charged';
      },
    });
    const options = {
      tools: [slow, writeTool],
      canUseTool: (name: string) => (name === 'charge' ? { behavior: 'allow' as const } : { behavior: 'defer' as const }),
    };
    const agent = createAgent({ ...options, model: scriptedModel([turn(toolCall('charge', {}, 'c1'), toolCall('write', { id: 'a' }, 'w1'))]) });
    const run = agent.run('pay');
    while (runs === 0) await tick();
    // e.g. a host that checkpoints on every permission-decision / tool-call event
    const snapshot = JSON.parse(JSON.stringify(agent.snapshot()));
    // The snapshot is the state: the running call shows as allowed, the write as pending.
    expect(snapshot.openBatch.calls.map((call: { state: string }) => call.state)).toEqual(['allowed', 'deferred']);
    gate.resolve();
    await run.result;
    expect(runs).toBe(1);
    // The process "crashed" after the snapshot; a new one resumes from it: the call that may have
    // been running is answered, never run again, and the host approves the write.
    const resumed = createAgent({ ...options, model: scriptedModel(['done']), resume: snapshot });
    expect(resumed.snapshot().openBatch!.calls[0]!.result!.content).toMatch(/interrupted before it finished/);
    const approval = resumed.pendingApprovals[0]!;
    await resumed.resolveApproval(approval.id, { behavior: 'allow' }).result;
    expect(runs).toBe(1);
  });

  it('fork({ upTo }) tells the fork\'s model its mode', async () => {
    const model = scriptedModel(['hello', 'fork reply']);
    const agent = createAgent({ model });
    await agent.run('one').result;
    agent.setPermissionMode('plan');
    const fork = await agent.fork({ upTo: 1 });
    expect(fork.permissionMode).toBe('plan');
    await fork.run('two').result;
    const sent = JSON.stringify(model.requests[1]!.messages);
    expect(sent).toContain('Plan mode is active');
  });

  it('resolveApproval on a closed agent throws before changing anything', async () => {
    const store = memorySessionStore();
    const agent = createAgent({ model: scriptedModel([turn(toolCall('write', { id: 'a' }, 'a'))]), tools: [writeTool], store });
    const result = await agent.run('go').result;
    expect(result.status).toBe('awaiting-approval');
    const id = result.pendingApprovals[0]!.id;
    await agent.close();
    expect(() => agent.resolveApproval(id, { behavior: 'allow' })).toThrow();
    // The approval should still be pending after the refused call.
    expect(agent.pendingApprovals.map((approval) => approval.id)).toEqual([id]);
  });

  it('an edited input on resolveApproval goes through the tool\'s validateInput', async () => {
    log.length = 0;
    const guarded = defineTool({
      name: 'guarded',
      description: 'Only ids starting with ok.',
      inputSchema: z.object({ id: z.string() }),
      validateInput: ({ input }) => (input.id.startsWith('ok') ? undefined : 'id must start with ok'),
      execute: ({ input }) => {
        log.push(input.id);
        return 'ran';
      },
    });
    const agent = createAgent({ model: scriptedModel([turn(toolCall('guarded', { id: 'ok1' }, 'g')), 'done']), tools: [guarded] });
    const first = await agent.run('go').result;
    await agent.resolveApproval(first.pendingApprovals[0]!.id, { behavior: 'allow', updatedInput: { id: 'bad' } }).result;
    expect(log).toEqual([]);
  });

  it('calls run in tool_use order: a later allowed call waits for an earlier pending one', async () => {
    log.length = 0;
    const readLog = defineTool({
      name: 'read_log',
      description: 'Reads (depends on write a).',
      inputSchema: z.object({}),
      readOnly: true,
      execute: () => {
        log.push('read');
        return 'read';
      },
    });
    const model = scriptedModel([turn(toolCall('write', { id: 'a' }, 'w'), toolCall('read_log', {}, 'r')), 'done']);
    const agent = createAgent({ model, tools: [writeTool, readLog] });
    const first = await agent.run('go').result;
    expect(first.status).toBe('awaiting-approval');
    await agent.resolveApproval(first.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
    expect(log).toEqual(['write a', 'read']);
  });

  it('an interrupt during a PreToolUse hook is an interrupt, not a hook failure or a denial', async () => {
    const hookStarted = deferred();
    const model = scriptedModel([turn(toolCall('echo', { text: 'x' }, 'e'))]);
    const agent = createAgent({
      model,
      tools: [echoTool],
      hooks: {
        PreToolUse: [
          {
            hook: async ({ signal }) => {
              hookStarted.resolve();
              await new Promise((resolve) => signal.addEventListener('abort', resolve));
              return {};
            },
          },
        ],
      },
    });
    const run = agent.run('go');
    await hookStarted.promise;
    agent.interrupt();
    const result = await run.result;
    expect(result.status).toBe('interrupted');
    expect(result.permissionDenials).toEqual([]);
  });

  it('maxBudgetUsd for a model without a price is refused at creation, naming the fix', async () => {
    const model = scriptedModel(['x'], { modelId: 'house-model-7' });
    expect(() => createAgent({ model, maxBudgetUsd: 0.01 })).toThrow(/maxBudgetUsd needs a price for model "house-model-7".*prices: \{ 'house-model-7'/);
    expect(() => createAgent({ model, maxBudgetUsd: 0.01, prices: { 'house-model': { input: 1, output: 1 } } })).not.toThrow();
    const bedrock = scriptedModel(['x'], { modelId: 'us.anthropic.claude-sonnet-4-6-v1:0' });
    expect(() => createAgent({ model: bedrock, maxBudgetUsd: 0.01 })).not.toThrow();
  });
});

describe('assistant content kept in history', () => {
  it('drops empty text blocks the model streamed, so the next request stays valid', async () => {
    const model = scriptedModel([turn('', toolCall('echo', { text: 'x' })), 'done', 'again']);
    const agent = createAgent({ model, tools: [echoTool] });
    await agent.run('go').result;
    await agent.run('more').result;
    expect(validateMessagesRequest(model.requests[2]!.messages)).toBeUndefined();
    expect(agent.messages[1]!.content).toEqual([expect.objectContaining({ type: 'tool_use' })]);
  });
});
