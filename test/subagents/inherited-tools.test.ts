import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ConfigurationError,
  createAgent,
  deferTool,
  defineTool,
  isServerToolDefinition,
  memorySessionStore,
  serverTool,
  type Agent,
  type CanUseTool,
  type PermissionUpdate,
  type RequestTool,
} from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { deferred } from '../helpers.js';
import { createNotesServer } from '../mcp/fixtures/notes-server.js';

const names = (tools: readonly RequestTool[] | undefined) =>
  (tools ?? []).map((tool) => (isServerToolDefinition(tool) ? `server:${tool.name}` : `${tool.name}${tool.defer_loading ? ' (deferred)' : ''}`));

function fixture() {
  const ran: string[] = [];
  const lookup = defineTool({
    name: 'lookup_issue',
    description: 'Looks an issue up in the tracker.',
    inputSchema: z.object({ id: z.number() }),
    readOnly: true,
    deferLoading: true,
    execute: ({ input }) => (ran.push(`lookup ${input.id}`), `issue ${input.id}: open`),
  });
  const close = deferTool(
    defineTool({ name: 'close_issue', description: 'Closes an issue.', inputSchema: z.object({ id: z.number() }), execute: ({ input }) => (ran.push(`close ${input.id}`), 'closed') }),
  );
  const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ text: z.string() }), kind: 'edit', execute: ({ input }) => (ran.push(`write ${input.text}`), 'written') });
  const webSearch = serverTool({ type: 'web_search_20250305', name: 'web_search', max_uses: 2 });
  return { ran, lookup, close, write, webSearch };
}

/** The content of each tool result, by call id, as the agent announced them. */
function toolResults(agent: Agent): Map<string, { content: unknown; isError: boolean }> {
  const results = new Map<string, { content: unknown; isError: boolean }>();
  agent.on('tool-result', (event) => results.set(event.toolUseId, { content: event.content, isError: event.isError }));
  return results;
}

const agentCall = (type: string, id: string) => toolCall('Agent', { description: `task ${id}`, prompt: 'Do it.', subagent_type: type }, id);

