import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createAgent, memorySessionStore, UnsupportedSchemaVersionError, type AgentSnapshot, type SessionEntry } from 'agent-harness';
import { scriptedModel } from 'agent-harness/testing';
import { notesTools } from '../fixtures/notes-tools.js';

// Written by released versions and never edited: every version listed here must keep loading.
const fixtures = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/persisted');
const { readNote, writeNote } = notesTools('/dev/null');
const tools = [readNote, writeNote];
const VERSIONS = [1, 2];

const snapshotOf = (version: number) => JSON.parse(readFileSync(join(fixtures, `snapshot-v${version}-awaiting-approval.json`), 'utf8'));
const entriesOf = (version: number) =>
  readFileSync(join(fixtures, `transcript-v${version}-awaiting-approval.jsonl`), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as SessionEntry);

/** The parts of the state both formats of one version describe alike (usage per message is not in a v1 snapshot). */
function comparable(snapshot: AgentSnapshot) {
  const { revision: _revision, messageUsage: _usage, lastUsage: _last, prefix: _prefix, openBatch, ...rest } = snapshot;
  return { ...rest, openBatch: { calls: openBatch?.calls.map(({ toolUseId, toolName, state, approval }) => ({ toolUseId, toolName, state, input: approval?.input })) } };
}

describe.each(VERSIONS)('persisted formats of version %i', (version) => {
  it('the snapshot loads and continues', async () => {
    const model = scriptedModel(['Done.']);
    const agent = createAgent({ model, tools, resume: snapshotOf(version), rules: { ask: ['write_note'] } });
    expect(agent.sessionId).toBe(`session_fixture_v${version}`);
    expect(agent.permissionMode).toBe('acceptEdits');
    expect(agent.todos).toEqual([{ content: 'Update notes', status: 'in_progress', activeForm: 'Updating notes' }]);
    expect(agent.pendingApprovals.map((approval) => approval.toolUseId)).toEqual(['toolu_write']);
    const result = await agent.resolveApproval(agent.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
    expect(result.status).toBe('completed');
  });

  it('the transcript rebuilds the same state as the snapshot', async () => {
    const store = memorySessionStore();
    await store.append(`session_fixture_v${version}`, entriesOf(version), { expectedRevision: 0 });
    const fromStore = createAgent({ model: scriptedModel([]), tools, store, resume: `session_fixture_v${version}` });
    await fromStore.ready;
    const fromSnapshot = createAgent({ model: scriptedModel([]), tools, resume: snapshotOf(version) });
    expect(comparable(fromStore.snapshot())).toEqual(comparable(fromSnapshot.snapshot()));
  });
});

describe('persisted formats of unknown versions', () => {
  it('a snapshot of an unknown version fails with an error naming the supported versions', () => {
    const snapshot = { ...snapshotOf(2), $schemaVersion: 99 };
    expect(() => createAgent({ model: scriptedModel([]), tools, resume: snapshot })).toThrow(UnsupportedSchemaVersionError);
    expect(() => createAgent({ model: scriptedModel([]), tools, resume: snapshot })).toThrow(/\$schemaVersion 99.*reads \$schemaVersion 1, 2/);
  });
});
