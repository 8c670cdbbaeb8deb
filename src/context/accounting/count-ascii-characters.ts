/** Texts shorter than this are counted unit by unit: a streamed delta, a tool's short answer. */
const SHORT = 256;
/** The UTF-8 bytes encoded at a time (a multiple of 4: the bytes are read four to a word). */
const PART = 4096;

/** Scratch space of the count, made at its first long text. */
interface Scratch {
  encoder: TextEncoder;
  /** One part's UTF-8. */
  bytes: Uint8Array;
  /** The same memory, four bytes to a word. */
  byteWords: Uint32Array;
  /** A native copy of UTF-16 units into memory, where the runtime has one (see {@link nativeUnitCopy}). */
  units: UnitCopy | undefined;
}

/** Copies `text` from `from` into a buffer as UTF-16 units and counts those below 128. @internal */
export type UnitCopy = (text: string, from: number) => number;

let scratch: Scratch | undefined;

/**
 * The UTF-16 units of `text` below 128 (the rest count a token each in `estimateTextTokens`).
 *
 * A long text is encoded to UTF-8 a part at a time (`TextEncoder.encodeInto`, native, in every
 * runtime the core supports). A part whose bytes are as many as its units holds only ASCII; in
 * another, every byte below 128 is an ASCII unit (the bytes of a longer character are all 128 or
 * more), and they are counted four bytes to a word: about twice as fast as a loop over
 * `charCodeAt` on prose with typographic quotes, which runs at 2–3 ns a unit. After two such
 * parts in a row, the text is in another script or is mixed throughout: in Node (and runtimes
 * with its `Buffer`), its units are then copied natively into memory and read two to a word,
 * 0.6–0.8 ns a unit in every script here against 1–3 ns; elsewhere, the parts go on as before.
 */
export function countAsciiCharacters(text: string): number {
  return text.length < SHORT ? countAsciiUnits(text, 0, text.length) : countLong(text, (scratch ??= makeScratch(nativeUnitCopy())));
}

/** {@link countAsciiCharacters} where the runtime has no native copy of UTF-16 units (a browser), for tests. @internal */
export function countAsciiCharactersPortable(text: string): number {
  return text.length < SHORT ? countAsciiUnits(text, 0, text.length) : countLong(text, (portable ??= makeScratch(undefined)));
}
let portable: Scratch | undefined;

function countLong(text: string, { encoder, bytes, byteWords, units }: Scratch): number {
  let ascii = 0;
  let offset = 0;
  let mixedParts = 0;
  while (offset < text.length) {
    if (mixedParts === 2 && units !== undefined) return ascii + units(text, offset);
    // A slice of a long string shares its characters (no copy); the whole text is passed as it is.
    const { read, written } = encoder.encodeInto(offset === 0 ? text : text.slice(offset, offset + PART), bytes);
    if (read === written) {
      ascii += read;
      mixedParts = 0;
    } else {
      ascii += written - highBytes(bytes, byteWords, written);
      mixedParts++;
    }
    offset += read;
  }
  return ascii;
}

/** The bytes of 128 or more among the first `length` of `bytes` (the rest of its last word zeroed first). */
function highBytes(bytes: Uint8Array, words: Uint32Array, length: number): number {
  for (let index = length; (index & 3) !== 0; index++) bytes[index] = 0;
  let high = 0;
  const end = (length + 3) >>> 2;
  for (let index = 0; index < end; index++) {
    // The top bit of each byte, moved to the bottom bit of its byte; the multiplication sums the
    // four into the top byte (at most 4: no carry between bytes).
    const top = words[index]! & 0x80808080;
    if (top !== 0) high += Math.imul(top >>> 7, 0x01010101) >>> 24;
  }
  return high;
}

function makeScratch(units: UnitCopy | undefined): Scratch {
  const bytes = new Uint8Array(PART);
  return { encoder: new TextEncoder(), bytes, byteWords: new Uint32Array(bytes.buffer), units };
}

/** The part of Node's `Buffer` the copy uses. */
interface NodeBufferLike {
  write(text: string, offset: number, encoding: 'utf16le'): number;
  buffer: ArrayBufferLike;
  byteOffset: number;
}

/**
 * Node's `Buffer` copies a string's UTF-16 units into memory natively (`write(…, 'utf16le')`),
 * where a script can only read them one `charCodeAt` at a time. Used where the runtime is Node or
 * one compatible with it (`process.versions.node`, as Bun and Deno set it) on a little-endian
 * machine (the copy writes little-endian units; the words read them in the machine's order), so
 * a `Buffer` a browser bundle puts in the global scope, a copy written in JavaScript, is not.
 * @param globals - where to look for them (the global scope; a test's own object).
 * @internal
 */
export function nativeUnitCopy(globals: object = globalThis): UnitCopy | undefined {
  const scope = globals as { Buffer?: { alloc?: (size: number) => NodeBufferLike }; process?: { versions?: { node?: unknown } } };
  if (typeof scope.process?.versions?.node !== 'string' || typeof scope.Buffer?.alloc !== 'function') return undefined;
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) return undefined;
  const memory = scope.Buffer.alloc(PART * 2);
  if (typeof memory.write !== 'function' || memory.byteOffset % 4 !== 0) return undefined;
  const words = new Uint32Array(memory.buffer, memory.byteOffset, PART / 2);
  const units = new Uint16Array(memory.buffer, memory.byteOffset, PART);
  return (text, from) => {
    let other = 0;
    let offset = from;
    while (offset < text.length) {
      const count = memory.write(text.slice(offset, offset + PART), 0, 'utf16le') >>> 1;
      if (count === 0) break; // not a copy after all: the caller's count stays exact below
      // An odd count leaves a unit of the last part in the last word: zero it.
      if ((count & 1) === 1) units[count] = 0;
      const end = (count + 1) >>> 1;
      // Two units a word, without a branch (a text in another script would mispredict it at
      // random): a unit of 128 or more has a bit set above its low seven. Adding 0x7f80 to those
      // bits below the top one carries into the top bit when any is set; with the top bit itself,
      // bit 15 (bit 31) flags the low (high) unit. `flags` sums them in its two halves (each at
      // most 2,048: no carry between them).
      let flags = 0;
      for (let index = 0; index < end; index++) {
        const word = words[index]!;
        flags += ((((word & 0x7f807f80) + 0x7f807f80) | word) & 0x80008000) >>> 15;
      }
      other += (flags & 0xffff) + (flags >>> 16);
      offset += count;
    }
    return offset - from - other + (offset < text.length ? countAsciiUnits(text, offset, text.length) : 0);
  };
}

function countAsciiUnits(text: string, from: number, to: number): number {
  let ascii = 0;
  // The sign bit of `unit - 128` is 1 exactly for a unit below 128: no branch to mispredict on a
  // text that mixes scripts (about a quarter faster there than `if (unit < 128) ascii++`).
  for (let index = from; index < to; index++) ascii += (text.charCodeAt(index) - 128) >>> 31;
  return ascii;
}
