import { ConfigurationError } from '../errors/configuration-error.js';
import { describeOptionValue } from '../errors/describe-option-value.js';
import type { SessionEntry } from '../state/entries.js';
import type { SessionLoadOptions, SessionStore } from './session-store.js';

/**
 * What `store.load(sessionId, options)` returned, checked to be something `for await` can read
 * (an async iterable, as an `async *load()` gives, or an array): a store of the host's own that
 * returns anything else (null, a promise of an array) is reported as such, with the fix, instead
 * of a `TypeError` from the loop reading it.
 * @throws ConfigurationError naming what `load` returned and how to write it.
 */
export function storeEntries(store: SessionStore, sessionId: string, options?: SessionLoadOptions): AsyncIterable<SessionEntry> | Iterable<SessionEntry> {
  const loaded: unknown = store.load(sessionId, options);
  if (isReadable(loaded)) return loaded;
  const promised = typeof (loaded as { then?: unknown } | null)?.then === 'function';
  throw new ConfigurationError(
    `The session store's load(${JSON.stringify(sessionId)}) returned ${promised ? 'a promise' : describeOptionValue(loaded)}, not an async iterable of entries: write it as an async generator, \`async *load(sessionId) { … yield entry; }\` (see SessionStore.load)${promised ? ', yielding the entries instead of resolving to them' : ''}.`,
  );
}

function isReadable(value: unknown): value is AsyncIterable<SessionEntry> | Iterable<SessionEntry> {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as { [Symbol.asyncIterator]?: unknown; [Symbol.iterator]?: unknown };
  return typeof record[Symbol.asyncIterator] === 'function' || typeof record[Symbol.iterator] === 'function';
}
