import { customRandom, urlAlphabet } from 'nanoid';

/** Bytes drawn from the platform's CSPRNG per refill. */
const POOL_BYTES = 4096;
let pool: Uint8Array | undefined;
let offset = POOL_BYTES;

/**
 * `count` cryptographically random bytes, served from a pool refilled with
 * `crypto.getRandomValues` (Web Crypto: Node, Deno, Bun, browsers). One call into Web Crypto per
 * id cost more than the rest of an agent's set-up; nanoid's Node build pools the same way.
 * The bytes are a view into the pool, valid until the next call.
 */
function pooledRandomBytes(count: number): Uint8Array {
  if (count > POOL_BYTES) return globalThis.crypto.getRandomValues(new Uint8Array(count));
  if (offset + count > POOL_BYTES) {
    pool ??= new Uint8Array(POOL_BYTES);
    globalThis.crypto.getRandomValues(pool);
    offset = 0;
  }
  const bytes = pool!.subarray(offset, offset + count);
  offset += count;
  return bytes;
}

/**
 * A URL-safe random id of `size` characters (nanoid's alphabet, 6 bits of entropy each): session,
 * run, approval and entry ids.
 */
export const randomId: (size?: number) => string = customRandom(urlAlphabet, 21, pooledRandomBytes);
