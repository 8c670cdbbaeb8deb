/**
 * `value` rounded to an integer and written with a comma between groups of three digits, as
 * `toLocaleString('en-US')` writes it (`2010` → `"2,010"`), for the counts in the notes the model
 * and the host read (stubs of cleared results, spill notes, compaction messages).
 *
 * Not `toLocaleString` itself: its first call in a process loads ICU's number formatting, about
 * 20 ms on a shared 2-core machine (bench/README, thirty-seventh round), paid by the turn that
 * first clears or spills a result. Values it cannot write exactly (NaN, infinities, beyond 2^53,
 * `-0`) go to `toLocaleString` as before.
 * @param value - a count.
 */
export function groupDigits(value: number): string {
  const whole = Math.round(value);
  if (!Number.isSafeInteger(whole) || Object.is(whole, -0)) return whole.toLocaleString('en-US');
  const digits = String(whole < 0 ? -whole : whole);
  let grouped = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let at = grouped.length; at < digits.length; at += 3) grouped += `,${digits.slice(at, at + 3)}`;
  return whole < 0 ? `-${grouped}` : grouped;
}
