// What a store is asked per turn: the journal hands the entries of one step of the loop to one
// append, so a tool turn costs two (the answer with the decisions on its calls, before the tools
// run; the results with the message carrying them, before the next model call), not one per entry,
// whether the tool answers at once or later; and the batch's last result is stored once, in the
// message, not in a `tool-result` entry too.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memorySessionStore, type SessionEntry, type SessionStore } from 'agent-harness';
import { fileSessionStore } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { loadEntries } from '../../src/session/load-entries.js';
import { deferred, storedResultIds, tick } from '../helpers.js';

/** `store` with every append it is asked for kept (the entries of each). */
function recorded(store: SessionStore) {
  const appends: SessionEntry[][] = [];
  const wrapped = Object.create(store) as SessionStore;
  wrapped.append = (sessionId, entries, options) => {
    appends.push([...entries]);
    return store.append(sessionId, entries, options);
  };
  return { store: wrapped, appends };
}

const note = () => defineTool({ name: 'note', description: 'Takes a note.', inputSchema: z.object({ n: z.number() }), readOnly: true, execute: ({ input }) => `note ${input.n}` });
/** The same tool answering a few turns of the event loop later, as a tool doing I/O does. */
const laterNote = () =>
  defineTool({
    name: 'note',
    description: 'Takes a note.',
    inputSchema: z.object({ n: z.number() }),
    readOnly: true,
    execute: async ({ input }) => {
      for (let index = 0; index < 1 + (input.n % 3); index++) await tick();
      return `note ${input.n}`;
    },
  });
const kinds = (entries: readonly SessionEntry[]) => entries.map((entry) => (entry.kind === 'message' ? `message:${entry.message.role}` : entry.kind));

