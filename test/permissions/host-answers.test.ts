import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError, createAgent, defineTool, memorySessionStore, type AgentEvent, type ToolResultBlock } from 'agent-harness';
import { scriptedModel, toolCall, turn, validateMessagesRequest } from 'agent-harness/testing';

// A host's answer (resolveApproval, canUseTool) is checked whole before anything of it is
// recorded or applied: what is stored is plain data, and a bad part changes nothing.
const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ path: z.string() }), kind: 'edit', execute: ({ input }) => `wrote ${input.path}` });

function resultOf(messages: readonly { role: string; content: unknown }[], id: string): string | undefined {
  const block = messages
    .flatMap((message) => (Array.isArray(message.content) ? (message.content as ToolResultBlock[]) : []))
    .find((candidate) => candidate.type === 'tool_result' && candidate.tool_use_id === id);
  return block?.content as string | undefined;
}

async function waiting(store = memorySessionStore()) {
  const agent = createAgent({ store, model: scriptedModel([turn(toolCall('write', { path: 'a' }, 't1')), 'Done.', 'Again.']), tools: [write] });
  await agent.run('Write a.').result;
  expect(agent.pendingApprovals).toHaveLength(1);
  return agent;
}

describe('resolveApproval with a decision that is not plain data', () => {
  it('an edited input holding a function is refused as the call’s result, and the memory-stored session goes on', async () => {
    const agent = await waiting();
    const result = await agent.resolveApproval(agent.pendingApprovals[0]!.id, { behavior: 'allow', updatedInput: { path: 'b', onClick() {} } }).result;
    expect(result.status).toBe('completed');
    expect(resultOf(agent.messages, 't1')).toMatch(/The edited input was not run: .*function/);
    expect((await agent.run('Next.').result).status).toBe('completed');
  });

  it('a decision object with methods (a UI class instance) is recorded as its fields', async () => {
    const agent = await waiting();
    const result = await agent.resolveApproval(agent.pendingApprovals[0]!.id, { behavior: 'deny', message: 'No.', track() {} } as never).result;
    expect(result.status).toBe('completed');
    expect(resultOf(agent.messages, 't1')).toBe('No.');
    expect((await agent.run('Next.').result).status).toBe('completed');
  });
});

describe('permission updates are checked whole, before anything is applied', () => {
  it.each([
    ['a cycle', (() => { const cycle: Record<string, unknown> = {}; cycle.self = cycle; return cycle; })(), /updatedPermissions must be an array/],
    ['an unknown destination', [{ type: 'addRules', behavior: 'allow', rules: ['write'], destination: 'projectSettings' }], /destination.*"session".*"host".*"projectSettings"/],
    ['a rule naming no tool', [{ type: 'addRules', behavior: 'allow', rules: ['NoSuchTool'], destination: 'session' }], /NoSuchTool/],
    ['a malformed rule after a good one', [{ type: 'addRules', behavior: 'allow', rules: ['write'], destination: 'session' }, { type: 'addRules', behavior: 'deny', rules: ['Bash('], destination: 'session' }], /Bash\(/],
    ['an unknown mode', [{ type: 'setMode', mode: 'yolo', destination: 'session' }], /yolo/],
  ])('resolveApproval refuses %s at once, and the approval stays pending', async (_name, updatedPermissions, message) => {
    const agent = await waiting();
    const id = agent.pendingApprovals[0]!.id;
    expect(() => agent.resolveApproval(id, { behavior: 'allow', updatedPermissions: updatedPermissions as never })).toThrow(message);
    expect(() => agent.resolveApproval(id, { behavior: 'allow', updatedPermissions: updatedPermissions as never })).toThrow(ConfigurationError);
    expect(agent.pendingApprovals.map((approval) => approval.id)).toEqual([id]);
    expect(agent.snapshot().sessionRules.allow).toEqual([]);
    const result = await agent.resolveApproval(id, { behavior: 'allow' }).result;
    expect(result.status).toBe('completed');
    expect(resultOf(agent.messages, 't1')).toBe('wrote a');
  });

  it('canUseTool’s bad update ends the run with a ConfigurationError before anything of it is recorded', async () => {
    const events: AgentEvent[] = [];
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('write', { path: 'a' }, 't1')), 'Done.']),
      tools: [write],
      canUseTool: () => ({ behavior: 'allow', updatedPermissions: [{ type: 'addRules', behavior: 'allow', rules: ['write'], destination: 'session' }, { type: 'setMode', mode: 'yolo', destination: 'session' }] as never }),
    });
    agent.on('permission-decision', (event) => events.push(event));
    const result = await agent.run('Write a.').result;
    expect(result.status).toBe('error');
    expect(ConfigurationError.isInstance(result.error)).toBe(true);
    expect(agent.snapshot().sessionRules.allow).toEqual([]);
    expect(events.filter((event) => event.type === 'permission-decision' && event.behavior === 'allow')).toEqual([]);
    expect(validateMessagesRequest([...agent.messages, { role: 'user', content: 'next' }].slice(0, -1))).toBeUndefined();
  });
});

