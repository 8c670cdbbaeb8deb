import { assertSupportedEntry } from '../session/assert-supported-entry.js';
import { parseEntryText } from '../session/parse-entry-text.js';
import { withStoredSeq } from '../session/stored-seq.js';
import type { SessionEntry } from '../state/entries.js';
import type { SessionLoadOptions, SessionStoreWarning } from '../session/session-store.js';
import { textsFromCheckpoint } from '../session/checkpoint-tail.js';
import { runScript, type RedisClient } from './redis-client.js';
import { LENGTH_SCRIPT } from './redis-scripts.js';
import type { RedisKeys } from './redis-keys.js';
import { corruptFieldError, isStoredCount, onSessionKeys } from './redis-session-damage.js';

/** Options of {@link loadRedisEntries}. */
export interface LoadRedisEntriesOptions {
  client: RedisClient;
  keys: RedisKeys;
  sessionId: string;
  /** Receives a warning for every entry skipped or missing. */
  onWarning?: (warning: SessionStoreWarning) => void;
  /** Start at the agent's last checkpoint, as `SessionLoadOptions.fromCheckpoint` asks. @default the whole list */
  fromCheckpoint?: SessionLoadOptions['fromCheckpoint'];
}

/** Characters a chunk aims at: chunks shrink after big entries and grow back after small ones. */
const CHUNK_CHARS = 4 * 1024 * 1024;

/**
 * Streams a session's entries in chunks (LRANGE), up to the revision the session had when
 * loading began. An element that is not a JSON entry object is skipped with a warning, and so
 * is a list shorter than the revision; an entry of an unknown `$schemaVersion` fails the load.
 * @throws UnsupportedSchemaVersionError for an entry this build cannot read.
 * @throws SessionStoreCorruptError for a `revision` field that is not a count, a key of another type, or an entry without a `$schemaVersion`, or with one no agent-harness writes.
 */
export async function* loadRedisEntries(options: LoadRedisEntriesOptions): AsyncGenerator<SessionEntry> {
  const { client, keys, sessionId, onWarning, fromCheckpoint } = options;
  const stored = await onSessionKeys(client, keys, sessionId, () => client.call('HGET', keys.session(sessionId), 'revision'));
  if (!isStoredCount(stored)) throw corruptFieldError(keys, sessionId, 'revision', stored, Number(await onSessionKeys(client, keys, sessionId, () => client.call('LLEN', keys.entries(sessionId)))));
  const revision = Number(stored ?? 0);
  const where = `session ${JSON.stringify(sessionId)} (Redis key ${keys.entries(sessionId)})`;
  const entryAt = (seq: number, text: string, parsed: unknown = parseEntryText(text)): SessionEntry | undefined => {
    if (parsed === undefined) {
      onWarning?.({ sessionId, seq, message: `Skipped entry ${seq} of ${where}: it is not a transcript entry (a JSON object).` });
      return undefined;
    }
    assertSupportedEntry(parsed, sessionId, `transcript entry ${seq} of ${where}`);
    return withStoredSeq(parsed, seq, sessionId, where, onWarning);
  };
  // Resuming: the texts are all read (Redis cannot tell which hold a checkpoint), but only those
  // from the agent's last checkpoint on are parsed (see textsFromCheckpoint).
  const held: string[] | undefined = fromCheckpoint ? [] : undefined;
  let chunk = 100;
  let position = 0;
  while (position < revision) {
    const last = Math.min(position + chunk, revision) - 1;
    const items = (await onSessionKeys(client, keys, sessionId, () => client.call('LRANGE', keys.entries(sessionId), position, last))) as string[];
    if (items.length === 0) break;
    let chars = 0;
    for (const text of items) {
      position += 1;
      chars += text.length;
      if (held) held.push(text);
      else {
        const entry = entryAt(position, text);
        if (entry !== undefined) yield entry;
      }
    }
    chunk = Math.max(1, Math.min(1000, Math.floor((chunk * CHUNK_CHARS) / Math.max(chars, 1))));
  }
  if (held) {
    for (const line of textsFromCheckpoint(held, fromCheckpoint!, parseEntryText)) {
      const entry = entryAt(line.place, line.text, 'parsed' in line ? line.parsed : undefined);
      if (entry !== undefined) yield entry;
    }
  }
  if (position < revision) {
    onWarning?.({ sessionId, seq: position + 1, message: `Entries ${position + 1}–${revision} of ${where} are missing (the list is shorter than the session's revision); loaded the others.` });
  }
  if (onWarning) {
    // Read together (one script): an append that lands meanwhile moves the revision with the list.
    const [now, length] = (await onSessionKeys(client, keys, sessionId, () => runScript(client, LENGTH_SCRIPT, [keys.session(sessionId), keys.entries(sessionId)], []))) as [number, number];
    if (Number(length) > Number(now)) {
      onWarning({
        sessionId,
        seq: Number(now) + 1,
        message: `Entries ${Number(now) + 1}–${length} of ${where} lie past the session's revision, ${now} (field "revision" of ${keys.session(sessionId)}): not loaded. The session's next append is refused until they are removed or the revision is raised to take them.`,
      });
    }
  }
}
