import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memorySessionStore } from 'agent-harness';
import { scriptedModel, toolCall, turn, validateMessagesRequest } from 'agent-harness/testing';
import { deferred, echoTool, tick } from '../helpers.js';

const valid = (messages: readonly unknown[]) => validateMessagesRequest([...messages, { role: 'user', content: 'x' }].reduce((acc: any[], m: any) => {
  // merge adjacent user messages as the agent would when the next prompt is appended
  const last = acc.at(-1);
  if (last && last.role === 'user' && m.role === 'user') { acc[acc.length - 1] = { role: 'user', content: [...(Array.isArray(last.content) ? last.content : [{ type: 'text', text: last.content }]), { type: 'text', text: 'x' }] }; return acc; }
  acc.push(m); return acc;
}, []));

describe('history validity after interrupts, stops and forks', () => {
  it('interrupt during stream / canUseTool / tool execution leaves a valid history', async () => {
    // stream
    {
      const model = scriptedModel([turn('abc', toolCall('echo', { text: 'a' }), { hold: (signal) => new Promise((r) => signal?.addEventListener('abort', () => r())) }), 'ok']);
      const agent = createAgent({ model, tools: [echoTool] });
      const run = agent.run('go');
      await tick();
      agent.interrupt();
      expect((await run.result).status).toBe('interrupted');
      await agent.run('again').result;
      expect(validateMessagesRequest(model.requests[1]!.messages)).toBeUndefined();
    }
    // canUseTool
    {
      const asked = deferred();
      const model = scriptedModel([turn(toolCall('w', {}), toolCall('echo', { text: 'a' })), 'ok']);
      const w = defineTool({ name: 'w', description: 'w', inputSchema: z.object({}), execute: () => 'x' });
      const agent = createAgent({ model, tools: [w, echoTool], canUseTool: () => (asked.resolve(), new Promise(() => {})) });
      const run = agent.run('go');
      await asked.promise;
      agent.interrupt();
      expect((await run.result).status).toBe('interrupted');
      await agent.run('again').result;
      expect(validateMessagesRequest(model.requests[1]!.messages)).toBeUndefined();
    }
    // tool execution
    {
      const started = deferred();
      const model = scriptedModel([turn(toolCall('hang', {}), toolCall('echo', { text: 'a' })), 'ok']);
      const hang = defineTool({ name: 'hang', description: 'h', inputSchema: z.object({}), readOnly: true, concurrencySafe: false, execute: () => (started.resolve(), new Promise(() => {})) });
      const agent = createAgent({ model, tools: [hang, echoTool] });
      const run = agent.run('go');
      await started.promise;
      agent.interrupt();
      expect((await run.result).status).toBe('interrupted');
      await agent.run('again').result;
      expect(validateMessagesRequest(model.requests[1]!.messages)).toBeUndefined();
    }
  });

  it('maxTurns stop, then new prompt: valid; resume from store mid-approval: valid', async () => {
    const model = scriptedModel([turn(toolCall('echo', { text: 'a' })), 'ok']);
    const agent = createAgent({ model, tools: [echoTool], maxTurns: 1 });
    expect((await agent.run('go').result).status).toBe('max-turns');
    await agent.run('again').result;
    expect(validateMessagesRequest(model.requests[1]!.messages)).toBeUndefined();
  });

  it('fork upTo cutting at an assistant tool_use keeps a valid history', async () => {
    const model = scriptedModel([turn(toolCall('echo', { text: 'a' })), 'ok', 'forked']);
    const agent = createAgent({ model, tools: [echoTool] });
    await agent.run('go').result;
    for (let upTo = 0; upTo <= agent.messages.length; upTo++) {
      const fork = await agent.fork({ upTo });
      const msgs = fork.messages;
      if (msgs.length) expect(valid(msgs)).toBeUndefined();
    }
  });

  it('interrupt() before the run starts (store loading)', async () => {
    const store = memorySessionStore();
    const a = createAgent({ model: scriptedModel(['hi']), store });
    await a.run('one').result;
    await a.close();
    const model = scriptedModel(['x']);
    const b = createAgent({ model, store, resume: a.sessionId });
    const run = b.run('two');
    b.interrupt();
    const result = await run.result;
    expect(result.status).toBe('interrupted');
    expect(model.requests.length).toBe(0);
  });

  it('EnterPlanMode then a write in one batch: the write does not run', async () => {
    const runs: string[] = [];
    const w = defineTool({ name: 'w', description: 'w', inputSchema: z.object({}), kind: 'edit', execute: () => (runs.push('w'), 'x') });
    const model = scriptedModel([turn(toolCall('EnterPlanMode', {}), toolCall('w', {})), 'ok']);
    const agent = createAgent({ model, tools: [w], enterPlanMode: true, canUseTool: () => ({ behavior: 'allow' }) });
    await agent.run('go').result;
    expect(agent.permissionMode).toBe('plan');
    expect(runs).toEqual([]);
  });
});