describe('plan approval with permission updates', () => {
  const planAgent = (updatedPermissions: unknown) =>
    createAgent({
      model: scriptedModel([turn(toolCall('ExitPlanMode', { plan: '1. Write it.' }, 'p1')), 'Executing.']),
      tools: [write],
      permissionMode: 'plan',
      canUseTool: () => ({ behavior: 'allow', updatedPermissions } as never),
    });

  it('a bad update is not half-applied: no plan saved, no mode change, the run ends with a ConfigurationError', async () => {
    const agent = planAgent([{ type: 'addRules', behavior: 'allow', rules: ['NoSuchTool'], destination: 'session' }]);
    const seen: string[] = [];
    agent.on('plan-approved', () => seen.push('plan-approved'));
    agent.on('mode-change', (event) => seen.push(`${event.from}->${event.to}`));
    const result = await agent.run('Plan it.').result;
    expect(result.status).toBe('error');
    expect(ConfigurationError.isInstance(result.error)).toBe(true);
    expect(seen).toEqual([]);
    expect(agent.plan).toBeUndefined();
    expect(agent.permissionMode).toBe('plan');
  });

  it('setMode bypassPermissions without the flag is refused before the plan is saved', async () => {
    const agent = planAgent([{ type: 'setMode', mode: 'bypassPermissions', destination: 'session' }]);
    const result = await agent.run('Plan it.').result;
    expect(result.error?.message).toMatch(/allowDangerouslySkipPermissions/);
    expect(agent.plan).toBeUndefined();
    expect(agent.permissionMode).toBe('plan');
  });

  it('the host’s explicit target mode applies even when the host left plan mode while the plan waited', async () => {
    const agent = createAgent({ model: scriptedModel([turn(toolCall('ExitPlanMode', { plan: '1. Write it.' }, 'p1')), 'Executing.']), tools: [write], permissionMode: 'plan' });
    await agent.run('Plan it.').result;
    agent.setPermissionMode('default');
    await agent.resolveApproval(agent.pendingApprovals[0]!.id, { behavior: 'allow', updatedPermissions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }] }).result;
    expect(agent.plan?.text).toContain('Write it.');
    expect(agent.permissionMode).toBe('acceptEdits');
  });
});

it('resolveApproval names a behavior JSON cannot write (a bigint) in a ConfigurationError', async () => {
  const agent = await waiting();
  expect(() => agent.resolveApproval(agent.pendingApprovals[0]!.id, { behavior: 1n } as never)).toThrow(/decision\.behavior must be "allow" or "deny", got/);
  expect(() => agent.resolveApproval(agent.pendingApprovals[0]!.id, { behavior: 1n } as never)).toThrow(ConfigurationError);
});

describe('claimApproval that never answers', () => {
  async function parked() {
    const first = createAgent({ model: scriptedModel([turn(toolCall('write', { path: 'a' }, 't1'))]), tools: [write] });
    await first.run('Write a.').result;
    return JSON.parse(JSON.stringify(first.snapshot()));
  }

  it('interrupt() ends the run at once; the claim gets the aborted signal and the call does not run', async () => {
    let asked!: (signal: AbortSignal) => void;
    const claimed = new Promise<AbortSignal>((resolve) => (asked = resolve));
    const agent = createAgent({ model: scriptedModel(['Done.']), tools: [write], resume: await parked(), claimApproval: ({ signal }) => (asked(signal), new Promise<boolean>(() => {})) });
    const run = agent.resolveApproval(agent.pendingApprovals[0]!.id, { behavior: 'allow' });
    const signal = await claimed;
    agent.interrupt();
    const result = await run.result;
    expect(result.status).toBe('interrupted');
    expect(signal.aborted).toBe(true);
    expect(resultOf(agent.messages, 't1')).not.toBe('wrote a');
  });

  it('close() returns instead of waiting on it', async () => {
    let asked!: () => void;
    const claimed = new Promise<void>((resolve) => (asked = resolve));
    const agent = createAgent({ model: scriptedModel(['Done.']), tools: [write], resume: await parked(), claimApproval: () => (asked(), new Promise<boolean>(() => {})) });
    const run = agent.resolveApproval(agent.pendingApprovals[0]!.id, { behavior: 'allow' });
    await claimed;
    await agent.close();
    expect((await run.result).status).toBe('interrupted');
  });
});
