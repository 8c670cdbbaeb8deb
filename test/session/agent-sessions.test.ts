import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { loadEntries } from '../../src/session/load-entries.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createAgent,
  defineTool,
  forkSession,
  memoryPlanStore,
  memorySessionStore,
  SessionNotFoundError,
  UnsupportedSchemaVersionError,
  type Agent,
  type AgentSnapshot,
  type SessionEntry,
  type SessionStore,
  type ToolResultBlock,
} from 'agent-harness';
import { scriptedModel, toolCall, turn, validateMessagesRequest } from 'agent-harness/testing';
import { echoTool, storedResultIds } from '../helpers.js';

const remember = defineTool({
  name: 'remember',
  description: 'Remembers a fact in tool state.',
  inputSchema: z.object({ fact: z.string() }),
  kind: 'edit',
  execute: ({ input, agent }) => {
    agent.toolState.set('facts', [...(agent.toolState.get<string[]>('facts') ?? []), input.fact]);
    return 'remembered';
  },
});

/** The parts of a snapshot a resume must reproduce. */
function state(snapshot: AgentSnapshot) {
  const { $schemaVersion, ...rest } = snapshot;
  return rest;
}

function busyScript() {
  return scriptedModel([
    turn(toolCall('ExitPlanMode', { plan: 'Remember two facts.' })),
    turn(
      toolCall('TodoWrite', { todos: [{ content: 'Remember', status: 'in_progress', activeForm: 'Remembering' }] }),
      toolCall('remember', { fact: 'tides' }),
    ),
    turn(toolCall('remember', { fact: 'pools' })),
    'Done.',
  ]);
}

