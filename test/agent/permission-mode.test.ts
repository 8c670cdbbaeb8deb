import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError, createAgent, defineTool, type AgentEvent, type TextBlock } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { collect, echoTool } from '../helpers.js';

const writeTool = defineTool({
  name: 'write',
  description: 'Writes.',
  inputSchema: z.object({ text: z.string() }),
  kind: 'edit',
  execute: () => 'written',
});

function texts(content: unknown): string[] {
  return Array.isArray(content) ? (content as TextBlock[]).filter((block) => block.type === 'text').map((block) => block.text) : [String(content)];
}

describe('permission modes on the agent', () => {
  it('refuses bypassPermissions without allowDangerouslySkipPermissions, at creation and on switching', () => {
    const model = scriptedModel([]);
    expect(() => createAgent({ model, permissionMode: 'bypassPermissions' })).toThrow(/allowDangerouslySkipPermissions/);
    const agent = createAgent({ model });
    expect(() => agent.setPermissionMode('bypassPermissions')).toThrow(ConfigurationError);
    expect(() => agent.setPermissionMode('yolo' as never)).toThrow(/yolo/);
    expect(agent.permissionMode).toBe('default');
  });

  it('emits mode-change and tells the model in the next user message, never in the system prompt', async () => {
    const model = scriptedModel(['one', 'two']);
    const agent = createAgent({ model, system: 'Stable system.' });
    const changes: AgentEvent[] = [];
    agent.on('mode-change', (event) => changes.push(event));
    await agent.run('first').result;
    agent.setPermissionMode('plan');
    await agent.run('second').result;
    expect(changes).toMatchObject([{ type: 'mode-change', from: 'default', to: 'plan', reason: 'host' }]);
    const second = model.requests[1]!.request;
    expect(second.system).toBe(model.requests[0]!.request.system);
    expect(second.tools).toBe(model.requests[0]!.request.tools);
    const lastUser = texts(model.requests[1]!.messages.at(-1)!.content);
    expect(lastUser[0]).toMatch(/Plan mode is active/);
    expect(lastUser.at(-1)).toBe('second');
  });

  it('uses planModeInstructions instead of the default instructions, from the start', async () => {
    const model = scriptedModel(['ok']);
    const agent = createAgent({ model, permissionMode: 'plan', planModeInstructions: 'Outline the article; write nothing yet.' });
    await agent.run('go').result;
    const content = texts(model.requests[0]!.messages[0]!.content);
    expect(content).toEqual(['Outline the article; write nothing yet.', 'go']);
    expect(JSON.stringify(model.requests[0]!.messages)).not.toMatch(/code/i);
  });

  it('restores the mode from before planning when a plan is approved without a target mode', async () => {
    const model = scriptedModel([turn(toolCall('ExitPlanMode', { plan: 'Do it.' })), turn(toolCall('write', { text: 'x' })), 'done']);
    const agent = createAgent({ model, tools: [writeTool], permissionMode: 'acceptEdits', canUseTool: () => ({ behavior: 'allow' }) });
    agent.setPermissionMode('plan');
    const { events, result } = await collect(agent.run('go'));
    expect(result.status).toBe('completed');
    expect(agent.permissionMode).toBe('acceptEdits');
    expect(events.filter((event) => event.type === 'mode-change').map((event) => event.type === 'mode-change' && event.reason)).toEqual(['plan-approved']);
    expect(events.find((event) => event.type === 'plan-approved')).toMatchObject({ plan: 'Do it.' });
  });

  it('falls back to default when the mode before planning was auto and the classifier is no longer available', async () => {
    let available = true;
    const model = scriptedModel([turn(toolCall('ExitPlanMode', { plan: 'Plan.' })), 'done']);
    const agent = createAgent({
      model,
      permissionMode: 'auto',
      autoMode: { classify: () => undefined, isAvailable: () => available },
      canUseTool: () => ({ behavior: 'allow' }),
    });
    agent.setPermissionMode('plan');
    available = false;
    await agent.run('go').result;
    expect(agent.permissionMode).toBe('default');
  });

  it('answers ExitPlanMode outside plan mode with an error result', async () => {
    const model = scriptedModel([turn(toolCall('ExitPlanMode', { plan: 'Plan.' }, 'x1')), 'ok']);
    const agent = createAgent({ model, canUseTool: () => ({ behavior: 'allow' }) });
    await agent.run('go').result;
    const result = (model.requests[1]!.messages.at(-1)!.content as Array<{ is_error?: boolean; content: string }>)[0]!;
    expect(result.is_error).toBe(true);
    expect(result.content).toMatch(/not in plan mode/);
    expect(agent.plan).toBeUndefined();
  });

  it('refuses EnterPlanMode in a subagent and asks for it in the main agent', async () => {
    const sub = createAgent({ model: scriptedModel([turn(toolCall('EnterPlanMode', {})), 'ok']), enterPlanMode: true, agentId: 'sub-1', canUseTool: () => ({ behavior: 'allow' }) });
    await sub.run('go').result;
    expect(sub.permissionMode).toBe('default');
    const asked: string[] = [];
    const main = createAgent({
      model: scriptedModel([turn(toolCall('EnterPlanMode', {})), 'ok']),
      enterPlanMode: true,
      canUseTool: (name) => {
        asked.push(name);
        return { behavior: 'allow' };
      },
    });
    await main.run('go').result;
    expect(asked).toEqual(['EnterPlanMode']);
    expect(main.permissionMode).toBe('plan');
  });

  it('never resumes into bypassPermissions', async () => {
    const agent = createAgent({ model: scriptedModel([]), permissionMode: 'bypassPermissions', allowDangerouslySkipPermissions: true });
    const model = scriptedModel(['ok']);
    const resumed = createAgent({ model, allowDangerouslySkipPermissions: true, resume: JSON.parse(JSON.stringify(agent.snapshot())) });
    expect(resumed.permissionMode).toBe('default');
    await resumed.run('go on').result;
    expect(JSON.stringify(model.requests[0]!.messages)).toContain('Permission mode is now \\"default\\"');
  });

  it('resumes in the stored mode whatever permissionMode says, and setPermissionMode after ready changes it', async () => {
    const agent = createAgent({ model: scriptedModel([]), permissionMode: 'acceptEdits' });
    const resumed = createAgent({ model: scriptedModel([]), permissionMode: 'plan', resume: JSON.parse(JSON.stringify(agent.snapshot())) });
    await resumed.ready;
    expect(resumed.permissionMode).toBe('acceptEdits');
    resumed.setPermissionMode('plan');
    expect(resumed.permissionMode).toBe('plan');
  });

  it('sends host tools then the built-ins, and lets the host leave built-ins out', async () => {
    const withModel = scriptedModel(['x']);
    await createAgent({ model: withModel, tools: [echoTool], enterPlanMode: true }).run('go').result;
    expect(withModel.requests[0]!.request.tools.map((tool) => tool.name)).toEqual(['echo', 'TodoWrite', 'ExitPlanMode', 'EnterPlanMode']);
    const withoutModel = scriptedModel(['x']);
    await createAgent({ model: withoutModel, tools: [echoTool], todoWrite: false, exitPlanMode: false }).run('go').result;
    expect(withoutModel.requests[0]!.request.tools.map((tool) => tool.name)).toEqual(['echo']);
  });
});

