import { hmac } from '@noble/hashes/hmac';
import { sha256 } from '@noble/hashes/sha2';
import { canonicalJson } from '../state/canonical-json.js';

const PREFIX = 'hmac-sha256:';

/** A key for signing snapshots: a string (UTF-8) or bytes, at least 32 bytes of secret. */
export type SnapshotKey = string | Uint8Array;

function keyBytes(key: SnapshotKey): Uint8Array {
  return typeof key === 'string' ? new TextEncoder().encode(key) : key;
}

function hex(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += byte.toString(16).padStart(2, '0');
  return text;
}

/** The signature of a snapshot (every field but `$signature`), over its canonical JSON. */
export function signSnapshot(snapshot: Record<string, unknown>, key: SnapshotKey): string {
  const { $signature: _ignored, ...rest } = snapshot;
  return PREFIX + hex(hmac(sha256, keyBytes(key), new TextEncoder().encode(canonicalJson(rest))));
}

/** Whether a snapshot's `$signature` is the one `key` gives (compared in constant time). */
export function verifySnapshotSignature(snapshot: Record<string, unknown>, key: SnapshotKey): boolean {
  const given = snapshot.$signature;
  if (typeof given !== 'string') return false;
  const expected = signSnapshot(snapshot, key);
  if (given.length !== expected.length) return false;
  let difference = 0;
  for (let index = 0; index < expected.length; index++) difference |= given.charCodeAt(index) ^ expected.charCodeAt(index);
  return difference === 0;
}
