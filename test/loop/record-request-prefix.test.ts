import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, deferTool, memorySessionStore, type AgentEvent, type SessionStore } from 'agent-harness';
import { scriptedModel, turn } from 'agent-harness/testing';

// A session's request prefix (the system prompt and the tools sent in full) is what the prompt
// cache is keyed by first: a session resumed with another one reads nothing of its history from
// the cache and writes it all again. The first run of a session stores its prefix; a later run
// whose prefix differs says so once (a `warning`, source `prompt-cache`) and stores the new one.

const tool = (name: string) => defineTool({ name, description: `${name} tool.`, inputSchema: z.object({}), readOnly: true, execute: () => 'ok' });
const [read, grep, glob] = [tool('Read'), tool('Grep'), tool('Glob')];

const chat = (options: Parameters<typeof scriptedModel>[1] = {}) => scriptedModel(Array.from({ length: 10 }, (_, index) => turn(`Answer ${index + 1}.`)), options);

/** Resumes `sessionId` with `options`, runs one prompt, returns the prompt-cache warnings it emitted. */
async function resumeAndRun(store: SessionStore, sessionId: string | undefined, options: { system?: string; tools?: ReturnType<typeof tool>[] }): Promise<{ warnings: string[]; sessionId: string }> {
  const agent = createAgent({ model: chat(), store, ...(sessionId ? { resume: sessionId } : {}), todoWrite: false, exitPlanMode: false, ...options });
  const warnings: string[] = [];
  agent.on('warning', (event: Extract<AgentEvent, { type: 'warning' }>) => {
    if (event.source === 'prompt-cache') warnings.push(event.message);
  });
  await agent.ready;
  const result = await agent.run('Go on.').result;
  expect(result.status).toBe('completed');
  await agent.close();
  return { warnings, sessionId: agent.sessionId };
}

