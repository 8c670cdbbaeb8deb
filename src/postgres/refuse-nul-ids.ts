import { ConfigurationError } from '../errors/configuration-error.js';
import type { SessionEntry } from '../state/entries.js';

const NUL = '\u0000';

/**
 * Refuses an append whose entry ids, or the `parentId` its first entry names after a stored one
 * (`previousId`), hold a NUL character (U+0000): the store keeps the last entry's id in a `text`
 * column and compares the writer's `parentId` with it, and PostgreSQL text cannot hold that
 * character (the statement would fail with the server's "invalid byte sequence" instead). The
 * library's writers make ids of letters, digits, `-` and `_`; only hand-made entries can hold one.
 * @throws ConfigurationError naming the entry and the session, before anything is sent.
 */
export function refuseNulIds(sessionId: string, entries: readonly SessionEntry[], previousId: string | undefined): void {
  for (const [index, entry] of entries.entries()) {
    const id = (entry as { id?: unknown }).id;
    const field = typeof id === 'string' && id.includes(NUL) ? 'id' : index === 0 && previousId?.includes(NUL) === true ? 'parentId' : undefined;
    if (field === undefined) continue;
    throw new ConfigurationError(
      `postgresSessionStore.append got entry ${index + 1} of session ${JSON.stringify(sessionId)} whose ${field} holds a NUL character (U+0000), which PostgreSQL text cannot hold: ` +
        'give entries ids without it (the library\'s writers make ids of letters, digits, "-" and "_"). Nothing was stored.',
    );
  }
}
