// A host's own search tool that walks directories and skips what Read rules keep from reading
// (`reads` returns `skipsRuleMatches: true`) reads those rules with the public `readRuleMatcher`:
// the call is then not asked because of them, and the tool leaves out the files they match.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, readRuleMatcher, type PermissionRules } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

const FILES = ['notes/a.md', 'notes/.env', 'notes/secrets/key.txt', 'notes/b.md'];

function listTool(skipsRuleMatches: boolean) {
  const matchers: Array<'none' | 'some'> = [];
  const tool = defineTool({
    name: 'list',
    description: 'Lists the files under a directory.',
    inputSchema: z.object({ dir: z.string() }),
    readOnly: true,
    ruleTarget: { field: 'dir', kind: 'path', reads: (input) => ({ paths: [], directories: [(input as { dir: string }).dir], skipsRuleMatches }) },
    execute: ({ input, toolUseId, agent }) => {
      const keepsOut = readRuleMatcher(agent.toolState, toolUseId, '/work');
      matchers.push(keepsOut ? 'some' : 'none');
      // The record is read once: a second look finds none.
      expect(readRuleMatcher(agent.toolState, toolUseId, '/work')).toBeUndefined();
      return FILES.filter((file) => file.startsWith(`${input.dir}/`) && !keepsOut?.(file)).join('\n');
    },
  });
  return { tool, matchers };
}

async function listWith(rules: PermissionRules, skipsRuleMatches: boolean) {
  const { tool, matchers } = listTool(skipsRuleMatches);
  const agent = createAgent({ model: scriptedModel([turn(toolCall('list', { dir: 'notes' }, 'toolu_list')), 'Done.']), tools: [tool], rules, cwd: '/work' });
  const results: string[] = [];
  agent.on('tool-result', (event) => void results.push(String(event.content)));
  const result = await agent.run('List my notes.').result;
  return { status: result.status, results, matchers };
}

describe('readRuleMatcher in a host tool that skips what Read rules match', () => {
  it('the call runs unasked and leaves out the files a Read deny or ask rule matches', async () => {
    const { status, results, matchers } = await listWith({ deny: ['Read(**/.env)'], ask: ['Read(notes/secrets/**)'] }, true);
    expect(status).toBe('completed');
    expect(matchers).toEqual(['some']);
    expect(results).toEqual(['notes/a.md\nnotes/b.md']);
  });

  it('with no Read rule there is nothing to skip: the matcher is undefined', async () => {
    const { results, matchers } = await listWith({}, true);
    expect(matchers).toEqual(['none']);
    expect(results).toEqual([FILES.join('\n')]);
  });

  it('a tool that does not skip them is asked instead (the rule may match below the directory)', async () => {
    const { status, matchers } = await listWith({ deny: ['Read(**/.env)'] }, false);
    expect(status).toBe('awaiting-approval');
    expect(matchers).toEqual([]);
  });
});

