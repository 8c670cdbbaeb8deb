import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type PermissionRules } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

// A deny or ask rule with a pattern names a tool that has no `ruleTarget`: nothing can match the
// pattern, and the rule used to be passed over silently (the call was allowed as if it did not
// exist). It is now asked, and refused in dontAsk mode.
function setUp(rules: PermissionRules, options: { readOnly?: boolean; ruleTarget?: boolean; mode?: 'default' | 'dontAsk' | 'bypassPermissions' } = {}) {
  const ran: string[] = [];
  const write = defineTool({
    name: 'write',
    description: 'Writes a note.',
    inputSchema: z.object({ name: z.string() }),
    readOnly: options.readOnly ?? false,
    ...(options.ruleTarget ? { ruleTarget: { field: 'name', kind: 'path' as const } } : {}),
    execute: ({ input }) => (ran.push(input.name), 'written'),
  });
  const asked: string[] = [];
  const agent = createAgent({
    model: scriptedModel([turn(toolCall('write', { name: 'secret.md' })), 'Done.']),
    tools: [write],
    rules,
    permissionMode: options.mode ?? 'default',
    ...(options.mode === 'bypassPermissions' ? { allowDangerouslySkipPermissions: true } : {}),
    canUseTool: (_name, _input, context) => {
      asked.push(context.reason.type === 'rule' ? `${context.reason.behavior} ${context.reason.rule}: ${context.reason.message ?? ''}` : context.reason.type);
      return { behavior: 'deny', message: 'No.' };
    },
  });
  return { agent, ran, asked };
}

describe('attack: a pattern rule on a tool with no ruleTarget', () => {
  it('a deny rule on a read-only tool is asked, not passed over (the call used to run)', async () => {
    const { agent, ran, asked } = setUp({ deny: ['write(secret.md)'] }, { readOnly: true });
    await agent.run('Write.').result;
    expect(ran).toEqual([]);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/^deny write\(secret\.md\): .*has no ruleTarget.*write the rule as "write"/);
  });

  it('an ask rule holds in bypassPermissions too, as ask rules do', async () => {
    const { agent, ran, asked } = setUp({ ask: ['write(secret.md)'] }, { mode: 'bypassPermissions' });
    await agent.run('Write.').result;
    expect(ran).toEqual([]);
    expect(asked[0]).toMatch(/^ask write\(secret\.md\)/);
  });

  it('in dontAsk mode the call is denied', async () => {
    const { agent, ran, asked } = setUp({ deny: ['write(secret.md)'], allow: ['write'] }, { mode: 'dontAsk' });
    const result = await agent.run('Write.').result;
    expect(ran).toEqual([]);
    expect(asked).toEqual([]);
    expect(result.status).toBe('completed');
  });

  it('allow rules with a pattern stay as they were: they match nothing, so nothing is allowed by them', async () => {
    const { agent, ran, asked } = setUp({ allow: ['write(secret.md)'] });
    await agent.run('Write.').result;
    expect(ran).toEqual([]);
    expect(asked).toEqual(['default']);
  });

  it('a tool with a ruleTarget is matched as before: a pattern that does not match lets a read-only call run', async () => {
    const { agent, ran, asked } = setUp({ deny: ['write(other.md)'] }, { readOnly: true, ruleTarget: true });
    await agent.run('Write.').result;
    expect(ran).toEqual(['secret.md']);
    expect(asked).toEqual([]);
  });

  it('a deny rule naming the whole tool still denies without asking', async () => {
    const { agent, ran, asked } = setUp({ deny: ['write'] }, { readOnly: true });
    await agent.run('Write.').result;
    expect(ran).toEqual([]);
    expect(asked).toEqual([]);
  });
});
