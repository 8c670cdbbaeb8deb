// Attack class: two session ids that name one transcript file. On a case-insensitive file system
// (macOS, Windows) `Alpha.jsonl` opens `alpha.jsonl`; a link does the same anywhere. Simulated
// here with a link, which is what the OS resolves either way: the second id must never read,
// append to or delete the first session's transcript.
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
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
    // Nothing of "gamma" is in the other session's file.
    expect(readFileSync(join(own, 'Gamma.jsonl'), 'utf8')).toBe('');
  });
});