describe('the Read rules recorded for a call that never runs', () => {
  const key = 'permissions.read-rules:toolu_list';

  it('are dropped when the call is answered without running (denied after the deny step)', async () => {
    const { tool, matchers } = listTool(true);
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('list', { dir: 'notes' }, 'toolu_list')), 'Done.']),
      tools: [tool],
      rules: { deny: ['Read(**/.env)'], ask: ['list'] },
      canUseTool: () => ({ behavior: 'deny', message: 'Not now.' }),
      cwd: '/work',
    });
    const result = await agent.run('List my notes.').result;
    expect(result.status).toBe('completed');
    expect(matchers).toEqual([]);
    expect(agent.snapshot().toolState).not.toHaveProperty([key]);
  });

  it('are dropped when the call runs without reading them (a tool that never calls readRuleMatcher)', async () => {
    const tool = defineTool({
      name: 'list',
      description: 'Lists the files under a directory.',
      inputSchema: z.object({ dir: z.string() }),
      readOnly: true,
      ruleTarget: { field: 'dir', kind: 'path', reads: (input) => ({ paths: [], directories: [(input as { dir: string }).dir], skipsRuleMatches: true }) },
      execute: () => 'nothing',
    });
    const agent = createAgent({ model: scriptedModel([turn(toolCall('list', { dir: 'notes' }, 'toolu_list')), 'Done.']), tools: [tool], rules: { deny: ['Read(**/.env)'] }, cwd: '/work' });
    expect((await agent.run('List my notes.').result).status).toBe('completed');
    expect(agent.snapshot().toolState).not.toHaveProperty([key]);
  });

  it('stay while the call waits for an approval, and reach the tool once it is approved', async () => {
    const { tool, matchers } = listTool(true);
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('list', { dir: 'notes' }, 'toolu_list')), 'Done.']),
      tools: [tool],
      rules: { deny: ['Read(**/.env)'], ask: ['list'] },
      cwd: '/work',
    });
    const first = await agent.run('List my notes.').result;
    expect(first.status).toBe('awaiting-approval');
    expect(agent.snapshot().toolState).toHaveProperty([key]);
    const second = await agent.resolveApproval(first.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
    expect(second.status).toBe('completed');
    expect(matchers).toEqual(['some']);
    expect(agent.snapshot().toolState).not.toHaveProperty([key]);
  });
});

describe('Read, Edit and Write path rules on an agent whose tools say what they read or write', () => {
  const reader = listTool(true).tool;
  const writer = defineTool({
    name: 'save',
    description: 'Saves a note.',
    inputSchema: z.object({ path: z.string() }),
    ruleTarget: { field: 'path', kind: 'path', writes: (input) => ({ paths: [(input as { path: string }).path] }) },
    execute: () => 'saved',
  });
  const model = () => scriptedModel([]);

  it('are accepted with no tool of that name: they apply to the reads and writes', () => {
    expect(() => createAgent({ model: model(), tools: [reader], rules: { deny: ['Read(**/.env)'] } })).not.toThrow();
    expect(() => createAgent({ model: model(), tools: [writer], rules: { deny: ['Edit(secrets/**)', 'Write(secrets/**)'] } })).not.toThrow();
  });

  it('are still refused where no tool reads or writes paths, bare, or misspelt', () => {
    expect(() => createAgent({ model: model(), tools: [writer], rules: { deny: ['Read(**/.env)'] } })).toThrow(/The deny rule "Read\(\*\*\/\.env\)" names no tool of this agent/);
    expect(() => createAgent({ model: model(), tools: [reader], rules: { deny: ['Edit(secrets/**)'] } })).toThrow(/names no tool of this agent/);
    expect(() => createAgent({ model: model(), tools: [reader], rules: { deny: ['Read'] } })).toThrow(/names no tool of this agent/);
    expect(() => createAgent({ model: model(), tools: [reader], rules: { deny: ['Read()'] } })).toThrow(/names no tool of this agent/);
    expect(() => createAgent({ model: model(), tools: [reader], rules: { deny: ['Raed(**/.env)'] } })).toThrow(/names no tool of this agent/);
    // An allow rule covers only the tool it names: with no Read tool it would allow nothing.
    expect(() => createAgent({ model: model(), tools: [reader], rules: { allow: ['Read(notes/**)'] } })).toThrow(/The allow rule "Read\(notes\/\*\*\)" names no tool/);
    expect(() => createAgent({ model: model(), tools: [reader], rules: { ask: ['Read(notes/**)'] } })).not.toThrow();
  });

  it('an Edit deny rule stops the writing tool on the path it names', async () => {
    const agent = createAgent({ model: scriptedModel([turn(toolCall('save', { path: 'secrets/key' }, 'toolu_save')), 'Done.']), tools: [writer], rules: { deny: ['Edit(secrets/**)'] }, cwd: '/work' });
    const results: string[] = [];
    agent.on('tool-result', (event) => void results.push(String(event.content)));
    await agent.run('Save it.').result;
    expect(results[0]).toContain('denied by the rule "Edit(secrets/**)"');
  });
});
