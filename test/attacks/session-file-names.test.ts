// Attack class: two session ids that name one transcript file. On a case-insensitive file system
// (macOS, Windows) `Alpha.jsonl` opens `alpha.jsonl`; a link does the same anywhere. Simulated
// here with a link, which is what the OS resolves either way: the second id must never read,
// append to or delete the first session's transcript.
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigurationError, createAgent, forkSession } from 'agent-harness';
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
});