/** The appends between the first answer calling a tool and the last result's message. */
function turnAppends(appends: SessionEntry[][], turns: number) {
  const first = appends.findIndex((batch) => kinds(batch).includes('message:assistant'));
  return appends.slice(first, first + 2 * turns);
}

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe.each([
  ['memory store', () => memorySessionStore()],
  ['file store', () => fileSessionStore({ dir: (dir ??= mkdtempSync(join(tmpdir(), 'appends-per-turn-'))) })],
] as const)('a tool turn costs the %s two appends', (_name, makeStore) => {
  it.each([
    ['answering at once', note],
    ['answering later', laterNote],
  ] as const)('one call a turn of a tool %s: the answer with its decision, then the result in its message', async (_how, tool) => {
    const base = makeStore();
    const { store, appends } = recorded(base);
    const turns = 6;
    const model = scriptedModel([...Array.from({ length: turns }, (_, n) => turn(`Turn ${n}.`, toolCall('note', { n }, `toolu_${n}`))), 'Done.']);
    const agent = createAgent({ model, tools: [tool()], store });
    const results: string[] = [];
    agent.on('tool-result', (event) => results.push(`${event.toolUseId} ${String(event.content)}`));
    const result = await agent.run('Take notes.').result;
    expect(result.status).toBe('completed');
    const perTurn = turnAppends(appends, turns);
    for (let n = 0; n < turns; n++) {
      expect(kinds(perTurn[2 * n]!), `turn ${n}`).toEqual(['message:assistant', 'permission-decision', 'call-allowed']);
      expect(kinds(perTurn[2 * n + 1]!), `turn ${n}`).toEqual(['message:user']);
      expect(perTurn[2 * n + 1]![0]).toMatchObject({ message: { content: [{ type: 'tool_result', tool_use_id: `toolu_${n}`, content: `note ${n}` }] } });
    }
    // Every result is still announced, once.
    expect(results).toEqual(Array.from({ length: turns }, (_, n) => `toolu_${n} note ${n}`));
    // The whole run: the session's start, the prompt and the prefix, two per turn, the answer and the end.
    expect(appends.length).toBeLessThanOrEqual(2 * turns + 6);
    // What the store holds is the whole transcript, in order, each append on the revision before it.
    const stored = await loadEntries(base, agent.sessionId);
    expect(stored.map((entry) => entry.seq)).toEqual(stored.map((_, index) => index + 1));
    expect(stored.map((entry) => entry.id)).toEqual(appends.flat().map((entry) => entry.id));
    await agent.close();
    const resumed = createAgent({ model: scriptedModel([]), tools: [note()], store: base, resume: agent.sessionId });
    await resumed.ready;
    expect(resumed.messages).toEqual(agent.messages);
    await resumed.close();
  });

  it('three calls a turn: their decisions go with the answer', async () => {
    const { store, appends } = recorded(makeStore());
    const model = scriptedModel([turn(toolCall('note', { n: 1 }, 'toolu_1'), toolCall('note', { n: 2 }, 'toolu_2'), toolCall('note', { n: 3 }, 'toolu_3')), 'Done.']);
    const agent = createAgent({ model, tools: [note()], store });
    expect((await agent.run('Take notes.').result).status).toBe('completed');
    const answer = appends.find((batch) => kinds(batch).includes('message:assistant'))!;
    expect(kinds(answer)).toEqual(['message:assistant', ...Array.from({ length: 3 }, () => ['permission-decision', 'call-allowed']).flat()]);
    // Every result is stored before the next model call, in two appends at most: the results
    // answered before the last, then the message, which alone holds the last result.
    const between = appends.slice(appends.indexOf(answer) + 1, -1);
    expect(between.length).toBeLessThanOrEqual(2);
    expect(between.flat().filter((entry) => entry.kind === 'tool-result').map((entry) => entry.kind === 'tool-result' && entry.toolUseId)).toEqual(['toolu_1', 'toolu_2']);
    expect(kinds(between.at(-1)!).at(-1)).toBe('message:user');
    await agent.close();
  });

  it('three calls a turn answering at different times: the first is stored as it comes, the last with the message only', async () => {
    const base = makeStore();
    const { store, appends } = recorded(base);
    const model = scriptedModel([turn(toolCall('note', { n: 0 }, 'toolu_0'), toolCall('note', { n: 1 }, 'toolu_1'), toolCall('note', { n: 2 }, 'toolu_2')), 'Done.']);
    const agent = createAgent({ model, tools: [laterNote()], store });
    const heard: string[] = [];
    agent.on('tool-result', (event) => heard.push(event.toolUseId));
    expect((await agent.run('Take notes.').result).status).toBe('completed');
    const afterAnswer = appends.slice(appends.findIndex((batch) => kinds(batch).includes('message:assistant')) + 1);
    // toolu_0 answers first, with nothing in flight: stored as it comes. toolu_2 answers last: its
    // result goes only in the message, in the same append. toolu_1 answers while toolu_0's append
    // may still be in flight (the file store's timing): stored when it ends, or only in the message
    // when the batch completed first (the exact cases: "parallel calls while a result is being stored").
    const resultEntries = afterAnswer.flat().filter((entry) => entry.kind === 'tool-result').map((entry) => entry.kind === 'tool-result' && entry.toolUseId);
    expect([['toolu_0', 'toolu_1'], ['toolu_0']]).toContainEqual(resultEntries);
    expect(storedResultIds(afterAnswer.flat())).toEqual(new Set(['toolu_0', 'toolu_1', 'toolu_2']));
    const messageAppend = afterAnswer.find((batch) => kinds(batch).includes('message:user'))!;
    expect(kinds(messageAppend).at(-1)).toBe('message:user');
    expect(kinds(messageAppend)).not.toContain('call-allowed');
    expect(heard).toEqual(['toolu_0', 'toolu_1', 'toolu_2']);
    await agent.close();
    const resumed = createAgent({ model: scriptedModel([]), tools: [note()], store: base, resume: agent.sessionId });
    await resumed.ready;
    expect(resumed.messages).toEqual(agent.messages);
    await resumed.close();
  });
});

