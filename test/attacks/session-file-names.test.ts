// Attack class: two session ids that name one transcript file. On a case-insensitive file system
// (macOS, Windows) `Alpha.jsonl` opens `alpha.jsonl`; a link does the same anywhere. Simulated
// here with a link, which is what the OS resolves either way: the second id must never read,
// append to or delete the first session's transcript.
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigurationError, createAgent, forkSession, type SessionStoreWarning } from 'agent-harness';
import { fileSessionStore } from 'agent-harness/node';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { counting } from './counting-write.js';

const dir = mkdtempSync(join(tmpdir(), 'attack-file-names-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('attack: two session ids, one transcript file', () => {
  it('a second id whose file resolves to the first session’s: resume, fork, append, load and delete are refused naming both files; the first session is untouched', async () => {
    const { runs, tools } = counting();
    const alpha = createAgent({ sessionId: 'Alpha', model: scriptedModel([turn(toolCall('write', { text: 'secret' }, 'toolu_a'))]), tools, store: fileSessionStore({ dir }) });
    await alpha.run('Write the secret.').result;
    expect(alpha.pendingApprovals).toHaveLength(1);
    await alpha.close();
    const original = readFileSync(join(dir, 'Alpha.jsonl'), 'utf8');
    // What a case-insensitive file system does for "alpha": the same file under another name.
    symlinkSync('Alpha.jsonl', join(dir, 'alpha.jsonl'));

    const store = fileSessionStore({ dir });
    const model = scriptedModel(['x']);
    const intruder = createAgent({ model, tools, store, resume: 'alpha' });
    const error = await intruder.ready.then(() => undefined, (caught: unknown) => caught);
    expect(ConfigurationError.isInstance(error), String(error)).toBe(true);
    expect((error as Error).message).toMatch(/session "alpha".*is the file .*Alpha\.jsonl.*differ in more than letter case/s);
    await expect(forkSession(store, 'alpha')).rejects.toThrow(/is the file .*Alpha\.jsonl/);
    const load = async () => {
      for await (const entry of store.load('alpha')) void entry;
    };
    await expect(load()).rejects.toThrow(/is the file .*Alpha\.jsonl/);
    const entry = { $schemaVersion: 2, id: 'x1', parentId: null, seq: 1, timestamp: new Date().toISOString(), sessionId: 'alpha', kind: 'run-start' } as never;
    await expect(store.append('alpha', [entry], { expectedRevision: 0 })).rejects.toThrow(/is the file .*Alpha\.jsonl/);
    await store.close!('alpha');
    await expect(store.delete('alpha')).rejects.toThrow(/is the file .*Alpha\.jsonl/);

    // The inbox lists the waiting session once, under its own name, and is not taken down.
    expect((await store.listPending!()).map((session) => session.sessionId)).toEqual(['Alpha']);

    expect(readFileSync(join(dir, 'Alpha.jsonl'), 'utf8')).toBe(original);
    expect(model.requests).toEqual([]);
    const resumed = createAgent({ model: scriptedModel(['done']), tools, store: fileSessionStore({ dir }), resume: 'Alpha' });
    await resumed.ready;
    await resumed.resolveApproval(resumed.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
    expect(runs).toEqual(['secret']);
    await resumed.close();
  });

  it('a refused append leaves no lock behind (on a case-insensitive file system it is the other session’s lock), and list() shows the session once, under its own name', async () => {
    const own = mkdtempSync(join(dir, 'lock-'));
    const beta = createAgent({ sessionId: 'Beta', model: scriptedModel(['Hi.']), store: fileSessionStore({ dir: own }) });
    await beta.run('Hello.').result;
    await beta.close();
    symlinkSync('Beta.jsonl', join(own, 'beta.jsonl'));
    const warnings: SessionStoreWarning[] = [];
    const store = fileSessionStore({ dir: own, onWarning: (warning) => warnings.push(warning) });
    const entry = { $schemaVersion: 2, id: 'x1', parentId: null, seq: 1, timestamp: new Date().toISOString(), sessionId: 'beta', kind: 'run-start' } as never;
    await expect(store.append('beta', [entry], { expectedRevision: 0 })).rejects.toThrow(/is the file .*Beta\.jsonl/);
    // No close(): the refusal released what the append took at once.
    expect(existsSync(join(own, 'beta.jsonl.lock'))).toBe(false);
    // Another process appending under the same name is told the same, not that the session is locked.
    const other = fileSessionStore({ dir: own, lockWaitMs: 0 });
    await expect(other.append('beta', [entry], { expectedRevision: 0 })).rejects.toThrow(/is the file .*Beta\.jsonl/);
    await expect(store.delete('beta')).rejects.toThrow(/is the file .*Beta\.jsonl/);
    // list() agrees with load(), delete() and listPending(): the link is not a session of its own.
    expect(await store.list()).toEqual(['Beta']);
    expect(warnings.map((warning) => warning.sessionId)).toContain('beta');
    expect(readFileSync(join(own, 'Beta.jsonl'), 'utf8').split('\n').filter(Boolean)).toHaveLength(beta.snapshot().revision);
  });

  it('a link to another session’s name that pointed nowhere when the append began: the append is refused and its lock released at once', async () => {
    const own = mkdtempSync(join(dir, 'dangling-'));
    symlinkSync('Gamma.jsonl', join(own, 'gamma.jsonl'));
    const store = fileSessionStore({ dir: own });
    const entry = { $schemaVersion: 2, id: 'g1', parentId: null, seq: 1, timestamp: new Date().toISOString(), sessionId: 'gamma', kind: 'run-start' } as never;
    await expect(store.append('gamma', [entry], { expectedRevision: 0 })).rejects.toThrow(/is the file .*Gamma\.jsonl/);
    expect(existsSync(join(own, 'gamma.jsonl.lock'))).toBe(false);
    // Nothing was created through the link: no empty file under the other session's name.
    expect(existsSync(join(own, 'Gamma.jsonl'))).toBe(false);
    expect(await store.list()).toEqual([]);
  });

  it('the same link with lock files off (no check before the lock): the append is refused, and nothing is created through the link', async () => {
    const own = mkdtempSync(join(dir, 'dangling-unlocked-'));
    symlinkSync('Epsilon.jsonl', join(own, 'epsilon.jsonl'));
    const store = fileSessionStore({ dir: own, lock: false });
    const entry = { $schemaVersion: 2, id: 'e1', parentId: null, seq: 1, timestamp: new Date().toISOString(), sessionId: 'epsilon', kind: 'run-start' } as never;
    await expect(store.append('epsilon', [entry], { expectedRevision: 0 })).rejects.toThrow(/is the file .*Epsilon\.jsonl/);
    expect(existsSync(join(own, 'Epsilon.jsonl'))).toBe(false);
    expect(await store.list()).toEqual([]);
  });

  it('a link to a transcript of the same name elsewhere is still followed: the session is appended to where it points', async () => {
    const own = mkdtempSync(join(dir, 'same-name-'));
    const elsewhere = mkdtempSync(join(dir, 'elsewhere-'));
    writeFileSync(join(elsewhere, 'delta.jsonl'), '');
    symlinkSync(join(elsewhere, 'delta.jsonl'), join(own, 'delta.jsonl'));
    const store = fileSessionStore({ dir: own });
    const entry = { $schemaVersion: 2, id: 'd1', parentId: null, seq: 1, timestamp: new Date().toISOString(), sessionId: 'delta', kind: 'run-start' } as never;
    await store.append('delta', [entry], { expectedRevision: 0 });
    await store.close!('delta');
    expect(JSON.parse(readFileSync(join(elsewhere, 'delta.jsonl'), 'utf8')).id).toBe('d1');
  });

  it('a lease file that is another session’s (ids that differ only in case share one on a case-insensitive file system) is refused, expired or not; the owner’s lease is untouched', async () => {
    const own = mkdtempSync(join(dir, 'lease-'));
    let now = 1_000;
    const store = fileSessionStore({ dir: own, now: () => now });
    const held = await store.leases!.acquire('Omega', { holder: 'worker-1', ttlMs: 60_000 });
    expect(held?.fencingToken).toBe(1);
    // What a case-insensitive file system does for "omega": the same lease file under another name.
    symlinkSync('Omega.jsonl.lease', join(own, 'omega.jsonl.lease'));
    const before = readFileSync(join(own, 'Omega.jsonl.lease'), 'utf8');
    await expect(store.leases!.acquire('omega', { holder: 'worker-2', ttlMs: 60_000 })).rejects.toThrow(/lease file of session "omega".*holds the lease of session "Omega".*differ in more than letter case/s);
    now += 120_000;
    // Expired, the other session's lease is still not this one's to take over (with the next token).
    await expect(store.leases!.acquire('omega', { holder: 'worker-2', ttlMs: 60_000 })).rejects.toThrow(ConfigurationError);
    const entry = { $schemaVersion: 2, id: 'o1', parentId: null, seq: 1, timestamp: new Date().toISOString(), sessionId: 'omega', kind: 'run-start' } as never;
    await expect(store.append('omega', [entry], { expectedRevision: 0, fencingToken: 1 })).rejects.toThrow(/holds the lease of session "Omega"/);
    expect(readFileSync(join(own, 'Omega.jsonl.lease'), 'utf8')).toBe(before);
    expect(existsSync(join(own, 'omega.jsonl'))).toBe(false);
    // The owner goes on with the next token.
    expect((await store.leases!.acquire('Omega', { holder: 'worker-1', ttlMs: 60_000 }))?.fencingToken).toBe(2);
  });

  it('a session whose transcript is another session’s file takes no lease (its lease file would be the other’s too)', async () => {
    const own = mkdtempSync(join(dir, 'lease-transcript-'));
    const sigma = createAgent({ sessionId: 'Sigma', model: scriptedModel(['Hi.']), store: fileSessionStore({ dir: own }) });
    await sigma.run('Hello.').result;
    await sigma.close();
    symlinkSync('Sigma.jsonl', join(own, 'sigma.jsonl'));
    const store = fileSessionStore({ dir: own });
    await expect(store.leases!.acquire('sigma', { holder: 'worker-2', ttlMs: 60_000 })).rejects.toThrow(/session "sigma".*is the file .*Sigma\.jsonl/s);
    expect(existsSync(join(own, 'sigma.jsonl.lease'))).toBe(false);
    expect(existsSync(join(own, 'Sigma.jsonl.lease'))).toBe(false);
    expect((await store.leases!.acquire('Sigma', { holder: 'worker-1', ttlMs: 60_000 }))?.fencingToken).toBe(1);
  });
});