describe('sessions in a store', () => {
  it('round-trips everything an agent holds: store → resume and snapshot → resume', async () => {
    const store = memorySessionStore();
    const agent = createAgent({
      model: busyScript(),
      tools: [remember, echoTool],
      store,
      canUseTool: (_name, _input, context) => ({ behavior: 'allow', updatedPermissions: context.suggestions.filter((update) => update.type === 'addRules') }),
    });
    agent.setPermissionMode('plan');
    const result = await agent.run('go').result;
    expect(result.status).toBe('completed');
    // A reminder still waiting for the next prompt; once the event is seen, the entry is stored.
    const stored = new Promise((resolve) => agent.once('mode-change', resolve));
    agent.setPermissionMode('dontAsk');
    await stored;
    const expected = state(agent.snapshot());
    expect(expected.plan?.text).toBe('Remember two facts.');
    expect(expected.toolState).toEqual({ facts: ['tides', 'pools'] });
    expect(expected.sessionRules.allow.length).toBeGreaterThan(0);

    // One agent per stored session in a process: the first lets go before another resumes it.
    await agent.close();
    const fromStore = createAgent({ model: scriptedModel([]), tools: [remember, echoTool], store, resume: agent.sessionId });
    await fromStore.ready;
    expect(state(fromStore.snapshot())).toEqual(expected);

    const fromSnapshot = createAgent({ model: scriptedModel([]), tools: [remember, echoTool], resume: JSON.parse(JSON.stringify(agent.snapshot())) });
    expect(state(fromSnapshot.snapshot())).toEqual(expected);
  });

  it('stores an entry before the event that announces it', async () => {
    const store = memorySessionStore();
    const appended: SessionEntry[] = [];
    const spy: SessionStore = {
      append: async (id, entries, options) => {
        await store.append(id, entries, options);
        appended.push(...entries);
      },
      load: (id, options) => store.load(id, options),
      list: () => store.list(),
      delete: (id) => store.delete(id),
    };
    const agent = createAgent({ model: scriptedModel([turn(toolCall('echo', { text: 'b' }, 'e2')), 'ok']), tools: [echoTool], store: spy });
    const checks: boolean[] = [];
    agent.on('tool-result', (event) => checks.push(storedResultIds(appended).has(event.toolUseId)));
    agent.on('todo-update', () => checks.push(false));
    agent.on('run-end', (event) => checks.push(appended.some((entry) => entry.kind === 'run-end' && entry.runId === event.result.runId)));
    agent.on('turn-end', (event) => checks.push(appended.filter((entry) => entry.kind === 'message').length >= event.turn + 1));
    await agent.run('go').result;
    expect(checks).toEqual([true, true, true, true]);
  });

  it('keeps pending approvals through the store, and continues the turn after resolving them', async () => {
    const store = memorySessionStore();
    const model = scriptedModel([turn(toolCall('remember', { fact: 'x' }, 'r1')), 'done']);
    const agent = createAgent({ model, tools: [remember], store });
    const first = await agent.run('go').result;
    expect(first.status).toBe('awaiting-approval');
    const pendingBefore = agent.pendingApprovals;
    await agent.close();
    const resumed = createAgent({ model, tools: [remember], store, resume: agent.sessionId });
    const heard: string[] = [];
    resumed.on('tool-result', (event) => heard.push(event.toolUseId)); // fine while still loading
    await resumed.ready;
    expect(resumed.pendingApprovals).toEqual(pendingBefore);
    const after = await resumed.resolveApproval(resumed.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
    expect(after.status).toBe('completed');
    expect(heard).toEqual(['r1']);
    await resumed.close();
    const again = createAgent({ model, tools: [remember], store, resume: agent.sessionId });
    await again.ready;
    expect(again.pendingApprovals).toEqual([]);
    expect(again.messages).toEqual(resumed.messages);
  });

  it('answers calls that died mid-batch with their stored result or an interrupted error, running nothing again', async () => {
    const store = memorySessionStore();
    let executions = 0;
    const counted = defineTool({ name: 'counted', description: 'Counts.', inputSchema: z.object({}), readOnly: true, execute: () => (executions++, 'counted') });
    const agent = createAgent({ model: scriptedModel([]), tools: [counted], store });
    await agent.close();
    // Write what a process that died in the middle of a batch leaves behind.
    const base = { $schemaVersion: 1, sessionId: agent.sessionId, timestamp: new Date().toISOString(), parentId: null };
    const revision = (await loadEntries(store, agent.sessionId)).at(-1)!.seq;
    await store.append(agent.sessionId, [
      { ...base, id: 'm1', kind: 'message', message: { role: 'user', content: [{ type: 'text', text: 'go' }] } },
      {
        ...base,
        id: 'm2',
        kind: 'message',
        message: { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'counted', input: {} }, { type: 'tool_use', id: 'c2', name: 'counted', input: {} }] },
      },
      { ...base, id: 'r1', kind: 'tool-result', toolUseId: 'c1', toolName: 'counted', result: { type: 'tool_result', tool_use_id: 'c1', content: 'counted' } },
    ] as never, { expectedRevision: revision });
    const model = scriptedModel(['recovered']);
    const resumed = createAgent({ model, tools: [counted], store, resume: agent.sessionId });
    const result = await resumed.run('continue').result;
    expect(result.status).toBe('completed');
    expect(executions).toBe(0);
    const sent = model.requests[0]!.messages;
    expect(validateMessagesRequest(sent)).toBeUndefined();
    const results = sent.at(-1)!.content as ToolResultBlock[];
    expect(results[0]).toEqual({ type: 'tool_result', tool_use_id: 'c1', content: 'counted' });
    expect(results[1]!.is_error).toBe(true);
    expect(results[1]!.content).toMatch(/interrupted before it finished/);
  });

  it('forks: independent histories and plans, in memory and in the store, up to a message', async () => {
    const store = memorySessionStore();
    const agent = createAgent({ model: scriptedModel([turn(toolCall('ExitPlanMode', { plan: 'The plan.' })), 'one', 'parent two', 'fork two']), store, canUseTool: () => ({ behavior: 'allow' }) });
    agent.setPermissionMode('plan');
    await agent.run('first').result;
    const fork = await agent.fork();
    expect(fork.sessionId).not.toBe(agent.sessionId);
    expect(fork.plan?.text).toBe('The plan.');
    expect(fork.plan?.name).not.toBe(agent.plan?.name);
    await agent.run('parent').result;
    await fork.run('fork').result;
    expect(agent.messages.at(-1)).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'parent two' }] });
    expect(fork.messages.at(-1)).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'fork two' }] });
    expect((await store.list()).sort()).toEqual([agent.sessionId, fork.sessionId].sort());
    await fork.close();
    const reloadedFork = createAgent({ model: scriptedModel([]), store, resume: fork.sessionId });
    await reloadedFork.ready;
    expect(reloadedFork.messages).toEqual(fork.messages);

    const early = await agent.fork({ upTo: 1 });
    expect(early.messages).toEqual([agent.messages[0]]);
    const stored = await forkSession(store, agent.sessionId, { upTo: 2 });
    const fromStore = createAgent({ model: scriptedModel([]), store, resume: stored });
    await fromStore.ready;
    // Message 2 is the assistant's ExitPlanMode call without its result: left out.
    expect(fromStore.messages).toEqual([agent.messages[0]]);
    expect(fromStore.plan?.text).toBe('The plan.');
    await expect(forkSession(store, 'nope')).rejects.toThrow(SessionNotFoundError);
  });

  it('puts a plan missing from the plan store back from the history on resume', async () => {
    const store = memorySessionStore();
    const agent = createAgent({ model: scriptedModel([turn(toolCall('ExitPlanMode', { plan: 'Keep me.' })), 'ok']), store, permissionMode: 'plan', canUseTool: () => ({ behavior: 'allow' }) });
    await agent.run('plan').result;
    const name = agent.plan!.name;
    await agent.close();
    const emptyPlanStore = memoryPlanStore();
    const resumed = createAgent({ model: scriptedModel([]), store, planStore: emptyPlanStore, resume: agent.sessionId });
    await resumed.ready;
    expect(resumed.plan).toEqual({ name, text: 'Keep me.' });
    expect(await emptyPlanStore.read(name)).toBe('Keep me.');
  });

  it('refuses a second open agent on the same stored session in one process', async () => {
    const store = memorySessionStore();
    const first = createAgent({ model: scriptedModel(['one']), store });
    await first.run('hi').result;
    const second = createAgent({ model: scriptedModel([]), store, resume: first.sessionId });
    await expect(second.ready).rejects.toThrow(/already open in another agent of this process.*close\(\) first/);
    await first.close();
    const third = createAgent({ model: scriptedModel([]), store, resume: first.sessionId });
    await third.ready;
    expect(third.messages).toEqual(first.messages);
  });

  it('frees the session of an agent dropped without close() once it is collected', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const store = memorySessionStore();
    const sessionId = await (async () => {
      const dropped = createAgent({ model: scriptedModel(['one']), store });
      await dropped.run('hi').result;
      return dropped.sessionId;
    })();
    let reopened: Agent | undefined;
    for (let round = 0; round < 20 && !reopened; round++) {
      await new Promise((resolve) => setImmediate(resolve));
      gc();
      const attempt = createAgent({ model: scriptedModel([]), store, resume: sessionId });
      if (await attempt.ready.then(() => true, () => false)) reopened = attempt;
    }
    expect(reopened?.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    await reopened?.close();
  });

  it("closes the store's session of an agent dropped without close() once it is collected, and only then", async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const inner = memorySessionStore();
    const closed: string[] = [];
    const store: SessionStore = { ...inner, close: async (sessionId) => void closed.push(sessionId) };
    const kept = createAgent({ model: scriptedModel(['kept']), store });
    await kept.run('hi').result;
    const sessionId = await (async () => {
      const dropped = createAgent({ model: scriptedModel(['one']), store });
      await dropped.run('hi').result;
      return dropped.sessionId;
    })();
    for (let round = 0; round < 20 && closed.length === 0; round++) {
      await new Promise((resolve) => setImmediate(resolve));
      gc();
    }
    // The dropped agent's session, not the one of the agent still held.
    expect(closed).toEqual([sessionId]);
    await kept.close();
    expect(closed).toEqual([sessionId, kept.sessionId]);
  });

  it('refuses transcripts written by an unknown version, naming the supported ones', async () => {
    const future = { $schemaVersion: 99, id: 'x', parentId: null, timestamp: '', sessionId: 'old', kind: 'run-start', runId: 'r' } as SessionEntry;
    const store: SessionStore = {
      append: async () => undefined,
      load: async function* () {
        yield future;
      },
      list: async () => ['old'],
      delete: async () => undefined,
    };
    const agent = createAgent({ model: scriptedModel([]), store, resume: 'old' });
    await expect(agent.ready).rejects.toThrow(UnsupportedSchemaVersionError);
    await expect(agent.ready).rejects.toThrow(/\$schemaVersion 99.*reads \$schemaVersion 1/);
    const result = await agent.run('hi').result;
    expect(result.status).toBe('error');
    expect(UnsupportedSchemaVersionError.isInstance(result.error)).toBe(true);
  });
});