describe('the request prefix of a session', () => {
  it('a session resumed with the same prefix is not warned about, however often', async () => {
    const store = memorySessionStore();
    const { sessionId, warnings } = await resumeAndRun(store, undefined, { system: 'You write articles.', tools: [read, grep] });
    expect(warnings).toEqual([]);
    for (let index = 0; index < 3; index++) expect((await resumeAndRun(store, sessionId, { system: 'You write articles.', tools: [read, grep] })).warnings).toEqual([]);
  });

  it('a system prompt that changed is named where it differs, once per change', async () => {
    const store = memorySessionStore();
    const { sessionId } = await resumeAndRun(store, undefined, { system: 'You write articles. Today is 2026-12-06.', tools: [read] });
    const changed = await resumeAndRun(store, sessionId, { system: 'You write articles. Today is 2026-12-07.', tools: [read] });
    expect(changed.warnings).toHaveLength(1);
    expect(changed.warnings[0]).toContain('the system prompt (block 1 differs from character 39: now "7.", before "6.")');
    expect(changed.warnings[0]).toMatch(/cannot read the session's \d+ messages from the prompt cache/);
    expect(changed.warnings[0]).toContain('Keep what changes from request to request out of `system`');
    // The new prefix is stored: the next agent with it is not warned again; one with the old one is.
    expect((await resumeAndRun(store, sessionId, { system: 'You write articles. Today is 2026-12-07.', tools: [read] })).warnings).toEqual([]);
    expect((await resumeAndRun(store, sessionId, { system: 'You write articles. Today is 2026-12-06.', tools: [read] })).warnings).toHaveLength(1);
  });

  it('a system prompt added, removed or cut short is named', async () => {
    const store = memorySessionStore();
    const { sessionId } = await resumeAndRun(store, undefined, { tools: [read] });
    expect((await resumeAndRun(store, sessionId, { system: 'Be brief.', tools: [read] })).warnings[0]).toContain('the system prompt (block 1 of 1 is new (it had 0))');
    expect((await resumeAndRun(store, sessionId, { system: 'Be brief and kind.', tools: [read] })).warnings[0]).toContain('block 1 differs from character 9: now " and kind.", before ".")');
    expect((await resumeAndRun(store, sessionId, { tools: [read] })).warnings[0]).toContain('the system prompt (block 1 of 1 is gone (it has 0))');
  });

  it('tools added, removed or reordered are named; the system prompt, unchanged, is not', async () => {
    const store = memorySessionStore();
    const { sessionId } = await resumeAndRun(store, undefined, { system: 'S.', tools: [read, grep] });
    const added = await resumeAndRun(store, sessionId, { system: 'S.', tools: [read, grep, glob] });
    expect(added.warnings).toHaveLength(1);
    expect(added.warnings[0]).toContain('the tool list (added "Glob")');
    expect(added.warnings[0]).not.toContain('system prompt');
    expect((await resumeAndRun(store, sessionId, { system: 'S.', tools: [read] })).warnings[0]).toContain('the tool list (removed "Grep", "Glob")');
    await resumeAndRun(store, sessionId, { system: 'S.', tools: [read, grep] });
    expect((await resumeAndRun(store, sessionId, { system: 'S.', tools: [grep, read] })).warnings[0]).toContain('the tool list (the same tools in another order)');
  });

  it('both changes in one warning', async () => {
    const store = memorySessionStore();
    const { sessionId } = await resumeAndRun(store, undefined, { system: 'One.', tools: [read] });
    const { warnings } = await resumeAndRun(store, sessionId, { system: 'Two.', tools: [read, grep] });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('the system prompt (block 1 differs from character 1: now "Two.", before "One.")');
    expect(warnings[0]).toContain('; the tool list (added "Grep")');
  });

  it('deferred tools are not part of the prefix: deferring one more, or one fewer, is not a change of it; losing the tool search tool is', async () => {
    const store = memorySessionStore();
    const model = () => chat({ capabilities: { toolSearch: 'server' } });
    const run = async (sessionId: string | undefined, tools: Parameters<typeof createAgent>[0]['tools']) => {
      const agent = createAgent({ model: model(), store, ...(sessionId ? { resume: sessionId } : {}), todoWrite: false, exitPlanMode: false, system: 'S.', tools });
      const warnings: string[] = [];
      agent.on('warning', (event) => event.source === 'prompt-cache' && warnings.push(event.message));
      await agent.ready;
      expect((await agent.run('Go.').result).status).toBe('completed');
      await agent.close();
      return { warnings, sessionId: agent.sessionId };
    };
    const { sessionId } = await run(undefined, [read, deferTool(grep)]);
    expect((await run(sessionId, [read, deferTool(grep), deferTool(glob)])).warnings).toEqual([]);
    expect((await run(sessionId, [read, deferTool(glob)])).warnings).toEqual([]);
    // Without deferred tools the tool search tool, sent in full, is gone: a change of the prefix.
    expect((await run(sessionId, [read])).warnings[0]).toMatch(/the tool list \(removed "tool_search_tool_bm25"\)/);
  });

  it('a new session, and every later run of one agent with an unchanged prefix, stay silent', async () => {
    const agent = createAgent({ model: chat(), system: 'S.', tools: [read], todoWrite: false, exitPlanMode: false });
    const warnings: AgentEvent[] = [];
    agent.on('warning', (event) => warnings.push(event));
    for (let index = 0; index < 3; index++) expect((await agent.run(`Prompt ${index}.`).result).status).toBe('completed');
    expect(warnings).toEqual([]);
    // The prefix is stored once, with the first run.
    expect(agent.snapshot().prefix).toEqual({ system: [{ type: 'text', text: 'S.' }], toolNames: ['Read'] });
  });

  it('a stored prefix edited by hand (blocks without text, a number for a text) is a difference to report, never a failure', async () => {
    const first = createAgent({ model: chat(), system: 'S.', tools: [read], todoWrite: false, exitPlanMode: false });
    await first.run('Hi.').result;
    for (const system of [[{ type: 'text' }], [{ type: 'text', text: 5 }], [null], ['S.']]) {
      const snapshot = { ...first.snapshot(), prefix: { system, toolNames: ['Read'] } } as unknown as ReturnType<typeof first.snapshot>;
      const agent = createAgent({ model: chat(), resume: snapshot, system: 'S.', tools: [read], todoWrite: false, exitPlanMode: false });
      const warnings: string[] = [];
      agent.on('warning', (event) => event.source === 'prompt-cache' && warnings.push(event.message));
      const result = await agent.run('Again.').result;
      expect(result.status).toBe('completed');
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('the system prompt (block 1 differs: now "S.", before no text)');
      expect(agent.snapshot().prefix).toEqual({ system: [{ type: 'text', text: 'S.' }], toolNames: ['Read'] });
    }
  });

  it('a fork given another system prompt is warned about at its first run; the original session is not', async () => {
    const store = memorySessionStore();
    const { sessionId } = await resumeAndRun(store, undefined, { system: 'Original.', tools: [read] });
    const agent = createAgent({ model: chat(), store, resume: sessionId, system: 'Original.', tools: [read], todoWrite: false, exitPlanMode: false });
    await agent.ready;
    const fork = await agent.fork();
    expect(fork.sessionId).not.toBe(sessionId);
    await agent.close();
    await fork.close();
    const forked = await resumeAndRun(store, fork.sessionId, { system: 'Forked.', tools: [read] });
    expect(forked.warnings).toHaveLength(1);
    expect((await resumeAndRun(store, sessionId, { system: 'Original.', tools: [read] })).warnings).toEqual([]);
  });
});
