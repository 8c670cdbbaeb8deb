import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createAgent, memorySessionStore, UnsupportedSchemaVersionError, type SessionEntry } from 'agent-harness';
import { scriptedModel } from 'agent-harness/testing';
import { notesTools } from '../fixtures/notes-tools.js';

// Written by released versions and never edited: every version listed here must keep loading.
const fixtures = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/persisted');
const { readNote, writeNote } = notesTools('/dev/null');
const tools = [readNote, writeNote];

describe('persisted formats of earlier versions', () => {
  it('snapshot v1 awaiting approval: loads and continues', async () => {
    const snapshot = JSON.parse(readFileSync(join(fixtures, 'snapshot-v1-awaiting-approval.json'), 'utf8'));
    const model = scriptedModel(['Done.']);
    const agent = createAgent({ model, tools, resume: snapshot, rules: { ask: ['write_note'] } });
    expect(agent.sessionId).toBe('session_fixture_v1');
    expect(agent.permissionMode).toBe('acceptEdits');
    expect(agent.todos).toEqual([{ content: 'Update notes', status: 'in_progress', activeForm: 'Updating notes' }]);
    expect(agent.pendingApprovals.map((approval) => approval.toolUseId)).toEqual(['toolu_write']);
    const result = await agent.resolveApproval(agent.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
    expect(result.status).toBe('completed');
  });

  it('transcript v1 awaiting approval: rebuilds the same state as the snapshot', async () => {
    const store = memorySessionStore();
    const lines = readFileSync(join(fixtures, 'transcript-v1-awaiting-approval.jsonl'), 'utf8').trim().split('\n');
    await store.append('session_fixture_v1', lines.map((line) => JSON.parse(line) as SessionEntry), { expectedRevision: 0 });
    const agent = createAgent({ model: scriptedModel([]), tools, store, resume: 'session_fixture_v1' });
    await agent.ready;
    const snapshot = JSON.parse(readFileSync(join(fixtures, 'snapshot-v1-awaiting-approval.json'), 'utf8'));
    expect(agent.snapshot()).toEqual(snapshot);
  });

  it('a snapshot of an unknown version fails with an error naming the supported versions', () => {
    const snapshot = { ...JSON.parse(readFileSync(join(fixtures, 'snapshot-v1-awaiting-approval.json'), 'utf8')), $schemaVersion: 2 };
    expect(() => createAgent({ model: scriptedModel([]), tools, resume: snapshot })).toThrow(UnsupportedSchemaVersionError);
    expect(() => createAgent({ model: scriptedModel([]), tools, resume: snapshot })).toThrow(/\$schemaVersion 2.*reads \$schemaVersion 1/);
  });
});
