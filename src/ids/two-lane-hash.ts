/**
 * A 64-bit hash of `text` in two 32-bit lanes over its UTF-16 code units: FNV-1a from FNV's offset
 * basis, and a multiply-xorshift lane from `basis`; each as 8 hex digits. Fast and stable across
 * versions and builds (stored Redis entry digests and prepared statement names are made of it), not
 * cryptographic: two texts may share a hash, and every caller tolerates that.
 * @param text - what to hash.
 * @param basis - where the second lane starts (callers mix in the length, or a constant of their own).
 */
export function twoLaneHash(text: string, basis: number): { fnv: string; mixed: string } {
  let fnv = 0x811c9dc5;
  let mixed = basis;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    fnv = Math.imul(fnv ^ code, 0x01000193);
    mixed = Math.imul(mixed ^ code, 0x5bd1e995);
    mixed ^= mixed >>> 15;
  }
  return { fnv: (fnv >>> 0).toString(16).padStart(8, '0'), mixed: (mixed >>> 0).toString(16).padStart(8, '0') };
}
