// Attack class: "A subagent has its own ... todos" once the session is stored and resumed: the
// subagent's TodoWrite entries share the parent's transcript, and must not become the parent's
// list on resume, nor in recoverTodos, nor in a fork.
import { describe, expect, it } from 'vitest';
import { BUILTIN_AGENTS, createAgent, memorySessionStore, recoverTodos, type SessionEntry } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

const parentTodo = { content: 'Write the article', status: 'in_progress' as const, activeForm: 'Writing the article' };
const childTodo = { content: 'child step', status: 'completed' as const, activeForm: 'Stepping' };

describe("attack: a subagent's todos in a stored session", () => {
  it("stay the subagent's after a resume from the store, in recoverTodos and in a fork", async () => {
    const store = memorySessionStore();
    const child = scriptedModel([turn(toolCall('TodoWrite', { todos: [childTodo] }, 'c_todo')), 'child done']);
    const agent = createAgent({
      model: scriptedModel([
        turn(toolCall('TodoWrite', { todos: [parentTodo] }, 'p_todo')),
        turn(toolCall('Agent', { description: 'help', prompt: 'help', subagent_type: 'gp' }, 'p_agent')),
        'Done.',
      ]),
      store,
      agents: { gp: { ...BUILTIN_AGENTS['general-purpose'], model: child } },
    });
    expect((await agent.run('go').result).status).toBe('completed');
    expect(agent.todos).toEqual([parentTodo]);
    await agent.close();

    const again = createAgent({ model: scriptedModel([]), store, resume: agent.sessionId, agents: { gp: { ...BUILTIN_AGENTS['general-purpose'], model: child } } });
    await again.ready;
    expect(again.todos).toEqual([parentTodo]);
    expect(JSON.stringify(again.snapshot())).not.toMatch(/"todos":\[\{"content":"child step"/);
    const entries: SessionEntry[] = [];
    for await (const entry of store.load(agent.sessionId)) entries.push(entry);
    expect(await recoverTodos({ entries })).toEqual([parentTodo]);
    const fork = await again.fork();
    expect(fork.todos).toEqual([parentTodo]);
    await fork.close();
    await again.close();
  });
});
