/**
 * Whether an append is already stored where it would put it: `appended` (the JSON text of its
 * entries) is byte for byte `stored` (that of the session's entries at those positions). Such an
 * append is a retry of one whose reply was lost (entry ids are random, so another writer's
 * entries differ): every store resolves it without writing, instead of calling its own earlier
 * write a conflict.
 */
export function isReplay(stored: readonly string[], appended: readonly string[]): boolean {
  return stored.length === appended.length && appended.every((text, index) => text === stored[index]);
}