describe('parallel calls while a result is being stored', () => {
  /**
   * Four read-only calls, each answering when the test says; the store's append holding the first
   * result waits until the test opens it, so the others answer while it is in flight.
   */
  async function parallel(order: (answer: (id: string) => Promise<void>, open: () => Promise<void>) => Promise<void>) {
    const base = memorySessionStore();
    const { store, appends } = recorded(base);
    const gate = deferred();
    const slow = Object.create(store) as SessionStore;
    slow.append = async (sessionId, entries, options) => {
      if (entries.some((entry) => entry.kind === 'tool-result' && entry.toolUseId === 'a')) await gate.promise;
      return store.append(sessionId, entries, options);
    };
    const answers = new Map(['a', 'b', 'c', 'd'].map((id) => [id, deferred()]));
    const note = defineTool({
      name: 'note',
      description: 'Takes a note.',
      inputSchema: z.object({ id: z.string() }),
      readOnly: true,
      execute: async ({ input }) => {
        await answers.get(input.id)!.promise;
        return `note ${input.id}`;
      },
    });
    const model = scriptedModel([turn(...['a', 'b', 'c', 'd'].map((id) => toolCall('note', { id }, id))), 'Done.']);
    const agent = createAgent({ model, tools: [note], store: slow });
    const heard: string[] = [];
    agent.on('tool-result', (event) => heard.push(event.toolUseId));
    const run = agent.run('Take notes.');
    // Until the calls run (their allowance stored).
    for (let index = 0; index < 20 && appends.length < 2; index++) await tick();
    await order(
      async (id) => {
        answers.get(id)!.resolve();
        for (let index = 0; index < 5; index++) await tick();
      },
      async () => {
        gate.resolve();
        for (let index = 0; index < 5; index++) await tick();
      },
    );
    expect((await run.result).status).toBe('completed');
    const afterAnswer = appends.slice(appends.findIndex((batch) => kinds(batch).includes('message:assistant')) + 1, -1);
    const resumed = createAgent({ model: scriptedModel([]), tools: [note], store: base, resume: agent.sessionId });
    await resumed.ready;
    expect(resumed.messages).toEqual(agent.messages);
    await resumed.close();
    await agent.close();
    return { afterAnswer: afterAnswer.map((batch) => batch.map((entry) => (entry.kind === 'tool-result' ? `tool-result ${entry.toolUseId}` : kinds([entry])[0]))), heard };
  }

  it('the batch completes before that append ends: the results answered meanwhile go only in the message, in the next append', async () => {
    const { afterAnswer, heard } = await parallel(async (answer, open) => {
      await answer('a');
      await answer('b');
      await answer('c');
      await answer('d');
      await open();
    });
    expect(afterAnswer).toEqual([['tool-result a'], ['message:user']]);
    expect(heard).toEqual(['a', 'b', 'c', 'd']);
  });

  it('that append ends before the batch completes: the results answered meanwhile are stored when it ends, the last only in the message', async () => {
    const { afterAnswer, heard } = await parallel(async (answer, open) => {
      await answer('a');
      await answer('b');
      await answer('c');
      await open();
      await answer('d');
    });
    expect(afterAnswer).toEqual([['tool-result a'], ['tool-result b', 'tool-result c'], ['message:user']]);
    expect(heard).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe("a run's first and last appends", () => {
  it("a new session's first run: its checkpoint goes with the run's start, prefix and prompt; the answer with the run's end", async () => {
    const base = memorySessionStore();
    const { store, appends } = recorded(base);
    const agent = createAgent({ model: scriptedModel(['Hello.', 'Again.']), store });
    expect((await agent.run('Hi.').result).status).toBe('completed');
    expect(appends.map(kinds)).toEqual([
      ['checkpoint', 'run-start', 'prefix', 'message:user'],
      ['message:assistant', 'run-end'],
    ]);
    appends.length = 0;
    expect((await agent.run('Once more.').result).status).toBe('completed');
    expect(appends.map(kinds)).toEqual([
      ['run-start', 'message:user'],
      ['message:assistant', 'run-end'],
    ]);
    await agent.close();
    const resumed = createAgent({ model: scriptedModel([]), store: base, resume: agent.sessionId });
    await resumed.ready;
    expect(resumed.messages).toEqual(agent.messages);
    await resumed.close();
  });

  it("the answer's events wait for the append that holds the run's end, and come before it", async () => {
    const base = memorySessionStore();
    const { store, appends } = recorded(base);
    const agent = createAgent({ model: scriptedModel(['Hello.']), store });
    const seen: string[] = [];
    const storedWhen = () => appends.flat().some((entry) => entry.kind === 'run-end');
    agent.on('turn-end', () => seen.push(`turn-end ${storedWhen()}`));
    agent.on('run-end', () => seen.push(`run-end ${storedWhen()}`));
    await agent.run('Hi.').result;
    expect(seen).toEqual(['turn-end true', 'run-end true']);
    await agent.close();
  });

  it('with a Stop hook, the answer is not held back while the hook runs, and the run ends in an append of its own', async () => {
    const base = memorySessionStore();
    const { store, appends } = recorded(base);
    let storedWhileHooked = false;
    const agent = createAgent({
      model: scriptedModel(['Hello.']),
      store,
      hooks: {
        Stop: [
          {
            // A hook that takes its time: the answer is stored meanwhile.
            hook: async () => {
              for (let wait = 0; wait < 20 && !storedWhileHooked; wait++) {
                await tick();
                storedWhileHooked = kinds(await loadEntries(base, agent.sessionId)).includes('message:assistant');
              }
            },
          },
        ],
      },
    });
    expect((await agent.run('Hi.').result).status).toBe('completed');
    expect(storedWhileHooked).toBe(true);
    expect(appends.map(kinds).slice(-2)).toEqual([['message:assistant'], ['run-end']]);
    await agent.close();
  });

  it("a store that fails the answer's append: neither the answer nor the run's end is stored, the run is an error, and the answer's events are not delivered", async () => {
    const base = memorySessionStore();
    const failing = Object.create(base) as SessionStore;
    failing.append = (sessionId, entries, options) =>
      entries.some((entry) => entry.kind === 'message' && entry.message.role === 'assistant') ? Promise.reject(new Error('disk full')) : base.append(sessionId, entries, options);
    const agent = createAgent({ model: scriptedModel(['Hello.']), store: failing });
    const seen: string[] = [];
    agent.on('turn-end', () => seen.push('turn-end'));
    agent.on('run-end', (event) => seen.push(`run-end ${event.result.status}`));
    const result = await agent.run('Hi.').result;
    expect(result.status).toBe('error');
    expect(result.error?.name).toBe('SessionWriteError');
    expect(result.error?.message).toContain('disk full');
    expect(seen).toEqual(['run-end error']);
    expect(kinds(await loadEntries(base, agent.sessionId))).toEqual(['checkpoint', 'run-start', 'prefix', 'message:user']);
    await agent.close().catch(() => undefined);
  });

  it('a new session is written without a run: by flush(), by close(), or with a change made before its first run (and that change announced)', async () => {
    const base = memorySessionStore();
    const flushed = createAgent({ model: scriptedModel([]), store: base });
    await flushed.flush();
    expect(kinds(await loadEntries(base, flushed.sessionId))).toEqual(['checkpoint']);
    await flushed.close();

    const closed = createAgent({ model: scriptedModel([]), store: base });
    await closed.close();
    expect(kinds(await loadEntries(base, closed.sessionId))).toEqual(['checkpoint']);

    const { store, appends } = recorded(base);
    const changed = createAgent({ model: scriptedModel([]), store });
    const modes: string[] = [];
    changed.on('mode-change', (event) => modes.push(event.to));
    changed.setPermissionMode('plan');
    // Written in the background, as any change between runs, in one append with the checkpoint.
    await tick();
    await tick();
    expect(appends.map(kinds)).toEqual([['checkpoint', 'mode-change']]);
    expect(modes).toEqual(['plan']);
    await changed.close();
  });

  it('a second agent creating the same new session in another process: its first run fails on the conflict, and nothing of it is stored', async () => {
    const base = memorySessionStore();
    const first = createAgent({ model: scriptedModel(['Mine.']), store: base, sessionId: 'session_shared' });
    expect((await first.run('Hi.').result).status).toBe('completed');
    // Another process (this process keeps one agent per session and store, so a second store object over the same data).
    const elsewhere = Object.create(base) as SessionStore;
    const second = createAgent({ model: scriptedModel(['Theirs.']), store: elsewhere, sessionId: 'session_shared' });
    const result = await second.run('Hello?').result;
    expect(result.status).toBe('error');
    expect(result.error?.message).toMatch(/conflict|revision/i);
    const stored = await loadEntries(base, 'session_shared');
    expect(JSON.stringify(stored)).not.toContain('Hello?');
    expect(kinds(stored).filter((kind) => kind === 'checkpoint')).toHaveLength(1);
    await first.close();
    await second.close().catch(() => undefined);
  });
});

describe('a call that waits for approval', () => {
  const publish = (display?: () => Promise<{ title: string; summary: string }>) =>
    defineTool({ name: 'publish', description: 'Publishes.', inputSchema: z.object({ n: z.number() }), kind: 'edit', ...(display ? { display } : {}), execute: () => 'published' });

  it.each([
    ['a memory store', () => memorySessionStore()],
    ['a file store', () => fileSessionStore({ dir: (dir ??= mkdtempSync(join(tmpdir(), 'appends-per-turn-'))) })],
  ] as const)('with %s, the answer goes with its decision and its approval in one append, then the run\'s end', async (_name, makeStore) => {
    const { store, appends } = recorded(makeStore());
    const agent = createAgent({ model: scriptedModel([turn('Publishing.', toolCall('publish', { n: 1 }, 'toolu_p'))]), tools: [publish()], store });
    const requests: string[] = [];
    agent.on('permission-request', (event) => requests.push(event.toolUseId));
    const result = await agent.run('Publish it.').result;
    expect(result.status).toBe('awaiting-approval');
    expect(appends.slice(-2).map(kinds)).toEqual([['message:assistant', 'permission-decision', 'approval-pending'], ['run-end']]);
    // The question is still told to the host, once, with the approval it is about stored.
    expect(requests).toEqual(['toolu_p']);
    expect(result.pendingApprovals.map((approval) => approval.toolUseId)).toEqual(['toolu_p']);
  });

  it('a plan presented in plan mode: the answer, its decision and the plan\'s approval in one append, then the run\'s end', async () => {
    const { store, appends } = recorded(memorySessionStore());
    const agent = createAgent({ model: scriptedModel([turn(toolCall('ExitPlanMode', { plan: '# Plan\n\n1. Outline\n2. Draft' }, 'toolu_plan'))]), store, permissionMode: 'plan' });
    const result = await agent.run('Plan an article.').result;
    expect(result.status).toBe('awaiting-approval');
    expect(appends.slice(-2).map(kinds)).toEqual([['message:assistant', 'permission-decision', 'approval-pending'], ['run-end']]);
  });

  it('a display to make, or a canUseTool to ask, is awaited: the answer is stored while it runs, as before', async () => {
    const { store, appends } = recorded(memorySessionStore());
    const shown = deferred<{ title: string; summary: string }>();
    const agent = createAgent({ model: scriptedModel([turn(toolCall('publish', { n: 1 }, 'toolu_d'))]), tools: [publish(() => shown.promise)], store });
    const running = agent.run('Publish it.').result;
    // The display is awaited: the answer went to the store on its own meanwhile.
    while (!appends.some((batch) => kinds(batch).includes('message:assistant'))) await tick();
    expect(kinds(appends.find((batch) => kinds(batch).includes('message:assistant'))!)).toEqual(['message:assistant']);
    shown.resolve({ title: 'Publish', summary: 'Publishes the article.' });
    expect((await running).status).toBe('awaiting-approval');
    expect(kinds(appends.at(-2)!)).toEqual(['permission-decision', 'approval-pending']);

    const asked = recorded(memorySessionStore());
    const host = deferred<{ behavior: 'allow' }>();
    const answered = createAgent({ model: scriptedModel([turn(toolCall('publish', { n: 2 }, 'toolu_h')), 'Done.']), tools: [publish()], store: asked.store, canUseTool: () => host.promise });
    const done = answered.run('Publish it.').result;
    while (!asked.appends.some((batch) => kinds(batch).includes('message:assistant'))) await tick();
    expect(kinds(asked.appends.find((batch) => kinds(batch).includes('message:assistant'))!)).toEqual(['message:assistant']);
    host.resolve({ behavior: 'allow' });
    expect((await done).status).toBe('completed');
  });
});
