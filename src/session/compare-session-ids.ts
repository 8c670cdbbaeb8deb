import { argumentError } from '../errors/argument-error.js';

/** A UTF-16 code unit moved so that units compare as their code points do (surrogates after U+FFFF). */
function weight(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}

/**
 * Orders session ids by code point, which is the byte order of their UTF-8: the order
 * `listPending()` lists sessions in, in every store (PostgreSQL sorts with `COLLATE "C"`, not by
 * the database's locale). Not JavaScript's default string order, which compares UTF-16 code units
 * and so puts a character above U+FFFF (an emoji) before one in U+E000–U+FFFF (fullwidth forms,
 * private use). For stores of your own: the conformance suite holds `listPending()` to it.
 * @param a A session id (well-formed Unicode, as every store requires).
 * @param b Another session id.
 * @returns A negative number when `a` comes first, positive when `b` does, 0 when they are equal.
 * @example
 * ids.sort(compareSessionIds);
 */
export function compareSessionIds(a: string, b: string): number {
  if (typeof a !== 'string') throw argumentError('compareSessionIds', 'a', 'a session id (a string)', a);
  if (typeof b !== 'string') throw argumentError('compareSessionIds', 'b', 'a session id (a string)', b);
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index++) {
    const x = a.charCodeAt(index);
    const y = b.charCodeAt(index);
    if (x !== y) return weight(x) - weight(y);
  }
  return a.length - b.length;
}
