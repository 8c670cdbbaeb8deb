// Attack class: snapshot keys given in other shapes. A host that clears its secret from memory
// after creating the agent (`key.fill(0)`) must not leave the agent signing, and later checking,
// with a key of zeros that anyone can forge with.
import { describe, expect, it } from 'vitest';
import { createAgent, memorySessionStore, SnapshotInvalidError } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { signSnapshot, verifySnapshotSignature } from '../../src/runtime/snapshot-signature.js';
import { counting } from './counting-write.js';

const secret = 'a3f1c2e4b5d6a7980112233445566778';

describe('attack: snapshot keys', () => {
  it('a key as a string and as its UTF-8 bytes sign alike: either one resumes the other’s snapshot', async () => {
    const { tools } = counting();
    const agent = createAgent({ model: scriptedModel([turn(toolCall('write', { text: 'x' }, 'toolu_k'))]), tools, snapshotKey: secret });
    await agent.run('go').result;
    const resumed = createAgent({ model: scriptedModel(['done']), tools, resume: JSON.parse(JSON.stringify(agent.snapshot())), snapshotKey: new TextEncoder().encode(secret) });
    await resumed.ready;
    expect(resumed.pendingApprovals).toHaveLength(1);
  });

  it('a key buffer zeroed by the host after createAgent: snapshots stay signed with the key as given, and one forged with zeros is refused', async () => {
    const { runs, tools } = counting();
    const key = new TextEncoder().encode(secret);
    const agent = createAgent({ model: scriptedModel([turn(toolCall('write', { text: 'x' }, 'toolu_k')), 'done']), tools, snapshotKey: key });
    key.fill(0);
    await agent.run('go').result;
    const snapshot = JSON.parse(JSON.stringify(agent.snapshot())) as Record<string, unknown>;
    expect(verifySnapshotSignature(snapshot, secret)).toBe(true);
    expect(verifySnapshotSignature(snapshot, new Uint8Array(32))).toBe(false);

    // An attacker who knows the host zeroes its buffers signs an altered snapshot with zeros. With
    // a store the snapshot is read while the agent loads, after the host zeroed its buffer.
    const forged: Record<string, unknown> = { ...snapshot, permissionMode: 'acceptEdits' };
    forged.$signature = signSnapshot(forged, new Uint8Array(key.length));
    const resumedKey = new TextEncoder().encode(secret);
    const resumed = createAgent({ model: scriptedModel(['done']), tools, store: memorySessionStore(), resume: forged as never, snapshotKey: resumedKey });
    resumedKey.fill(0);
    const error = await resumed.ready.then(() => undefined, (caught: unknown) => caught);
    expect(SnapshotInvalidError.isInstance(error), String(error)).toBe(true);
    expect(runs).toEqual([]);
  });
});
