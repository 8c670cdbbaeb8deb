import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionLockedError } from '../../src/errors/index.js';
import { fileSessionStore } from '../../src/node/file-session-store.js';
import type { SessionStore, SessionStoreWarning } from '../../src/session/session-store.js';
import { appendAsLoaded, appendEntries, loadAll, makeEntries, textOf } from '../session/session-entries.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const child = join(here, 'fixtures/session-writer.child.ts');
const childArgs = (sessionId: string, mode: string) => ['--import', 'tsx', child, dir, sessionId, mode];

let dir: string;
const stores: Array<{ store: SessionStore; sessions: string[] }> = [];

function storeFor(sessions: string[], options: Partial<Parameters<typeof fileSessionStore>[0]> = {}): SessionStore {
  const store = fileSessionStore({ dir, ...options });
  stores.push({ store, sessions });
  return store;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'file-session-lock-'));
});

afterEach(async () => {
  for (const { store, sessions } of stores.splice(0)) {
    for (const sessionId of sessions) await store.close?.(sessionId).catch(() => undefined);
  }
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the child writer to the end and returns its last JSON line. */
async function runChild(sessionId: string, mode: string): Promise<{ ok: boolean; code?: string; message?: string; pid?: number }> {
  const { stdout } = await promisify(execFile)(process.execPath, childArgs(sessionId, mode), { cwd: root });
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

/** Runs the child until it is killed by SIGKILL; resolves with its pid. */
function runChildToDeath(sessionId: string, mode: string): Promise<number> {
  return new Promise((resolvePid, reject) => {
    const process_ = spawn(process.execPath, childArgs(sessionId, mode), { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    process_.on('error', reject);
    process_.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolvePid(process_.pid!) : reject(new Error(`child exited with ${code ?? signal}`))));
  });
}

const lockOf = (sessionId: string) => join(dir, `${sessionId}.jsonl.lock`);

describe('fileSessionStore: one writer per session', () => {
  it('takes a lock file naming this process on the first append, and releases it on close', async () => {
    const store = storeFor(['s']);
    const next = makeEntries('s');
    await appendEntries(store, 's', [next('one')]);
    expect(JSON.parse(readFileSync(lockOf('s'), 'utf8'))).toMatchObject({ pid: process.pid, hostname: hostname(), createdAt: expect.any(String) });
    await store.close?.('s');
    expect(existsSync(lockOf('s'))).toBe(false);
    // Usable again after close: the lock is taken anew.
    await appendEntries(store, 's', [next('two')]);
    expect(existsSync(lockOf('s'))).toBe(true);
    expect((await loadAll(store.load('s'))).map(textOf)).toEqual(['one', 'two']);
  });

  it('refuses a second store instance in the same process, with a clear error', async () => {
    const first = storeFor(['s']);
    const second = storeFor(['s']);
    await appendEntries(first, 's', [makeEntries('s')('first')]);
    const error = await appendEntries(second, 's', [makeEntries('s')('second')]).catch((caught: unknown) => caught);
    expect(SessionLockedError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'session-locked', sessionId: 's', lockFile: lockOf('s'), holder: { pid: process.pid } });
    const { message } = error as Error;
    expect(message).toContain('Session "s"');
    expect(message).toContain(join(dir, 's.jsonl'));
    expect(message).toContain(`this process (pid ${process.pid})`);
    expect(message).toMatch(/store\.close\(sessionId\)/);
    // Reading is always allowed; deleting under a live writer is not.
    expect((await loadAll(second.load('s'))).map(textOf)).toEqual(['first']);
    await expect(second.delete('s')).rejects.toSatisfy(SessionLockedError.isInstance);
    // Once the first closes, the second may write.
    await first.close?.('s');
    await appendAsLoaded(second, 's', 'second');
  });

  it('lets two instances write different sessions, and skips locking with lock: false', async () => {
    const first = storeFor(['a']);
    const second = storeFor(['b']);
    await appendEntries(first, 'a', [makeEntries('a')('a')]);
    await appendEntries(second, 'b', [makeEntries('b')('b')]);
    const unlocked = storeFor(['c'], { lock: false });
    await appendEntries(unlocked, 'c', [makeEntries('c')('c')]);
    expect(existsSync(lockOf('c'))).toBe(false);
  });

  it('refuses a writer in another process while this one holds the session', async () => {
    const store = storeFor(['s']);
    await appendEntries(store, 's', [makeEntries('s')('parent')]);
    const outcome = await runChild('s', 'append');
    expect(outcome).toMatchObject({ ok: false, code: 'session-locked' });
    expect(outcome.message).toContain(`pid ${process.pid} on host`);
    expect((await loadAll(store.load('s'))).map(textOf)).toEqual(['parent']);
  });

  it('is refused while a live child process holds the session; the child releases its lock on exit', async () => {
    const holder = spawn(process.execPath, childArgs('s', 'hold'), { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
    const exited = new Promise<number | null>((done) => holder.on('exit', (code) => done(code)));
    const lines = createInterface({ input: holder.stdout! });
    const [first] = await new Promise<string[]>((done) => lines.once('line', (line) => done([line])));
    expect(JSON.parse(first!)).toEqual({ held: true });

    const store = storeFor(['s']);
    const error = await appendEntries(store, 's', [makeEntries('s')('parent')]).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'session-locked', holder: { pid: holder.pid, hostname: hostname() } });
    expect((error as Error).message).toContain(`pid ${holder.pid} on host`);

    holder.stdin!.end();
    expect(await exited).toBe(0);
    expect(existsSync(lockOf('s'))).toBe(false);
    await appendAsLoaded(store, 's', 'parent');
    expect((await loadAll(store.load('s'))).length).toBe(2);
  });

  it('takes over the stale lock of a process killed while writing', async () => {
    const deadPid = await runChildToDeath('s', 'append-then-kill');
    expect(JSON.parse(readFileSync(lockOf('s'), 'utf8'))).toMatchObject({ pid: deadPid });
    const store = storeFor(['s']);
    await appendAsLoaded(store, 's', 'after takeover');
    expect(JSON.parse(readFileSync(lockOf('s'), 'utf8'))).toMatchObject({ pid: process.pid });
    expect(await loadAll(store.load('s'))).toHaveLength(2);
  });

  it('lets exactly one of several stores take over the same stale lock', async () => {
    await runChildToDeath('s', 'append-then-kill');
    const contenders = Array.from({ length: 5 }, () => storeFor(['s']));
    const outcomes = await Promise.allSettled(contenders.map((store, index) => appendAsLoaded(store, 's', `contender ${index}`)));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') expect(SessionLockedError.isInstance(outcome.reason)).toBe(true);
    }
    expect(await loadAll(contenders[0]!.load('s'))).toHaveLength(2);
  });

  it('deletes a session whose writer died, stale lock included', async () => {
    await runChildToDeath('s', 'append-then-kill');
    const store = storeFor([]);
    await store.delete('s');
    expect(existsSync(join(dir, 's.jsonl'))).toBe(false);
    expect(existsSync(lockOf('s'))).toBe(false);
  });

  it('takes over a lock with its own pid that it does not hold (a previous process with the same pid)', async () => {
    writeFileSync(lockOf('s'), JSON.stringify({ pid: process.pid, hostname: hostname(), createdAt: '2020-01-01T00:00:00.000Z' }));
    const store = storeFor(['s']);
    await appendEntries(store, 's', [makeEntries('s')('x')]);
    expect(JSON.parse(readFileSync(lockOf('s'), 'utf8')).createdAt).not.toBe('2020-01-01T00:00:00.000Z');
  });

  it('refuses locks it cannot judge: another host, or an unreadable lock file', async () => {
    const store = storeFor([]);
    writeFileSync(lockOf('remote'), JSON.stringify({ pid: 1234, hostname: 'some-other-host', createdAt: '2026-01-01T00:00:00.000Z' }));
    const remote = await appendEntries(store, 'remote', [makeEntries('remote')('x')]).catch((caught: unknown) => caught);
    expect(SessionLockedError.isInstance(remote)).toBe(true);
    expect((remote as Error).message).toMatch(/pid 1234 on host "some-other-host", since 2026-01-01T00:00:00\.000Z.*delete .*remote\.jsonl\.lock/);

    writeFileSync(lockOf('empty'), '');
    const empty = await appendEntries(store, 'empty', [makeEntries('empty')('x')]).catch((caught: unknown) => caught);
    expect((empty as Error).message).toMatch(/empty or unreadable/);
    expect(existsSync(join(dir, 'remote.jsonl'))).toBe(false);
  });

  it('takes over an unreadable lock file that has stayed unreadable for a while (its writer died creating it)', async () => {
    writeFileSync(lockOf('s'), '');
    const aMinuteAgo = new Date(Date.now() - 60_000);
    utimesSync(lockOf('s'), aMinuteAgo, aMinuteAgo);
    const store = storeFor(['s']);
    await appendEntries(store, 's', [makeEntries('s')('x')]);
    expect(JSON.parse(readFileSync(lockOf('s'), 'utf8'))).toMatchObject({ pid: process.pid });
  });

  it('loads whatever a writer killed at a random moment left: a prefix of its appends, then appends after it', async () => {
    for (let round = 0; round < 3; round += 1) {
      const sessionId = `crash-${round}`;
      // The child prints each stored number; kill it at a varying point after some progress.
      const killAfter = 3 + round * 7;
      const written = await new Promise<number>((done, reject) => {
        const writer = spawn(process.execPath, childArgs(sessionId, 'append-loop'), { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
        let stored = -1;
        createInterface({ input: writer.stdout! }).on('line', (line) => {
          stored = Number(line);
          if (stored === killAfter) writer.kill('SIGKILL');
        });
        writer.on('error', reject);
        writer.on('exit', () => done(stored + 1));
      });
      const store = storeFor([sessionId]);
      const warnings: SessionStoreWarning[] = [];
      const loaded = await loadAll(store.load(sessionId, { onWarning: (warning) => warnings.push(warning) }));
      const seqs = loaded.map((entry) => (entry as { value: { seq: number } }).value.seq);
      // Everything acknowledged is there, in order, and at most a torn tail was skipped.
      expect(seqs.length).toBeGreaterThanOrEqual(written);
      expect(seqs).toEqual(seqs.map((_, index) => index));
      expect(warnings.length).toBeLessThanOrEqual(1);
      await appendAsLoaded(store, sessionId, 'resumed');
      const after = await loadAll(store.load(sessionId));
      expect(after).toHaveLength(seqs.length + 1);
      expect(textOf(after.at(-1)!)).toBe('resumed');
    }
  });
});
