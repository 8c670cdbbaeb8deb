/** Slots of a new table (a power of two). */
const FIRST_SLOTS = 16;

/** What {@link EntryIds.seqsOf} gives for an id with no entry. */
const NONE: readonly number[] = Object.freeze([]);

/** The share of slots a table fills before it doubles. */
const MAX_LOAD = 0.75;

/**
 * This process's seed of the ids' hashes, drawn at the first hash: a transcript written to make
 * its ids share a hash here cannot know it.
 */
let seed: number | undefined;

/**
 * The `seq` of a transcript's entries by id: for the check a load makes that no entry takes an
 * earlier one's id, and the one a file store's append makes that no new entry takes a stored id.
 * It keeps a 32-bit hash of each id, not the id (16 to 32 bytes an id, where a `Map` of the
 * strings takes about 78, and a third of the time to fill and look up): {@link EntryIds.seqsOf}
 * gives the numbers of the entries whose id has the hash of the one asked for, and the caller
 * tells which (if any) has that very id by reading them. Two ids share a hash about once in four
 * billion lookups of a transcript of one entry, once in forty thousand of one of 100,000 entries;
 * the hash's seed is drawn per process.
 */
export class EntryIds {
  #hashes = new Int32Array(FIRST_SLOTS);
  /** The `seq` in each slot; 0 for an empty slot (a `seq` is at least 1). */
  #seqs = new Float64Array(FIRST_SLOTS);
  #size = 0;

  /** How many (id, `seq`) pairs were added. */
  get size(): number {
    return this.#size;
  }

  /** Records that the entry numbered `seq` (an integer of at least 1) has the id `id`. An id added again keeps both numbers. */
  add(id: string, seq: number): void {
    if (this.#size + 1 > this.#seqs.length * MAX_LOAD) this.#grow();
    this.#place(hashOf(id), seq);
    this.#size++;
  }

  /** The numbers of the entries whose id may be `id` (those with its hash), in increasing order: empty when none is. */
  seqsOf(id: string): readonly number[] {
    const hash = hashOf(id);
    const hashes = this.#hashes;
    const seqs = this.#seqs;
    const mask = seqs.length - 1;
    // (Most lookups find none: a load looks up every entry's id, so no array is made for them.)
    let found: number[] | undefined;
    for (let slot = hash & mask; seqs[slot] !== 0; slot = (slot + 1) & mask) if (hashes[slot] === hash) (found ??= []).push(seqs[slot]!);
    if (found === undefined) return NONE;
    return found.length > 1 ? found.sort((a, b) => a - b) : found;
  }

  /** Puts a pair in the first empty slot from its hash's (linear probing: the table is never full). */
  #place(hash: number, seq: number): void {
    const seqs = this.#seqs;
    const mask = seqs.length - 1;
    let slot = hash & mask;
    while (seqs[slot] !== 0) slot = (slot + 1) & mask;
    this.#hashes[slot] = hash;
    seqs[slot] = seq;
  }

  #grow(): void {
    const hashes = this.#hashes;
    const seqs = this.#seqs;
    this.#hashes = new Int32Array(seqs.length * 2);
    this.#seqs = new Float64Array(seqs.length * 2);
    for (let slot = 0; slot < seqs.length; slot++) if (seqs[slot] !== 0) this.#place(hashes[slot]!, seqs[slot]!);
  }
}

/** A 32-bit hash of `id` (FNV-1a over its UTF-16 code units from the process's seed, then mixed so every bit counts). */
function hashOf(id: string): number {
  let hash = (seed ??= globalThis.crypto.getRandomValues(new Uint32Array(1))[0]!) ^ 0x811c9dc5;
  for (let index = 0; index < id.length; index++) hash = Math.imul(hash ^ id.charCodeAt(index), 0x01000193);
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return hash ^ (hash >>> 16);
}
