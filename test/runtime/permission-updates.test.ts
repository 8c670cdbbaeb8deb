import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memorySessionStore, type PermissionUpdate, type PermissionUpdateEvent } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

const seen: Array<readonly string[] | undefined> = [];
const tools = [
  defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ path: z.string() }), kind: 'edit', ruleTarget: { field: 'path', kind: 'path' }, execute: ({ input }) => `wrote ${input.path}` }),
  defineTool({ name: 'where', description: 'Says where.', inputSchema: z.object({}), readOnly: true, execute: ({ agent }) => (seen.push(agent.directories), 'here') }),
];

/** Applies updates the way a host does: echoed from canUseTool for one call. */
async function applyThroughCallback(updates: PermissionUpdate[], options: { store?: ReturnType<typeof memorySessionStore> } = {}) {
  let first = true;
  const agent = createAgent({
    model: scriptedModel([turn(toolCall('write', { path: 'a.md' }, 'toolu_1')), 'done']),
    tools,
    ...options,
    canUseTool: () => (first ? ((first = false), { behavior: 'allow', updatedPermissions: updates }) : { behavior: 'deny', message: 'no' }),
  });
  const events: PermissionUpdateEvent[] = [];
  agent.on('permission-update', (event) => events.push(event));
  const result = await agent.run('go').result;
  return { agent, events, result };
}

describe('permission updates', () => {
  it('accept rule objects ({ toolName, ruleContent }) as well as strings', async () => {
    const { agent, result } = await applyThroughCallback([
      { type: 'addRules', behavior: 'allow', rules: [{ toolName: 'write', ruleContent: 'docs/**' }, 'where'], destination: 'session' },
    ]);
    expect(result.status).toBe('completed');
    expect(agent.snapshot().sessionRules.allow).toEqual(['write(docs/**)', 'where']);
  });

  it('replace and remove the session rules of one list, and the rule set follows', async () => {
    const { agent } = await applyThroughCallback([
      { type: 'addRules', behavior: 'deny', rules: ['write(secret/**)', 'write(private/**)'], destination: 'session' },
      { type: 'removeRules', behavior: 'deny', rules: [{ toolName: 'write', ruleContent: 'secret/**' }], destination: 'session' },
    ]);
    expect(agent.snapshot().sessionRules.deny).toEqual(['write(private/**)']);
    const replaced = await applyThroughCallback([
      { type: 'addRules', behavior: 'allow', rules: ['write(a/**)'], destination: 'session' },
      { type: 'replaceRules', behavior: 'allow', rules: ['write(b/**)'], destination: 'session' },
    ]);
    expect(replaced.agent.snapshot().sessionRules.allow).toEqual(['write(b/**)']);
  });

  it('add and remove directories, which tools see and resumes keep', async () => {
    const store = memorySessionStore();
    const { agent } = await applyThroughCallback([{ type: 'addDirectories', directories: ['/srv/shared', '/srv/other'], destination: 'session' }], { store });
    expect(agent.snapshot().directories).toEqual(['/srv/shared', '/srv/other']);
    await agent.close();
    const resumed = createAgent({ model: scriptedModel([turn(toolCall('where', {}, 'toolu_2')), 'ok']), tools, store, resume: agent.sessionId });
    await resumed.run('where?').result;
    expect(seen.at(-1)).toEqual(['/srv/shared', '/srv/other']);
    const fromSnapshot = createAgent({ model: scriptedModel([]), tools, resume: resumed.snapshot() });
    expect(fromSnapshot.snapshot().directories).toEqual(['/srv/shared', '/srv/other']);
  });

  it('hand updates for the host destination back to the host in a permission-update event', async () => {
    const update: PermissionUpdate = { type: 'addRules', behavior: 'allow', rules: ['write(notes/**)'], destination: 'host' };
    const { agent, events } = await applyThroughCallback([update, { type: 'setMode', mode: 'acceptEdits', destination: 'session' }]);
    expect(events.map((event) => event.update)).toEqual([update]);
    expect(agent.snapshot().sessionRules.allow).toEqual(['write(notes/**)']);
  });

  it('refuse a malformed rule, or a rule naming no tool of the agent, naming it', async () => {
    const bad = await applyThroughCallback([{ type: 'addRules', behavior: 'allow', rules: [{ toolName: 42 } as never], destination: 'session' }]);
    expect(bad.result.status).toBe('error');
    expect(bad.result.error?.message).toMatch(/neither a string.*nor a rule object/);
    const unknown = await applyThroughCallback([{ type: 'addRules', behavior: 'deny', rules: ['Wrte'], destination: 'session' }]);
    expect(unknown.result.error?.message).toMatch(/Wrte/);
  });
});
