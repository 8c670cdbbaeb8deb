import { twoLaneHash } from '../ids/two-lane-hash.js';
import { placelessJson } from '../session/entry-id-clash.js';
import type { SessionEntry } from '../state/entries.js';

/**
 * A short digest of an entry's content apart from where it is stored (two 32-bit FNV-1a style
 * hashes of its placeless JSON, in hex): the Redis store keeps it per entry id, so its append
 * script tells the same entry again (a copy) from other content under a taken id without reading
 * the stored entry. Not cryptographic: two contents with one digest would let the clash through,
 * and the session then fails to load with `SessionStoreCorruptError` as before.
 */
export function entryDigest(entry: SessionEntry): string {
  const text = placelessJson(entry);
  const { fnv, mixed } = twoLaneHash(text, 0x01000193 ^ text.length);
  return fnv + mixed;
}
