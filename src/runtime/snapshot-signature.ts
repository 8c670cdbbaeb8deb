import { hmac } from '@noble/hashes/hmac';
import { sha256 } from '@noble/hashes/sha2';
import { canonicalJson } from '../state/canonical-json.js';

const PREFIX = 'hmac-sha256:';

/** A key for signing snapshots: a string (UTF-8) or bytes, at least 32 bytes of secret. */
export type SnapshotKey = string | Uint8Array;

/** One key, or the keys of a rotation: the first signs, every one verifies. */
export type SnapshotKeys = SnapshotKey | readonly SnapshotKey[];

/** The least length of a key, in bytes. */
export const MIN_SNAPSHOT_KEY_BYTES = 32;

/** A key's length in bytes (UTF-8 for a string). */
export function snapshotKeyBytes(key: SnapshotKey): number {
  return keyBytes(key).length;
}

/**
 * The keys as a frozen list of copies: a host that changes its list or zeroes its buffers
 * afterwards (clearing a secret from memory) must not leave snapshots signed, or checked, with
 * what it wrote there.
 */
export function copySnapshotKeys(keys: SnapshotKeys): readonly SnapshotKey[] {
  return Object.freeze(keyList(keys).map((key) => (typeof key === 'string' ? key : key.slice())));
}

/** The key that signs: the only one, or the first of a rotation. */
export function signingKey(keys: SnapshotKeys): SnapshotKey {
  return keyList(keys)[0]!;
}

/** One key as a list of one, a rotation as it is. */
function keyList(keys: SnapshotKeys): readonly SnapshotKey[] {
  return typeof keys === 'string' || keys instanceof Uint8Array ? [keys] : keys;
}

function keyBytes(key: SnapshotKey): Uint8Array {
  return typeof key === 'string' ? new TextEncoder().encode(key) : key;
}

function hex(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += byte.toString(16).padStart(2, '0');
  return text;
}

/** What a snapshot's signature covers: every field but `$signature`, as canonical JSON bytes. */
function signedBytes(snapshot: Record<string, unknown>): Uint8Array {
  const { $signature: _ignored, ...rest } = snapshot;
  return new TextEncoder().encode(canonicalJson(rest));
}

function signatureOf(bytes: Uint8Array, key: SnapshotKey): string {
  return PREFIX + hex(hmac(sha256, keyBytes(key), bytes));
}

/** The signature of a snapshot (every field but `$signature`), over its canonical JSON. */
export function signSnapshot(snapshot: Record<string, unknown>, key: SnapshotKey): string {
  return signatureOf(signedBytes(snapshot), key);
}

/**
 * Whether a snapshot's `$signature` is the one `key` (or one of the keys of a rotation) gives,
 * compared in constant time. The snapshot is serialized once, whatever the number of keys.
 */
export function verifySnapshotSignature(snapshot: Record<string, unknown>, keys: SnapshotKeys): boolean {
  const given = snapshot.$signature;
  if (typeof given !== 'string') return false;
  const bytes = signedBytes(snapshot);
  return keyList(keys).some((key) => sameInConstantTime(given, signatureOf(bytes, key)));
}

function sameInConstantTime(given: string, expected: string): boolean {
  if (given.length !== expected.length) return false;
  let difference = 0;
  for (let index = 0; index < expected.length; index++) difference |= given.charCodeAt(index) ^ expected.charCodeAt(index);
  return difference === 0;
}