describe('a subagent inherits deferred tools', () => {
  it('finds a deferred tool of its parent with its own ToolSearch and runs it (it used to be left out without a word)', async () => {
    const { ran, lookup, close } = fixture();
    const child = scriptedModel([
      turn(toolCall('ToolSearch', { query: 'select:lookup_issue' }, 'c_search')),
      turn(toolCall('lookup_issue', { id: 7 }, 'c_lookup')),
      'Issue 7 is open.',
    ]);
    const parent = scriptedModel([turn(agentCall('triage', 'p_agent')), 'Done.']);
    const agent = createAgent({ model: parent, tools: [lookup, close], agents: { triage: { description: 't', prompt: 't', tools: ['lookup_issue'], model: child } } });
    const results = toolResults(agent);
    const result = await agent.run('go').result;
    expect(result.status).toBe('completed');
    // No tool search on the model: deferred tools stay out of the list, ToolSearch finds them.
    expect(names(child.requests[0]!.request.tools)).toEqual(['ExitPlanMode', 'ToolSearch']);
    const searched = results.get('c_search')!.content as string;
    expect(searched).toContain('<tool name="lookup_issue">');
    // The subagent's search covers only what its type may use.
    expect(searched).not.toContain('close_issue');
    expect(results.get('c_lookup')).toEqual({ content: 'issue 7: open', isError: false });
    expect(ran).toEqual(['lookup 7']);
    expect((agent.messages[2]!.content as Array<{ content: unknown }>)[0]!.content).toBe('Issue 7 is open.');
  });

  it('cannot reach a deferred tool its type leaves out: the search does not list it and a call to it is refused', async () => {
    const { ran, lookup, close } = fixture();
    const child = scriptedModel([
      turn(toolCall('ToolSearch', { query: 'select:close_issue' }, 'c_search')),
      turn(toolCall('close_issue', { id: 7 }, 'c_close')),
      'Could not.',
    ]);
    const agent = createAgent({
      model: scriptedModel([turn(agentCall('explore', 'p_agent')), 'Done.']),
      tools: [lookup, close],
      canUseTool: () => ({ behavior: 'allow' }),
      agents: { explore: { description: 'e', prompt: 'e', readOnly: true, model: child } },
    });
    const results = toolResults(agent);
    expect((await agent.run('go').result).status).toBe('completed');
    expect(results.get('c_search')!.content).toMatch(/No deferred tool matched[\s\S]*"close_issue"/);
    expect(results.get('c_close')).toMatchObject({ isError: true, content: expect.stringMatching(/close_issue/) });
    expect(ran).toEqual([]);
  });

  it('sends deferred tools with defer_loading to a subagent model that expands tool references, and the parent keeps its own list', async () => {
    const { lookup, close } = fixture();
    const child = scriptedModel(['Nothing to do.'], { capabilities: { toolSearch: 'tool-reference' } });
    const parent = scriptedModel([turn(agentCall('general', 'p_agent')), 'Done.']);
    const agent = createAgent({ model: parent, tools: [lookup, close], agents: { general: { description: 'g', prompt: 'g', model: child } } });
    await agent.run('go').result;
    expect(names(child.requests[0]!.request.tools)).toEqual(['TodoWrite', 'ExitPlanMode', 'ToolSearch', 'lookup_issue (deferred)', 'close_issue (deferred)']);
    expect(names(parent.requests[0]!.request.tools)).toEqual(['TodoWrite', 'ExitPlanMode', 'Agent', 'TaskOutput', 'ToolSearch']);
  });

  it('applies the parent rules to a deferred tool in the subagent', async () => {
    const { ran, lookup, close } = fixture();
    const child = scriptedModel([turn(toolCall('close_issue', { id: 3 }, 'c_close')), 'Refused.']);
    const agent = createAgent({
      model: scriptedModel([turn(agentCall('general', 'p_agent')), 'Done.']),
      tools: [lookup, close],
      rules: { deny: ['close_issue'] },
      canUseTool: () => ({ behavior: 'allow' }),
      agents: { general: { description: 'g', prompt: 'g', model: child } },
    });
    const results: Array<{ toolUseId: string; isError: boolean; agentId?: string }> = [];
    agent.on('tool-result', (event) => results.push(event));
    const decisions: Array<{ toolUseId: string; behavior: string; reason: { type: string } }> = [];
    agent.on('permission-decision', (event) => decisions.push(event));
    await agent.run('go').result;
    expect(ran).toEqual([]);
    expect(results.find((result) => result.toolUseId === 'c_close')).toMatchObject({ isError: true, agentId: expect.any(String) });
    expect(decisions.find((decision) => decision.toolUseId === 'c_close')).toMatchObject({ behavior: 'deny', reason: { type: 'rule' } });
  });

  it("gives a type whose own model cannot run the provider search the parent is set to the client ToolSearch, also for tools that arrive later", async () => {
    const server = createNotesServer();
    const weak = scriptedModel([turn(toolCall('ToolSearch', { query: 'select:mcp__notes__late' }, 'c_search')), 'child done'], { modelId: 'weak-model' });
    const agent = createAgent({
      model: scriptedModel(['Before.', turn(agentCall('cheap', 'p_agent')), 'After.'], { capabilities: { toolSearch: 'server' } }),
      mcpServers: { notes: { type: 'sdk', server } },
      toolSearch: 'bm25',
      agents: { cheap: { description: 'c', prompt: 'c', model: weak } },
    });
    await agent.run('one').result;
    const listed = deferred();
    agent.on('mcp-server-status', (event) => {
      if (event.tools.includes('mcp__notes__late')) listed.resolve();
    });
    server.registerTool('late', { description: 'Arrives mid-session.' }, async () => ({ content: [{ type: 'text', text: 'late' }] }));
    await listed.promise;
    const results = toolResults(agent);
    expect((await agent.run('two').result).status).toBe('completed');
    await agent.close();
    expect(results.get('p_agent')?.content).toBe('child done');
    expect(results.get('c_search')?.content).toContain('<tool name="mcp__notes__late">');
    expect(names(weak.requests[0]!.request.tools)).toContain('ToolSearch');
  });

  it('searches the way the root agent is set to at every depth', async () => {
    const caps = { capabilities: { toolSearch: 'server' as const } };
    const searchTools = (tools: readonly RequestTool[] | undefined) => names(tools).filter((name) => /search/i.test(name));
    const leaf = scriptedModel(['leaf done'], caps);
    const mid = scriptedModel([turn(agentCall('leaf', 'm1')), 'mid done'], caps);
    const agent = createAgent({
      model: scriptedModel([turn(agentCall('mid', 'p1')), 'done'], caps),
      tools: [fixture().lookup],
      toolSearch: 'regex',
      agents: { mid: { description: 'm', prompt: 'm', maxDepth: 1, model: mid }, leaf: { description: 'l', prompt: 'l', model: leaf } },
    });
    await agent.run('go').result;
    expect(searchTools(mid.requests[0]!.request.tools)).toEqual(['server:tool_search_tool_regex']);
    expect(searchTools(leaf.requests[0]!.request.tools)).toEqual(['server:tool_search_tool_regex']);
  });

  it("holds the parent's deny and ask rules on ToolSearch for the subagent's own ToolSearch", async () => {
    for (const behavior of ['deny', 'ask'] as const) {
      const { lookup } = fixture();
      const asked: string[] = [];
      const agent = createAgent({
        model: scriptedModel([turn(agentCall('g', 'p_agent')), 'done']),
        tools: [lookup],
        rules: { [behavior]: ['ToolSearch'] },
        canUseTool: (name) => (asked.push(name), { behavior: 'deny', message: 'Not now.' }),
        agents: { g: { description: 'g', prompt: 'g', model: scriptedModel([turn(toolCall('ToolSearch', { query: 'select:lookup_issue' }, 'c_search')), 'x']) } },
      });
      const results = toolResults(agent);
      await agent.run('go').result;
      expect(results.get('c_search')?.isError, behavior).toBe(true);
      expect(asked, behavior).toEqual(behavior === 'ask' ? ['ToolSearch'] : []);
    }
  });
});

