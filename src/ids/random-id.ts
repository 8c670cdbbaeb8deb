import { urlAlphabet } from 'nanoid';

/** Bytes drawn from the platform's CSPRNG per refill. */
const POOL_BYTES = 4096;
const pool = new Uint8Array(POOL_BYTES);
let offset = POOL_BYTES;

/**
 * A URL-safe random id of `size` characters (nanoid's alphabet of 64, so 6 bits of entropy each,
 * each character from one byte's low 6 bits, as nanoid does): session, run, approval and entry ids.
 * The bytes come from a pool refilled with `crypto.getRandomValues` (Web Crypto: Node, Deno, Bun,
 * browsers) and are read in place: one call into Web Crypto per id, or a typed-array view per id,
 * cost more than the rest of an agent's set-up; nanoid's Node build pools the same way.
 */
export function randomId(size = 21): string {
  let id = '';
  for (let index = 0; index < size; index++) {
    if (offset === POOL_BYTES) {
      globalThis.crypto.getRandomValues(pool);
      offset = 0;
    }
    id += urlAlphabet[pool[offset++]! & 63];
  }
  return id;
}
