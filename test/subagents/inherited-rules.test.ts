import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type Agent } from 'agent-harness';
import { workspaceTools } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { createNotesServer } from '../mcp/fixtures/notes-server.js';
import { tempDirs } from '../temp-dirs.js';

const tempDir = tempDirs();

const agentCall = (type: string, id: string) => toolCall('Agent', { description: `task ${id}`, prompt: 'Do it.', subagent_type: type }, id);

const open: Agent[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((agent) => agent.close()));
});

function results(agent: Agent): Map<string, { content: unknown; isError: boolean }> {
  const seen = new Map<string, { content: unknown; isError: boolean }>();
  agent.on('tool-result', (event) => seen.set(event.toolUseId, { content: event.content, isError: event.isError }));
  return seen;
}

function writeTool(ran: string[]) {
  return defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ who: z.string().optional() }), execute: ({ input }) => (ran.push(input.who ?? 'write'), 'ok') });
}

describe('a subagent decides with all of its parent rules', () => {
  it("holds a Read(…) deny for its Grep and Bash though its type has no Read tool", async () => {
    const cwd = tempDir('agent-harness-read-rule-');
    writeFileSync(join(cwd, '.env'), 'SECRET=hunter2\n');
    const child = scriptedModel([
      turn(toolCall('Grep', { pattern: 'SECRET', path: '.env', output_mode: 'content' }, 'c_grep'), toolCall('Bash', { command: 'cat .env' }, 'c_cat')),
      'child done',
    ]);
    const agent = createAgent({
      model: scriptedModel([turn(agentCall('search', 'p_1')), 'done']),
      tools: workspaceTools({ cwd }),
      cwd,
      rules: { deny: ['Read(**/.env)'] },
      agents: { search: { description: 's', prompt: 's', tools: ['Grep', 'Bash'], model: child } },
    });
    const seen = results(agent);
    await agent.run('go').result;
    expect(seen.get('c_grep')?.isError).toBe(true);
    expect(seen.get('c_cat')?.isError).toBe(true);
    expect(JSON.stringify([...seen.values()])).not.toContain('hunter2');
  });

  it("starts a type without the MCP tools its parent's rules name", async () => {
    const state = { notes: ['a'], calls: [] as string[], cancelled: false };
    const agent = createAgent({
      model: scriptedModel([turn(agentCall('reader', 'p_1'), agentCall('writer', 'p_2')), 'done']),
      tools: [writeTool([])],
      mcpServers: { notes: { type: 'sdk', server: () => createNotesServer(state) } },
      rules: { deny: ['mcp__notes__delete_all_notes', 'mcp__notes__late'], ask: ['mcp__notes'] },
      canUseTool: () => ({ behavior: 'allow' }),
      agents: {
        reader: { description: 'r', prompt: 'r', readOnly: true, model: scriptedModel([turn(toolCall('mcp__notes__list_notes', {}, 'c_1')), 'listed']) },
        writer: { description: 'w', prompt: 'w', tools: ['write'], model: scriptedModel(['nothing to write']) },
      },
    });
    open.push(agent);
    const seen = results(agent);
    await agent.run('go').result;
    expect(seen.get('p_1')).toEqual({ content: 'listed', isError: false });
    expect(seen.get('p_2')).toEqual({ content: 'nothing to write', isError: false });
    expect(state.calls).toEqual(['list_notes']);
  });
});

describe('a deny the host adds while an answer is pending', () => {
  it('holds for that very call, on the main agent', async () => {
    const ran: string[] = [];
    let agent!: Agent;
    agent = createAgent({
      model: scriptedModel([turn(toolCall('write', {}, 'c_1')), 'done']),
      tools: [writeTool(ran)],
      canUseTool: async () => {
        agent.addRules({ deny: ['write'] });
        return { behavior: 'allow' };
      },
    });
    await agent.run('go').result;
    expect(ran).toEqual([]);
  });

  it("holds for a subagent's call waiting on the host, and for a sibling's when another subagent's answer adds it", async () => {
    const ran: string[] = [];
    let agent!: Agent;
    agent = createAgent({
      model: scriptedModel([turn(agentCall('w', 'p_1')), 'done']),
      tools: [writeTool(ran)],
      canUseTool: async () => {
        agent.addRules({ deny: ['write'] });
        return { behavior: 'allow' };
      },
      agents: { w: { description: 'w', prompt: 'w', model: scriptedModel([turn(toolCall('write', {}, 'c_1')), 'child done']) } },
    });
    await agent.run('go').result;
    expect(ran).toEqual([]);

    const other = defineTool({ name: 'other', description: 'Other.', inputSchema: z.object({}), execute: () => 'ok' });
    let answerB!: () => void;
    const bAsked = new Promise<void>((resolve) => (answerB = resolve));
    const siblings = createAgent({
      model: scriptedModel([turn(agentCall('a', 'p_a'), agentCall('b', 'p_b')), 'done']),
      tools: [writeTool(ran), other],
      canUseTool: async (name) => {
        if (name === 'write') {
          await bAsked; // B's write is asked while A's answer adds the deny
          return { behavior: 'allow' };
        }
        return { behavior: 'allow', updatedPermissions: [{ type: 'addRules', behavior: 'deny', rules: ['write'], destination: 'host' }] };
      },
      agents: {
        a: { description: 'a', prompt: 'a', model: scriptedModel([turn(toolCall('other', {})), 'a done']) },
        b: { description: 'b', prompt: 'b', model: scriptedModel([turn(toolCall('write', { who: 'b' })), 'b done']) },
      },
    });
    // The host is told once the deny is applied: only then does B get its answer.
    siblings.on('permission-update', () => answerB());
    await siblings.run('go').result;
    expect(siblings.snapshot().sessionRules.deny).toEqual(['write']);
    expect(ran).toEqual([]);
  });
});

describe('permission updates in a host answer', () => {
  it('records a replaced list once per rule', async () => {
    const ran: string[] = [];
    const agent = createAgent({
      model: scriptedModel([turn(agentCall('w', 'p_1')), 'done']),
      tools: [writeTool(ran)],
      canUseTool: () => ({ behavior: 'allow', updatedPermissions: [{ type: 'replaceRules', behavior: 'allow', rules: ['write', 'write'], destination: 'session' }] }),
      agents: { w: { description: 'w', prompt: 'w', model: scriptedModel([turn(toolCall('write', {})), 'child done']) } },
    });
    await agent.run('go').result;
    expect(agent.snapshot().sessionRules.allow).toEqual(['write']);
  });

  it('names what is wrong with updates that are not a list of objects', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [[null], /^A permission update must be an object such as \{ type: 'addRules'.*got null\.$/],
      [{ type: 'addRules', behavior: 'allow', rules: ['write'] }, /^updatedPermissions must be an array of permission updates, e\.g\. .*got \{"type":"addRules"/],
      ['x', /^updatedPermissions must be an array of permission updates.*got "x"\.$/],
    ];
    for (const [updatedPermissions, message] of cases) {
      const ran: string[] = [];
      const agent = createAgent({
        model: scriptedModel([turn(toolCall('write', {})), 'done']),
        tools: [writeTool(ran)],
        canUseTool: () => ({ behavior: 'allow', updatedPermissions: updatedPermissions as never }),
      });
      const result = await agent.run('go').result;
      expect(result.error?.name, JSON.stringify(updatedPermissions)).toBe('ConfigurationError');
      expect(result.error?.message).toMatch(message);
      expect(ran).toEqual([]);
    }
  });
});