describe('a subagent inherits provider server tools', () => {
  it('sends the parent server tools, to a read-only type too, and only those its tools name', async () => {
    const { write, webSearch } = fixture();
    const explore = scriptedModel(['Found nothing.']);
    const writer = scriptedModel(['Wrote nothing.']);
    const agent = createAgent({
      model: scriptedModel([turn(agentCall('explore', 'p_1'), agentCall('writer', 'p_2')), 'Done.']),
      tools: [write, webSearch],
      agents: {
        explore: { description: 'e', prompt: 'e', readOnly: true, model: explore },
        writer: { description: 'w', prompt: 'w', tools: ['write'], model: writer },
      },
    });
    expect((await agent.run('go').result).status).toBe('completed');
    expect(names(explore.requests[0]!.request.tools)).toEqual(['TodoWrite', 'ExitPlanMode', 'server:web_search']);
    expect(explore.requests[0]!.request.tools!.at(-1)).toEqual({ type: 'web_search_20250305', name: 'web_search', max_uses: 2 });
    expect(names(writer.requests[0]!.request.tools)).toEqual(['write', 'ExitPlanMode']);
  });

  it('accepts a server tool in a type tools list, and still names the tools there are for a typo', () => {
    const { write, webSearch } = fixture();
    expect(() => createAgent({ model: scriptedModel([]), tools: [write, webSearch], agents: { s: { description: 's', prompt: 's', tools: ['web_search'] } } })).not.toThrow();
    let error: unknown;
    try {
      createAgent({ model: scriptedModel([]), tools: [write, webSearch], agents: { s: { description: 's', prompt: 's', tools: ['web_serch'] } } });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(/agents\["s"\]\.tools names "web_serch".*did you mean "web_search".*Tools: .*web_search/);
  });
});

describe('an "always allow" answered for a subagent', () => {
  const allowWritesOnce = (): { canUseTool: CanUseTool; asked: string[] } => {
    const asked: string[] = [];
    return {
      asked,
      canUseTool: (toolName, _input, context) => {
        asked.push(`${toolName}${context.agentId ? ' (subagent)' : ''}`);
        return { behavior: 'allow', updatedPermissions: [{ type: 'addRules', behavior: 'allow', rules: ['write'], destination: 'session' }] };
      },
    };
  };

  it('is the session rule of the parent: neither the parent nor a later subagent asks again, and the parent transcript keeps it', async () => {
    const { ran, write } = fixture();
    const store = memorySessionStore();
    const { canUseTool, asked } = allowWritesOnce();
    const child = () => scriptedModel([turn(toolCall('write', { text: 'child' })), 'Child wrote.']);
    const agents = { writer: { description: 'w', prompt: 'w', model: child() } };
    const agent = createAgent({
      model: scriptedModel([turn(agentCall('writer', 'p_1')), turn(toolCall('write', { text: 'parent' })), 'Done.']),
      tools: [write],
      store,
      canUseTool,
      agents,
    });
    expect((await agent.run('go').result).status).toBe('completed');
    expect(asked).toEqual(['write (subagent)']);
    expect(ran).toEqual(['write child', 'write parent']);
    expect(agent.snapshot().sessionRules.allow).toEqual(['write']);
    await agent.close();
    // Loaded from the store in another agent: the rule is there, and a new subagent does not ask.
    agents.writer.model = child();
    const resumed = createAgent({ model: scriptedModel([turn(agentCall('writer', 'p_2')), 'Done again.']), tools: [write], store, canUseTool, agents, resume: agent.sessionId });
    expect((await resumed.run('again').result).status).toBe('completed');
    expect(asked).toEqual(['write (subagent)']);
    expect(ran).toEqual(['write child', 'write parent', 'write child']);
  });

  it('reaches the parent when it is the answer to a deferred approval inside the subagent', async () => {
    const { ran, write } = fixture();
    const agent = createAgent({
      model: scriptedModel([turn(agentCall('writer', 'p_1')), turn(toolCall('write', { text: 'parent' })), 'Done.']),
      tools: [write],
      agents: { writer: { description: 'w', prompt: 'w', model: scriptedModel([turn(toolCall('write', { text: 'child' })), 'Child wrote.']) } },
    });
    const first = await agent.run('go').result;
    expect(first.status).toBe('awaiting-approval');
    const [approval] = first.pendingApprovals;
    const done = await agent.resolveApproval(approval!.id, { behavior: 'allow', updatedPermissions: [{ type: 'addRules', behavior: 'allow', rules: ['write'], destination: 'session' }] }).result;
    // The parent's own write is allowed by the rule: no second approval.
    expect(done.status).toBe('completed');
    expect(ran).toEqual(['write child', 'write parent']);
  });

  it('leaves the parent mode alone: a setMode in the answer is the subagent own', async () => {
    const { write } = fixture();
    const agent = createAgent({
      model: scriptedModel([turn(agentCall('writer', 'p_1')), 'Done.']),
      tools: [write],
      canUseTool: () => ({ behavior: 'allow', updatedPermissions: [{ type: 'setMode', mode: 'acceptEdits', destination: 'session' }] }),
      agents: { writer: { description: 'w', prompt: 'w', model: scriptedModel([turn(toolCall('write', { text: 'child' })), 'Child wrote.']) } },
    });
    await agent.run('go').result;
    expect(agent.permissionMode).toBe('default');
  });
  it('removes or replaces for the subagent that asked as well as for the parent: nothing runs unasked on a rule the host took back', async () => {
    const updates: PermissionUpdate[] = [
      { type: 'removeRules', behavior: 'allow', rules: ['erase'], destination: 'session' },
      { type: 'replaceRules', behavior: 'allow', rules: ['write'], destination: 'session' },
    ];
    for (const update of updates) {
      const ran: string[] = [];
      const asked: string[] = [];
      const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({}), execute: () => (ran.push('write'), 'ok') });
      const erase = defineTool({ name: 'erase', description: 'Erases.', inputSchema: z.object({}), execute: () => (ran.push('erase'), 'ok') });
      const agent = createAgent({
        model: scriptedModel([turn(agentCall('w', 'p_agent')), turn(toolCall('erase', {}, 'p_erase')), 'done']),
        tools: [write, erase],
        canUseTool: (name, _input, context) => {
          asked.push(`${name} ${context.agentId ? 'subagent' : 'parent'}`);
          return name === 'write' ? { behavior: 'allow', updatedPermissions: [update] } : { behavior: 'deny', message: 'No.' };
        },
        agents: { w: { description: 'w', prompt: 'w', model: scriptedModel([turn(toolCall('write', {}, 'c_write')), turn(toolCall('erase', {}, 'c_erase')), 'child done']) } },
      });
      agent.addRules({ allow: ['erase'] });
      await agent.run('go').result;
      expect(agent.snapshot().sessionRules.allow, update.type).not.toContain('erase');
      expect(asked, update.type).toEqual(['write subagent', 'erase subagent', 'erase parent']);
      expect(ran, update.type).toEqual(['write']);
    }
  });

  it("follows the parent's rules as they change while the subagent runs: a deny the host adds holds at once", async () => {
    const { ran, write } = fixture();
    let agent!: Agent;
    const child = scriptedModel([
      turn(toolCall('write', { text: 'first' }, 'c_1')),
      async () => {
        agent.addRules({ deny: ['write'] });
        return turn(toolCall('write', { text: 'second' }, 'c_2'));
      },
      'child done',
    ]);
    agent = createAgent({ model: scriptedModel([turn(agentCall('w', 'p_agent')), 'done']), tools: [write], canUseTool: () => ({ behavior: 'allow' }), agents: { w: { description: 'w', prompt: 'w', model: child } } });
    await agent.run('go').result;
    expect(ran).toEqual(['write first']);
  });

  it('gives the parent every rule it has the tool for, and keeps the rest for the subagent that asked', async () => {
    const { write, lookup } = fixture();
    const asked: string[] = [];
    // The parent's model runs the provider's search (no ToolSearch tool); the subagent's does not (a ToolSearch of its own).
    const agent = createAgent({
      model: scriptedModel([turn(agentCall('w', 'p_agent')), turn(toolCall('write', { text: 'parent' })), 'done'], { capabilities: { toolSearch: 'server' } }),
      tools: [write, lookup],
      canUseTool: (name, _input, context) => {
        asked.push(`${name} ${context.agentId ? 'subagent' : 'parent'}`);
        return context.agentId ? { behavior: 'allow', updatedPermissions: [{ type: 'addRules', behavior: 'allow', rules: ['write', 'ToolSearch'], destination: 'session' }] } : { behavior: 'allow' };
      },
      agents: { w: { description: 'w', prompt: 'w', model: scriptedModel([turn(toolCall('write', { text: 'child' })), 'child done']) } },
    });
    await agent.run('go').result;
    expect(agent.snapshot().sessionRules.allow).toEqual(['write']);
    expect(asked).toEqual(['write subagent']);
  });

  it("takes a rule naming a tool of the parent's that the subagent's type lacks: the allowed call runs", async () => {
    const { ran, write } = fixture();
    const erase = defineTool({ name: 'erase', description: 'Erases.', inputSchema: z.object({}), execute: () => (ran.push('erase'), 'ok') });
    const agent = createAgent({
      model: scriptedModel([turn(agentCall('w', 'p_agent')), turn(toolCall('erase', {})), 'done']),
      tools: [write, erase],
      canUseTool: (name, _input, context) =>
        context.agentId ? { behavior: 'allow', updatedPermissions: [{ type: 'addRules', behavior: 'allow', rules: ['write', 'erase'], destination: 'session' }] } : { behavior: 'deny', message: 'Asked.' },
      agents: { w: { description: 'w', prompt: 'w', tools: ['write'], model: scriptedModel([turn(toolCall('write', { text: 'child' })), 'child done']) } },
    });
    expect((await agent.run('go').result).status).toBe('completed');
    expect(ran).toEqual(['write child', 'erase']);
    expect(agent.snapshot().sessionRules.allow).toEqual(['write', 'erase']);
  });

  it('records a rule once, however many subagents are told to always allow it', async () => {
    const { write } = fixture();
    const child = () => scriptedModel([turn(toolCall('write', { text: 'child' })), 'child done']);
    const store = memorySessionStore();
    const agent = createAgent({
      model: scriptedModel([turn(agentCall('a', 'p_1'), agentCall('b', 'p_2')), 'done']),
      tools: [write],
      store,
      canUseTool: () => ({ behavior: 'allow', updatedPermissions: [{ type: 'addRules', behavior: 'allow', rules: ['write', 'write'], destination: 'session' }] }),
      agents: { a: { description: 'a', prompt: 'a', model: child() }, b: { description: 'b', prompt: 'b', model: child() } },
    });
    await agent.run('go').result;
    expect(agent.snapshot().sessionRules.allow).toEqual(['write']);
    await agent.close();
    const resumed = createAgent({ model: scriptedModel([]), tools: [write], store, resume: agent.sessionId, agents: { a: { description: 'a', prompt: 'a' } } });
    await resumed.ready;
    expect(resumed.snapshot().sessionRules.allow).toEqual(['write']);
  });
});

