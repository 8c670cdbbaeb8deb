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
    if (offset === POOL_BYTES) refill();
    id += urlAlphabet[pool[offset++]! & 63];
  }
  return id;
}

const LOWER_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
/** The largest multiple of 36 a byte can hold: bytes from here up are drawn again, so each character is equally likely. */
const LOWER_LIMIT = 252;

/**
 * A random id of `size` lower-case letters and digits (36 characters, about 5.2 bits each), from
 * the same pool as {@link randomId}: subagent ids, which name plan files
 * (`{slug}-agent-{agentId}.md`) and so must not depend on a file system's case.
 */
export function randomLowercaseId(size: number): string {
  let id = '';
  while (id.length < size) {
    if (offset === POOL_BYTES) refill();
    const byte = pool[offset++]!;
    if (byte < LOWER_LIMIT) id += LOWER_ALPHABET[byte % 36];
  }
  return id;
}

function refill(): void {
  globalThis.crypto.getRandomValues(pool);
  offset = 0;
}
