// Attack class: the file a session (and its spilled outputs, which live in it) is kept in swapped
// for something that is not a file. A FIFO in place of the transcript held `agent.ready` (and a
// thread of the pool) forever, waiting for a writer; a directory failed with a bare EISDIR. Each
// is now refused at once with SessionStoreCorruptError naming the path and the cure, for a load,
// an append and the approval inbox (which passes over that session with a warning).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent, SessionStoreCorruptError, type SessionStoreWarning } from 'agent-harness';
import { fileSessionStore } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { z } from 'zod';
import { defineTool } from 'agent-harness';

const swaps: Record<string, (file: string) => void> = {
  FIFO: (file) => execFileSync('mkfifo', [file]),
  directory: (file) => mkdirSync(file),
};

describe.skipIf(process.platform === 'win32')('attack: a session transcript swapped for something that is not a file', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A session waiting on an approval, its transcript then swapped by `swap`. */
  async function swapped(swap: (file: string) => void) {
    dir = mkdtempSync(join(tmpdir(), 'attack-session-swap-'));
    const write = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({}), kind: 'edit', execute: () => 'wrote' });
    const agent = createAgent({ model: scriptedModel([turn(toolCall('write', {}, 'toolu_w'))]), tools: [write], store: fileSessionStore({ dir }) });
    await agent.run('write').result;
    await agent.close();
    const file = join(dir, `${agent.sessionId}.jsonl`);
    renameSync(file, `${file}.moved`);
    swap(file);
    return { sessionId: agent.sessionId, file };
  }

  for (const [name, swap] of Object.entries(swaps)) {
    it(`a ${name} in place of the session's lock file: an append is refused at once with SessionStoreCorruptError naming it`, async () => {
      dir = mkdtempSync(join(tmpdir(), 'attack-session-swap-'));
      const agent = createAgent({ model: scriptedModel(['hi']), store: fileSessionStore({ dir }) });
      await agent.run('hello').result;
      await agent.close();
      const lockFile = join(dir, `${agent.sessionId}.jsonl.lock`);
      swap(lockFile);
      const resumed = createAgent({ model: scriptedModel(['again']), store: fileSessionStore({ dir }), resume: agent.sessionId });
      const result = await resumed.run('more').result;
      expect(result.status).toBe('error');
      const cause = (result.error as Error & { cause?: unknown }).cause;
      expect(SessionStoreCorruptError.isInstance(cause)).toBe(true);
      expect((cause as Error).message).toContain(lockFile);
      await resumed.close().catch(() => undefined);
    });

    it(`a ${name} in place of the session's lease file: acquire is refused at once with SessionStoreCorruptError naming it`, async () => {
      dir = mkdtempSync(join(tmpdir(), 'attack-session-swap-'));
      const store = fileSessionStore({ dir });
      const leaseFile = join(dir, 'leased.jsonl.lease');
      swap(leaseFile);
      const failure = await store.leases!.acquire('leased', { holder: 'worker', ttlMs: 60_000 }).then(() => undefined, (error: unknown) => error);
      expect(SessionStoreCorruptError.isInstance(failure)).toBe(true);
      expect((failure as Error).message).toContain(leaseFile);
    });

    it(`a ${name}: resume fails at once with SessionStoreCorruptError naming the path`, async () => {
      const { sessionId, file } = await swapped(swap);
      const resumed = createAgent({ model: scriptedModel([]), store: fileSessionStore({ dir }), resume: sessionId });
      const failure = await resumed.ready.then(() => undefined, (error: unknown) => error);
      expect(SessionStoreCorruptError.isInstance(failure)).toBe(true);
      expect((failure as Error).message).toContain(file);
      expect((failure as Error).message).toContain('is not a regular file');
    });

    it(`a ${name}: an append to it is refused with SessionStoreCorruptError; nothing is written into it`, async () => {
      const { sessionId, file } = await swapped(swap);
      const store = fileSessionStore({ dir });
      const failure = await store
        .append(sessionId, [{ $schemaVersion: 2, id: 'e1', parentId: null, seq: 1, timestamp: new Date(0).toISOString(), sessionId, kind: 'run-start', runId: 'r' } as never], { expectedRevision: 0 })
        .then(() => undefined, (error: unknown) => error);
      expect(SessionStoreCorruptError.isInstance(failure)).toBe(true);
      expect((failure as Error).message).toContain(file);
      await store.close?.(sessionId);
    });

    it(`a ${name}: listPending() passes over that session with a warning and lists the others`, async () => {
      const { sessionId } = await swapped(swap);
      const warnings: SessionStoreWarning[] = [];
      const store = fileSessionStore({ dir, onWarning: (warning) => warnings.push(warning) });
      const other = createAgent({ model: scriptedModel([turn(toolCall('write', {}, 'toolu_o'))]), tools: [defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({}), kind: 'edit', execute: () => 'wrote' })], store });
      await other.run('write').result;
      await other.close();
      const pending = await store.listPending!();
      expect(pending.map((session) => session.sessionId)).toEqual([other.sessionId]);
      expect(warnings.some((warning) => warning.sessionId === sessionId && warning.message.includes('is not a regular file'))).toBe(true);
    });
  }
});
