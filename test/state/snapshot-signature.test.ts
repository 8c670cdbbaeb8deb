import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signSnapshot, verifySnapshotSignature } from '../../src/runtime/snapshot-signature.js';
import { canonicalJson } from '../../src/state/canonical-json.js';

const key = 'k'.repeat(32);

describe('snapshot signatures', () => {
  it('canonical JSON sorts keys at every level and leaves out undefined fields', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: undefined } })).toBe('{"a":{"d":[1,{"y":2,"z":1}]},"b":1}');
  });

  it('is an HMAC-SHA-256 of the canonical JSON without $signature (checked against node:crypto)', () => {
    const snapshot = { revision: 3, sessionId: 's', nested: { b: 2, a: 1 } };
    const expected = createHmac('sha256', key).update(canonicalJson(snapshot)).digest('hex');
    expect(signSnapshot(snapshot, key)).toBe(`hmac-sha256:${expected}`);
    expect(signSnapshot({ ...snapshot, $signature: 'anything' }, key)).toBe(`hmac-sha256:${expected}`);
  });

  it('verifies whatever the key order, and refuses any change, another key, or no signature', () => {
    const snapshot: Record<string, unknown> = { sessionId: 's', revision: 1, messages: [{ role: 'user', content: 'hi' }] };
    snapshot.$signature = signSnapshot(snapshot, key);
    const reordered = JSON.parse(JSON.stringify({ messages: snapshot.messages, $signature: snapshot.$signature, revision: 1, sessionId: 's' }));
    expect(verifySnapshotSignature(reordered, key)).toBe(true);
    expect(verifySnapshotSignature({ ...snapshot, revision: 2 }, key)).toBe(false);
    expect(verifySnapshotSignature({ ...snapshot, messages: [{ role: 'user', content: 'hi!' }] }, key)).toBe(false);
    expect(verifySnapshotSignature(snapshot, 'x'.repeat(32))).toBe(false);
    expect(verifySnapshotSignature({ ...snapshot, $signature: undefined }, key)).toBe(false);
    expect(verifySnapshotSignature({ ...snapshot, $signature: 'hmac-sha256:00' }, key)).toBe(false);
  });
});
