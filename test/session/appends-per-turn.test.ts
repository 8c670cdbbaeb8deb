// What a store is asked per turn: the journal hands the entries of one step of the loop to one
// append, so a tool turn costs two (the answer with the decisions on its calls, before the tools
// run; the results with the message carrying them, before the next model call), not one per entry.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, memorySessionStore, type SessionEntry, type SessionStore } from 'agent-harness';
import { fileSessionStore } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { loadEntries } from '../../src/session/load-entries.js';

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
  it('one call a turn: the answer with its decision, then the result with its message', async () => {
    const base = makeStore();
    const { store, appends } = recorded(base);
    const turns = 6;
    const model = scriptedModel([...Array.from({ length: turns }, (_, n) => turn(`Turn ${n}.`, toolCall('note', { n }, `toolu_${n}`))), 'Done.']);
    const agent = createAgent({ model, tools: [note()], store });
    const result = await agent.run('Take notes.').result;
    expect(result.status).toBe('completed');
    const perTurn = turnAppends(appends, turns);
    for (let n = 0; n < turns; n++) {
      expect(kinds(perTurn[2 * n]!), `turn ${n}`).toEqual(['message:assistant', 'permission-decision', 'call-allowed']);
      expect(kinds(perTurn[2 * n + 1]!), `turn ${n}`).toEqual(['tool-result', 'message:user']);
    }
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
    // Every result is stored before the next model call, in at most one append per call.
    const results = appends.filter((batch) => kinds(batch).includes('tool-result'));
    expect(results.length).toBeGreaterThanOrEqual(1);
    expect(results.length).toBeLessThanOrEqual(3);
    await agent.close();
  });
});
