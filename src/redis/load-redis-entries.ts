import { assertSupportedEntry, isSupportedEntry } from '../session/assert-supported-entry.js';
import { parseEntryText } from '../session/parse-entry-text.js';
import { withStoredSeq } from '../session/stored-seq.js';
import type { SessionEntry } from '../state/entries.js';
import type { SessionLoadOptions, SessionStoreWarning } from '../session/session-store.js';
import type { LoadedSessionHead } from '../session/pending-bases.js';
import { pickCheckpointStart, TAIL_MIN_SIZE } from '../session/pick-checkpoint-start.js';
import { runScript, type RedisClient } from './redis-client.js';
import { LOAD_HEAD_SCRIPT } from './redis-scripts.js';
import type { RedisKeys } from './redis-keys.js';
import { corruptFieldError, isStoredCount, onSessionKeys } from './redis-session-damage.js';

/** Options of {@link loadRedisEntryBatches}. */
export interface LoadRedisEntriesOptions {
  client: RedisClient;
  keys: RedisKeys;
  sessionId: string;
  /** Receives a warning for every entry skipped or missing. */
  onWarning?: (warning: SessionStoreWarning) => void;
  /** Start at the agent's last checkpoint, as `SessionLoadOptions.fromCheckpoint` asks. @default the whole list */
  fromCheckpoint?: SessionLoadOptions['fromCheckpoint'];
  /** Receives the session's saved fields as the load read them (with its revision, in one script). */
  onHead?: (head: LoadedSessionHead) => void;
}

/** The id an element of the entries list begins with (the store writes the id first), or null. */
function idAtStart(text: unknown): string | null {
  if (typeof text !== 'string') return null;
  const quoted = /^\{"id":("(?:[^"\\]|\\.)*"),/.exec(text)?.[1];
  if (quoted === undefined) return null;
  try {
    const id: unknown = JSON.parse(quoted);
    return typeof id === 'string' ? id : null;
  } catch {
    return null;
  }
}

/**
 * Where a load asked for `fromCheckpoint` may start (the `seq` and the entry, parsed): of the
 * session's checkpoints list (`<seq> <id>` of each entry after the first whose beginning holds the
 * kind, kept by the append script), the one {@link pickCheckpointStart} picks, numbered as its place (a copy's id is listed
 * before it). Only the entries it looks at are read. Undefined when none qualifies (a session
 * written before the list existed has none).
 */
async function checkpointStart(client: RedisClient, keys: RedisKeys, sessionId: string, revision: number, hint: NonNullable<SessionLoadOptions['fromCheckpoint']>): Promise<{ seq: number; entry: object } | undefined> {
  const listed = (await onSessionKeys(client, keys, sessionId, () => client.call('LRANGE', keys.checkpoints(sessionId), 0, -1))) as string[];
  const candidates = listed.flatMap((item) => {
    const space = item.indexOf(' ');
    const seq = Number(item.slice(0, space));
    // Past the revision: an entry cut off the list (a repair), not one a load reads.
    return space > 0 && Number.isInteger(seq) && seq > 1 && seq <= revision ? [{ seq, id: item.slice(space + 1) }] : [];
  });
  const range = async (from: number, to: number) => (await onSessionKeys(client, keys, sessionId, () => client.call('LRANGE', keys.entries(sessionId), from, to))) as string[];
  // A candidate's element and the one before it come in one LRANGE: the one before is kept.
  const before = new Map<number, string | undefined>();
  const start = await pickCheckpointStart(candidates, hint, {
    first: async () => parseEntryText((await range(0, 0))[0] ?? ''),
    entry: async ({ seq }) => {
      const [previous, text] = await range(seq - 2, seq - 1);
      before.set(seq, previous);
      return parseEntryText(text ?? '');
    },
    before: ({ seq }) => parseEntryText(before.get(seq) ?? ''),
    copied: (entry, earlier) => earlier.some(({ id }) => id === entry.id),
    seqOf: ({ seq }) => seq,
  });
  return start && { seq: start.candidate.seq, entry: start.entry };
}

/** Entries of the first chunk (read with the session's fields). */
const FIRST_CHUNK = 100;

/** Characters a chunk aims at: chunks shrink after big entries and grow back after small ones. */
const CHUNK_CHARS = 4 * 1024 * 1024;

/**
 * Streams a session's entries in chunks (LRANGE), up to the revision the session had when
 * loading began, as arrays (none empty, one per read of the list at most). An element that is
 * not a JSON entry object is skipped with a warning, and so is a list shorter than the revision;
 * an entry of an unknown `$schemaVersion` fails the load.
 * A warning or an error comes after the array of the entries before it, so a reader of the arrays
 * sees them in the order a reader of single entries does.
 * @throws UnsupportedSchemaVersionError for an entry this build cannot read.
 * @throws SessionStoreCorruptError for a `revision` field that is not a count, a key of another type, or an entry without a `$schemaVersion`, or with one no agent-harness writes.
 */