describe('rules', () => {
  it('must name a tool of the agent: a typo is refused with the near name', () => {
    const model = scriptedModel([]);
    expect(() => createAgent({ model, tools: [writeTool], rules: { deny: ['wirte(x)'] } })).toThrow(/The deny rule "wirte\(x\)" names no tool of this agent; did you mean "write"\? Tools: write, TodoWrite, ExitPlanMode/);
    expect(() => createAgent({ model, tools: [writeTool], rules: { deny: ['Shell(x)'] } })).toThrow(/The deny rule "Shell\(x\)" names no tool of this agent\. Tools: write, TodoWrite, ExitPlanMode/);
    expect(() => createAgent({ model, tools: [writeTool], rules: { allow: ['Write'] } })).toThrow(/did you mean "write"\? \(Names are case-sensitive\.\)/);
    const agent = createAgent({ model, tools: [writeTool] });
    expect(() => agent.addRules({ ask: ['Bash(ls:*)'] })).toThrow(/names no tool/);
    expect(() => agent.addRules({ ask: ['write'] })).not.toThrow();
  });

  it('addRules refuses an argument that is not rule lists, naming the key', () => {
    const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({}), kind: 'edit', execute: () => 'ok' });
    const agent = createAgent({ model: scriptedModel([]), tools: [write] });
    expect(() => agent.addRules({ allowed: ['write'] } as never)).toThrow(/allowed.*allow/);
    expect(() => agent.addRules(null as never)).toThrow(ConfigurationError);
    expect(() => agent.addRules(undefined as never)).toThrow(ConfigurationError);
    expect(() => agent.addRules({ allow: 'write' } as never)).toThrow(/agent\.addRules.*allow/);
    expect(agent.snapshot().sessionRules).toEqual({ allow: [], deny: [], ask: [] });
    agent.addRules({ allow: ['write'] });
    expect(agent.snapshot().sessionRules.allow).toEqual(['write']);
  });
});
