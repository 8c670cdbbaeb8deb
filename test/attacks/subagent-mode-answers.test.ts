// Attack class: a host answer to a subagent's question that switches the mode (README, Subagents:
// "A `setMode` stays the subagent's", its mode "never `bypassPermissions`"). A host that allowed
// bypassPermissions for the session answers a subagent's card with "bypass from now on": the
// subagent used to fail with an error telling the host to pass allowDangerouslySkipPermissions
// (which it had), losing its work. Now the answer is taken, the call runs, and the subagent still
// asks for the next call; the parent's mode never moves.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type CanUseTool, type PermissionMode } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

function setup(mode: PermissionMode, allowDangerouslySkipPermissions: boolean) {
  const ran: number[] = [];
  const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ n: z.number() }), kind: 'edit', execute: ({ input }) => (ran.push(input.n), 'ok') });
  const asked: string[] = [];
  const canUseTool: CanUseTool = async (_name, input, context) => {
    asked.push(`${context.agentId ? 'subagent' : 'parent'} ${(input as { n: number }).n}`);
    // The first question (the subagent's) is answered with an "always" that switches its mode.
    return asked.length === 1 ? { behavior: 'allow', updatedPermissions: [{ type: 'setMode', mode, destination: 'session' }] } : { behavior: 'deny', message: 'Not now.' };
  };
  const child = scriptedModel([turn(toolCall('write', { n: 1 }, 'c1')), turn(toolCall('write', { n: 2 }, 'c2')), 'Child done.']);
  const parent = scriptedModel([turn(toolCall('Agent', { description: 'd', prompt: 'p', subagent_type: 'worker' }, 'p1')), turn(toolCall('write', { n: 3 }, 'p2')), 'Parent done.']);
  const agent = createAgent({ model: parent, tools: [write], canUseTool, allowDangerouslySkipPermissions, agents: { worker: { description: 'w', prompt: 'w', model: child } } });
  return { agent, ran, asked, parent };
}

const agentResult = (messages: readonly unknown[]) => JSON.stringify(messages.at(-1));

describe('attack: a host answer that switches a subagent to bypassPermissions', () => {
  it('with allowDangerouslySkipPermissions: the call runs, the next one is still asked, the parent stays in default', async () => {
    const { agent, ran, asked, parent } = setup('bypassPermissions', true);
    const result = await agent.run('go').result;
    expect(result.status).toBe('completed');
    expect(result.subagents?.[0]).toMatchObject({ status: 'completed' });
    expect(ran).toEqual([1]);
    expect(asked).toEqual(['subagent 1', 'subagent 2', 'parent 3']);
    expect(agent.permissionMode).toBe('default');
    expect(agentResult(parent.requests[1]!.messages)).toContain('Child done.');
  });

  it('without it: the subagent fails with the ConfigurationError, told once (no doubled full stop), and the parent goes on in default', async () => {
    const { agent, ran, asked, parent } = setup('bypassPermissions', false);
    const result = await agent.run('go').result;
    expect(result.status).toBe('completed');
    expect(result.subagents?.[0]).toMatchObject({ status: 'error' });
    expect(ran).toEqual([]);
    expect(asked).toEqual(['subagent 1', 'parent 3']);
    expect(agent.permissionMode).toBe('default');
    const told = agentResult(parent.requests[1]!.messages);
    expect(told).toContain('allowDangerouslySkipPermissions');
    expect(told).not.toContain('..');
  });

  it.each(['dontAsk', 'acceptEdits'] as const)('%s stays the subagent’s: the parent still asks for its own call', async (mode) => {
    const { agent, ran, asked } = setup(mode, false);
    const result = await agent.run('go').result;
    expect(result.status).toBe('completed');
    expect(ran).toEqual([1]);
    expect(asked.at(-1)).toBe('parent 3');
    expect(agent.permissionMode).toBe('default');
  });
});
