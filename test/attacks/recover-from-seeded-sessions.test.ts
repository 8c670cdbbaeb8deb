// Attack class: recoverTodos and recoverPlan on transcripts that start from a checkpoint — a fork
// ("its own id, history copy and plan copy") and a snapshot resumed into an empty store — where
// the list and the plan were never written by a TodoWrite or an approval in that transcript.
import { describe, expect, it } from 'vitest';
import { createAgent, memorySessionStore, recoverPlan, recoverTodos, type SessionEntry, type SessionStore } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

const todos = [{ content: 'Draft the intro', status: 'pending' as const, activeForm: 'Drafting the intro' }];

async function entriesOf(store: SessionStore, sessionId: string): Promise<SessionEntry[]> {
  const entries: SessionEntry[] = [];
  for await (const entry of store.load(sessionId)) entries.push(entry);
  return entries;
}

async function sourceSession() {
  const store = memorySessionStore();
  const agent = createAgent({ model: scriptedModel([turn(toolCall('TodoWrite', { todos }, 'toolu_todo')), 'ok']), store });
  await agent.run('go').result;
  await agent.savePlan('the plan');
  return { store, agent };
}

describe('attack: recovering from a transcript seeded by a checkpoint', () => {
  it("a fork's transcript (cut before the TodoWrite): its todos and plan are found", async () => {
    const { store, agent } = await sourceSession();
    const fork = await agent.fork({ upTo: 1 });
    expect(fork.todos).toEqual(todos);
    const entries = await entriesOf(store, fork.sessionId);
    expect(await recoverTodos({ entries })).toEqual(todos);
    expect(await recoverPlan({ entries })).toMatchObject({ text: 'the plan' });
  });

  it('a snapshot resumed into an empty store: its todos and plan are found in the new transcript', async () => {
    const { agent } = await sourceSession();
    const store = memorySessionStore();
    const resumed = createAgent({ model: scriptedModel(['more']), store, resume: agent.snapshot() });
    await resumed.ready;
    await resumed.run('go on').result;
    const entries = await entriesOf(store, resumed.sessionId);
    expect(await recoverTodos({ entries })).toEqual(todos);
    expect(await recoverPlan({ entries })).toMatchObject({ text: 'the plan' });
  });

  it('a session that never had a list still recovers none', async () => {
    const store = memorySessionStore();
    const agent = createAgent({ model: scriptedModel(['ok']), store });
    await agent.run('go').result;
    const fork = await agent.fork();
    expect(await recoverTodos({ entries: await entriesOf(store, agent.sessionId) })).toBeUndefined();
    expect(await recoverTodos({ entries: await entriesOf(store, fork.sessionId) })).toBeUndefined();
  });
});
