// Rotating the snapshot key: `snapshotKey` takes a list, the first key signs, every key verifies,
// so approvals that wait (for days) across a rotation still resume, and a key taken out of the
// list stops verifying.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigurationError, createAgent, defineTool, memorySessionStore, SnapshotInvalidError, type AgentSnapshot } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { verifySnapshotSignature } from '../../src/runtime/snapshot-signature.js';

const oldKey = 'old-0123456789abcdef0123456789abcdef';
const newKey = 'new-0123456789abcdef0123456789abcdef';
const nextKey = new TextEncoder().encode('next-0123456789abcdef0123456789abcdef');

function writer() {
  const runs: string[] = [];
  const tool = defineTool({ name: 'write', description: 'Writes.', inputSchema: z.object({ text: z.string() }), execute: ({ input }) => (runs.push(input.text), 'written') });
  return { runs, tools: [tool] };
}

/** A snapshot holding one waiting approval, signed by an agent with `snapshotKey`. */
async function waitingSnapshot(snapshotKey: Parameters<typeof createAgent>[0]['snapshotKey']): Promise<AgentSnapshot> {
  const { tools } = writer();
  const agent = createAgent({ model: scriptedModel([turn(toolCall('write', { text: 'x' }, 'toolu_w'))]), tools, snapshotKey });
  const result = await agent.run('go').result;
  expect(result.status).toBe('awaiting-approval');
  return JSON.parse(JSON.stringify(agent.snapshot())) as AgentSnapshot;
}

async function resumeAndApprove(snapshot: AgentSnapshot, snapshotKey: Parameters<typeof createAgent>[0]['snapshotKey']) {
  const { runs, tools } = writer();
  const agent = createAgent({ model: scriptedModel(['done']), tools, resume: snapshot, snapshotKey });
  await agent.ready;
  const [approval] = agent.pendingApprovals;
  const result = await agent.resolveApproval(approval!.id, { behavior: 'allow' }).result;
  return { result, runs, agent };
}

describe('snapshotKey rotation', () => {
  it('a snapshot signed with the old key resumes after rotation ([new, old]); the new agent signs with the new key', async () => {
    const snapshot = await waitingSnapshot(oldKey);
    const { result, runs, agent } = await resumeAndApprove(snapshot, [newKey, oldKey]);
    expect(result.status).toBe('completed');
    expect(runs).toEqual(['x']);
    const signed = JSON.parse(JSON.stringify(agent.snapshot())) as Record<string, unknown>;
    expect(verifySnapshotSignature(signed, newKey)).toBe(true);
    expect(verifySnapshotSignature(signed, oldKey)).toBe(false);
  });

  it('a snapshot signed with a key taken out of the list is refused, nothing run', async () => {
    const snapshot = await waitingSnapshot(oldKey);
    const { runs, tools } = writer();
    let error: unknown;
    try {
      createAgent({ model: scriptedModel(['done']), tools, resume: snapshot, snapshotKey: [nextKey, newKey] });
    } catch (caught) {
      error = caught;
    }
    expect(SnapshotInvalidError.isInstance(error), String(error)).toBe(true);
    expect(String((error as Error).message)).toMatch(/signed with another key/);
    expect(runs).toEqual([]);
  });

  it('with a store, the snapshot is checked against every key while loading', async () => {
    const snapshot = await waitingSnapshot(oldKey);
    const { tools } = writer();
    const accepted = createAgent({ model: scriptedModel(['done']), tools, store: memorySessionStore(), resume: snapshot, snapshotKey: [newKey, oldKey] });
    await accepted.ready;
    expect(accepted.pendingApprovals).toHaveLength(1);
    const refused = createAgent({ model: scriptedModel(['done']), tools, store: memorySessionStore(), resume: snapshot, snapshotKey: [newKey] });
    await expect(refused.ready).rejects.toSatisfy((caught: unknown) => SnapshotInvalidError.isInstance(caught));
  });

  it('a single-key list behaves like the single key', async () => {
    const snapshot = await waitingSnapshot([oldKey]);
    expect(verifySnapshotSignature(snapshot as unknown as Record<string, unknown>, oldKey)).toBe(true);
    const { result } = await resumeAndApprove(snapshot, oldKey);
    expect(result.status).toBe('completed');
  });

  it('the host changing its list or zeroing its buffers afterwards changes nothing', async () => {
    const keys: Array<string | Uint8Array> = [nextKey.slice(), oldKey];
    const { tools } = writer();
    const agent = createAgent({ model: scriptedModel([turn(toolCall('write', { text: 'x' }, 'toolu_w'))]), tools, snapshotKey: keys });
    (keys[0] as Uint8Array).fill(0);
    keys.splice(0, 2, 'attacker-key-attacker-key-attacker-key');
    await agent.run('go').result;
    const snapshot = JSON.parse(JSON.stringify(agent.snapshot())) as Record<string, unknown>;
    expect(verifySnapshotSignature(snapshot, nextKey)).toBe(true);

    const resumeKeys: Array<string | Uint8Array> = [newKey, nextKey.slice()];
    const resumed = createAgent({ model: scriptedModel(['done']), tools, store: memorySessionStore(), resume: snapshot as never, snapshotKey: resumeKeys });
    (resumeKeys[1] as Uint8Array).fill(0);
    resumeKeys.length = 0;
    await resumed.ready;
    expect(resumed.pendingApprovals).toHaveLength(1);
  });

  describe('is refused with a ConfigurationError that names the key and never shows it', () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ['an empty list', [], /`snapshotKey` must be .*non-empty list/],
      ['a short key in the list', [newKey, 'short-secret'], /`snapshotKey\[1\]` is 12 bytes; .*at least 32 bytes/],
      ['an empty string key', '', /`snapshotKey` is 0 bytes; .*at least 32 bytes/],
      ['a short Uint8Array', new Uint8Array(31), /`snapshotKey` is 31 bytes/],
      ['a number in the list', [newKey, 42], /`snapshotKey\[1\]` must be .*a string or a Uint8Array.*got a number/],
      ['a nested list', [[newKey]], /`snapshotKey\[0\]` must be .*a string or a Uint8Array/],
    ];
    it.each(cases)('%s', (_name, snapshotKey, message) => {
      let error: unknown;
      try {
        createAgent({ model: scriptedModel(['done']), snapshotKey: snapshotKey as never });
      } catch (caught) {
        error = caught;
      }
      expect(ConfigurationError.isInstance(error), String(error)).toBe(true);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain('short-secret');
    });
  });
});