export async function* loadRedisEntryBatches(options: LoadRedisEntriesOptions): AsyncGenerator<SessionEntry[]> {
  const { client, keys, sessionId, onWarning, fromCheckpoint, onHead } = options;
  // The first range comes with it when the load starts at the first entry (see LOAD_HEAD_SCRIPT).
  const [stored, bytes, pending, rule, length, lastElement, firstRange] = (await onSessionKeys(client, keys, sessionId, () =>
    runScript(client, LOAD_HEAD_SCRIPT, [keys.session(sessionId), keys.entries(sessionId)], [FIRST_CHUNK, fromCheckpoint ? '0' : '1', TAIL_MIN_SIZE]),
  )) as [unknown, unknown, unknown, unknown, unknown, unknown, unknown];
  if (!isStoredCount(stored)) throw corruptFieldError(keys, sessionId, 'revision', stored, Number(length));
  const revision = Number(stored ?? 0);
  // The last element is the entry at the revision when the list is as long as the revision says.
  const lastId = Number(length) === revision ? idAtStart(lastElement) : null;
  onHead?.({ revision, pending: typeof pending === 'string' ? pending : null, rule: Number(rule ?? 0), lastId });
  const where = `session ${JSON.stringify(sessionId)} (Redis key ${keys.entries(sessionId)})`;
  const entryAt = (seq: number, parsed: object | undefined): SessionEntry | undefined => {
    if (parsed === undefined) {
      onWarning?.({ sessionId, seq, message: `Skipped entry ${seq} of ${where}: it is not a transcript entry (a JSON object).` });
      return undefined;
    }
    // Named in a string only when it fails (a transcript has thousands of elements).
    if (!isSupportedEntry(parsed)) assertSupportedEntry(parsed, sessionId, `transcript entry ${seq} of ${where}`);
    return withStoredSeq(parsed, seq, sessionId, where, onWarning);
  };
  // Resuming: from the agent's last checkpoint on, found through the session's checkpoints list.
  // (A session written before `bytes` was kept counts from then on: read whole until it is large.)
  const large = Number(bytes) >= TAIL_MIN_SIZE;
  const start = fromCheckpoint && large && revision > 1 ? await checkpointStart(client, keys, sessionId, revision, fromCheckpoint) : undefined;
  let position = 0;
  if (start !== undefined) {
    // The checkpoint picked was read and parsed to pick it: the ranges start after it.
    position = start.seq;
    const entry = isSupportedEntry(start.entry) && start.entry.seq === start.seq ? start.entry : entryAt(start.seq, start.entry);
    if (entry !== undefined) yield [entry];
  }
  let chunk = FIRST_CHUNK;
  // The range the first script read is the one this loop would read first.
  let read = position === 0 && Array.isArray(firstRange) ? (firstRange as string[]) : undefined;
  while (position < revision) {
    const last = Math.min(position + chunk, revision) - 1;
    const items = read ?? ((await onSessionKeys(client, keys, sessionId, () => client.call('LRANGE', keys.entries(sessionId), position, last))) as string[]);
    read = undefined;
    if (items.length === 0) break;
    let chars = 0;
    let batch: SessionEntry[] = [];
    for (const text of items) {
      position += 1;
      chars += text.length;
      // The usual element: an entry this build reads that says its own number.
      const parsed = parseEntryText(text);
      if (parsed !== undefined && isSupportedEntry(parsed) && parsed.seq === position) {
        batch.push(parsed);
        continue;
      }
      // Anything else may warn or fail: the entries before it are handed over first.
      if (batch.length > 0) yield batch;
      batch = [];
      const entry = entryAt(position, parsed);
      if (entry !== undefined) batch.push(entry);
    }
    if (batch.length > 0) yield batch;
    chunk = Math.max(1, Math.min(1000, Math.floor((chunk * CHUNK_CHARS) / Math.max(chars, 1))));
  }
  if (position < revision) {
    onWarning?.({ sessionId, seq: position + 1, message: `Entries ${position + 1}–${revision} of ${where} are missing (the list is shorter than the session's revision); loaded the others.` });
  }
  // Read with the revision (one script): an append that lands meanwhile moves the revision with the list.
  if (onWarning && Number(length) > revision) {
    onWarning({
      sessionId,
      seq: revision + 1,
      message: `Entries ${revision + 1}–${Number(length)} of ${where} lie past the session's revision, ${revision} (field "revision" of ${keys.session(sessionId)}): not loaded. The session's next append is refused until they are removed or the revision is raised to take them.`,
    });
  }
}
