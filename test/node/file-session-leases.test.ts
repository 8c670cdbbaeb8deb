// The file store's leases across real processes: racing acquires, a worker killed by SIGKILL in
// the middle of its fenced appends, and two processes writing under one token.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LeaseLostError, type SessionLease, type SessionStoreWarning } from 'agent-harness';
import { fileSessionStore } from 'agent-harness/node';
import { loadEntries } from '../../src/session/load-entries.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const child = join(here, 'fixtures/session-lease-worker.child.ts');

let dir: string;
const children: ChildProcess[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'file-session-leases-'));
});

afterEach(() => {
  for (const process_ of children.splice(0)) if (process_.exitCode === null && process_.signalCode === null) process_.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

interface Worker {
  process: ChildProcess;
  /** Resolves with the first printed line that `accept` takes. */
  line: <T = Record<string, unknown>>(accept?: (value: T) => boolean) => Promise<T>;
  /** Sends the start signal. */
  go: () => void;
  exited: Promise<number | null>;
}

function startWorker(sessionId: string, mode: string, options: Record<string, unknown>): Worker {
  const process_ = spawn(process.execPath, ['--import', 'tsx', child, dir, sessionId, mode, JSON.stringify(options)], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  children.push(process_);
  const lines: unknown[] = [];
  const waiters: Array<{ accept: (value: never) => boolean; resolve: (value: never) => void }> = [];
  createInterface({ input: process_.stdout! }).on('line', (text) => {
    const value = JSON.parse(text);
    lines.push(value);
    for (const waiter of waiters.splice(0)) {
      if (waiter.accept(value as never)) waiter.resolve(value as never);
      else waiters.push(waiter);
    }
  });
  const exited = new Promise<number | null>((done) => process_.on('exit', (code) => done(code)));
  return {
    process: process_,
    line: (accept = () => true) =>
      new Promise((resolveLine, reject) => {
        const seen = lines.find((value) => accept(value as never));
        if (seen !== undefined) return resolveLine(seen as never);
        waiters.push({ accept: accept as never, resolve: resolveLine as never });
        void exited.then((code) => reject(new Error(`worker exited (${code}) before printing the expected line; it printed ${JSON.stringify(lines)}`)));
      }),
    go: () => process_.stdin!.write('go\n'),
    exited,
  };
}

describe('fileSessionStore leases across processes', () => {
  it('gives a free lease to exactly one of several processes racing for it, round after round', async () => {
    for (let round = 0; round < 2; round += 1) {
      const sessionId = `raced-${round}`;
      const workers = Array.from({ length: 4 }, (_, index) => startWorker(sessionId, 'acquire', { holder: `worker-${index}`, ttlMs: 60_000 }));
      // Every worker has loaded and is waiting: then all start at once.
      await Promise.all(workers.map((worker) => worker.line((value) => 'ready' in value)));
      for (const worker of workers) worker.go();
      const results = await Promise.all(workers.map((worker) => worker.line<{ lease: SessionLease | null }>((value) => 'lease' in value)));
      const granted = results.filter((result) => result.lease !== null);
      expect(granted, JSON.stringify(results)).toHaveLength(1);
      const stored = JSON.parse(readFileSync(join(dir, `${sessionId}.jsonl.lease`), 'utf8'));
      expect(stored).toMatchObject({ $schemaVersion: 1, sessionId, holder: granted[0]!.lease!.holder, fencingToken: granted[0]!.lease!.fencingToken });
      await Promise.all(workers.map((worker) => worker.exited));
      // No lock is left behind by the operations.
      expect(existsSync(join(dir, `${sessionId}.jsonl.lock`))).toBe(false);
    }
  });

  it('lets another process take over from a worker killed by SIGKILL mid-append: larger token, torn line skipped, old token refused', async () => {
    const worker = startWorker('job', 'work', { holder: 'worker-a', ttlMs: 30_000 });
    const { lease } = await worker.line<{ lease: SessionLease }>((value) => 'lease' in value);
    expect(lease).toMatchObject({ holder: 'worker-a', fencingToken: 1 });
    await worker.line<{ stored?: number }>((value) => (value.stored ?? 0) >= 5);
    worker.process.kill('SIGKILL');
    await worker.exited;

    // Before the lease runs out nobody else gets it; after, this process does.
    const early = fileSessionStore({ dir });
    expect(await early.leases!.acquire('job', { holder: 'worker-b', ttlMs: 30_000 })).toBeUndefined();
    const later = fileSessionStore({ dir, now: () => Date.now() + 60_000 });
    const taken = await later.leases!.acquire('job', { holder: 'worker-b', ttlMs: 30_000 });
    expect(taken).toMatchObject({ holder: 'worker-b', fencingToken: 2 });

    const warnings: SessionStoreWarning[] = [];
    const entries = await loadEntries(later, 'job', { onWarning: (warning) => warnings.push(warning) });
    expect(entries.length).toBeGreaterThanOrEqual(5);
    expect(entries.map((entry) => entry.id)).toEqual(entries.map((_, index) => `worker-a-${index + 1}`));
    // A warning appears only when the kill cut a line; either way the revision is what loaded.
    for (const warning of warnings) expect(warning.message).toMatch(/cut short|Skipped/);
    const revision = entries.at(-1)!.seq;

    const stale = fileSessionStore({ dir });
    const refused = await stale
      .append('job', [{ ...entries[0]!, id: 'from-the-dead', seq: revision + 1 }], { expectedRevision: revision, fencingToken: lease.fencingToken })
      .catch((error: unknown) => error);
    expect(LeaseLostError.isInstance(refused)).toBe(true);
    expect((refused as LeaseLostError).currentLease).toMatchObject({ holder: 'worker-b', fencingToken: 2 });
    await later.append('job', [{ ...entries[0]!, id: 'continued', seq: revision + 1 }], { expectedRevision: revision, fencingToken: taken!.fencingToken });
    expect((await loadEntries(later, 'job')).map((entry) => entry.id).slice(-2)).toEqual([`worker-a-${revision}`, 'continued']);
    expect(existsSync(join(dir, 'job.jsonl.lock'))).toBe(false);
    // Stores keep a session's file open until closed.
    await Promise.all([later, stale].map((store) => store.close!('job')));
  });

  it('refuses a live worker whose lease was taken over, while the new holder writes', async () => {
    const worker = startWorker('slow', 'work', { holder: 'worker-a', ttlMs: 30_000 });
    await worker.line<{ stored?: number }>((value) => (value.stored ?? 0) >= 2);
    // worker-a still runs; its lease, seen from 60 s later, has run out.
    const successor = fileSessionStore({ dir, now: () => Date.now() + 60_000 });
    const taken = await successor.leases!.acquire('slow', { holder: 'worker-b', ttlMs: 600_000 });
    expect(taken?.fencingToken).toBe(2);
    const refusal = await worker.line<{ refused?: string; message?: string }>((value) => 'refused' in value);
    expect(refusal.refused).toBe('lease-lost');
    expect(refusal.message).toContain('"worker-b"');
    expect(await worker.exited).toBe(0);
    const entries = await loadEntries(successor, 'slow');
    const revision = entries.at(-1)!.seq;
    await successor.append('slow', [{ ...entries[0]!, id: 'worker-b-1', seq: revision + 1 }], { expectedRevision: revision, fencingToken: taken!.fencingToken });
    expect((await loadEntries(successor, 'slow')).every((entry, index) => entry.seq === index + 1)).toBe(true);
    await successor.close!('slow');
  });

  it('lets exactly one of two processes write when both append at the same revision under the same token', async () => {
    const store = fileSessionStore({ dir });
    const lease = await store.leases!.acquire('shared', { holder: 'worker', ttlMs: 600_000 });
    for (let round = 0; round < 2; round += 1) {
      const workers = ['left', 'right'].map((side) => startWorker('shared', 'append', { id: `${side}-${round}`, expectedRevision: round, fencingToken: lease!.fencingToken }));
      await Promise.all(workers.map((worker) => worker.line((value) => 'ready' in value)));
      for (const worker of workers) worker.go();
      const results = await Promise.all(workers.map((worker) => worker.line<{ ok: boolean; code?: string }>((value) => 'ok' in value)));
      expect(results.filter((result) => result.ok), JSON.stringify(results)).toHaveLength(1);
      expect(results.find((result) => !result.ok)?.code).toBe('session-conflict');
      await Promise.all(workers.map((worker) => worker.exited));
    }
    const entries = await loadEntries(store, 'shared');
    expect(entries.map((entry) => entry.seq)).toEqual([1, 2]);
  });
});