describe('a rule change the host answers with', () => {
  const answering = (updatedPermissions: unknown) => {
    const { write } = fixture();
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('write', { text: 'x' }, 'call_1')), 'done']),
      tools: [write],
      canUseTool: () => ({ behavior: 'allow', updatedPermissions: updatedPermissions as never }),
    });
    return agent;
  };

  it('is refused before anything is recorded when a rule is malformed, and the session still resumes', async () => {
    const store = memorySessionStore();
    const { write } = fixture();
    const agent = createAgent({
      model: scriptedModel([turn(toolCall('write', { text: 'x' })), 'done']),
      tools: [write],
      store,
      canUseTool: () => ({ behavior: 'allow', updatedPermissions: [{ type: 'replaceRules', behavior: 'allow', rules: ['write('], destination: 'session' }] }),
    });
    const result = await agent.run('go').result;
    expect(result.status).toBe('error');
    expect(result.error?.message).toMatch(/write\(/);
    expect(agent.snapshot().sessionRules.allow).toEqual([]);
    await agent.close();
    const resumed = createAgent({ model: scriptedModel([]), tools: [write], store, resume: agent.sessionId });
    await resumed.ready;
    expect(resumed.snapshot().sessionRules.allow).toEqual([]);
  });

  it('names what is wrong with rules that are not a list, and with an unknown behavior', async () => {
    const notAList = await answering([{ type: 'addRules', behavior: 'allow', rules: 'write', destination: 'session' }]).run('go').result;
    expect(notAList.error?.message).toBe(
      'A permission update of type "addRules" needs `rules`: an array of rules ("Bash(npm test:*)" or { toolName: "Bash", ruleContent: "npm test:*" }), got "write".',
    );
    const behavior = await answering([{ type: 'addRules', behavior: 'always', rules: ['write'], destination: 'session' }]).run('go').result;
    expect(behavior.error?.message).toBe('A permission update of type "addRules" needs `behavior`: "allow", "deny" or "ask", got "always".');
  });
});
