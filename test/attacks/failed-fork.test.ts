// Attack class: agent.fork({ sessionId }) naming a session the store already holds (a host that
// passes an odd option): the other session's transcript must stay untouched, the fork must fail,
// and the failed fork must not keep that session claimed in this process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, memorySessionStore, SessionConflictError, type SessionStore } from 'agent-harness';
import { fileSessionStore } from 'agent-harness/node';
import { scriptedModel } from 'agent-harness/testing';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const stores: Array<[string, () => SessionStore]> = [
  ['memory', () => memorySessionStore()],
  [
    'file',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'failed-fork-'));
      dirs.push(dir);
      return fileSessionStore({ dir });
    },
  ],
];

describe('attack: a fork under the id of a stored session', () => {
  it.each(stores)('%s store: refused, the other session untouched and still resumable in this process', async (_kind, makeStore) => {
    const store = makeStore();
    const first = createAgent({ model: scriptedModel(['a']), store });
    await first.run('A').result;
    const other = createAgent({ model: scriptedModel(['b']), store });
    await other.run('B').result;
    const otherMessages = other.messages;
    await other.close();

    await expect(first.fork({ sessionId: other.sessionId })).rejects.toSatisfy((error) => SessionConflictError.isInstance(error));

    const resumed = createAgent({ model: scriptedModel(['b again']), store, resume: other.sessionId });
    await resumed.ready;
    expect(resumed.messages).toEqual(otherMessages);
    expect((await resumed.run('B again').result).status).toBe('completed');
    await resumed.close();
    await first.close();
  });
});
