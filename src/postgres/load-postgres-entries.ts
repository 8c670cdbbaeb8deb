import { assertSupportedEntry, isSupportedEntry } from '../session/assert-supported-entry.js';
import { parseEntryText } from '../session/parse-entry-text.js';
import { withStoredSeq } from '../session/stored-seq.js';
import type { SessionEntry } from '../state/entries.js';
import type { SessionLoadOptions, SessionStoreWarning } from '../session/session-store.js';
import { CHECKPOINT_KIND, KIND_WITHIN, pickLastCheckpoint, TAIL_MIN_SIZE } from '../session/pick-checkpoint-start.js';
import type { PostgresPool } from './postgres-pool.js';
import type { LoadedSessionHead } from '../session/pending-bases.js';
import { savedFieldsOf } from './postgres-session-head.js';
import { entryIdSql, toNumber } from './postgres-schema.js';

/** Options of {@link loadPostgresEntryBatches}. */
export interface LoadPostgresEntriesOptions {
  pool: PostgresPool;
  /** The quoted schema. */
  s: string;
  sessionId: string;
  /** Receives a warning for every entry skipped or missing. */
  onWarning?: (warning: SessionStoreWarning) => void;
  /** Start at the agent's last checkpoint, as `SessionLoadOptions.fromCheckpoint` asks. @default the whole transcript */
  fromCheckpoint?: SessionLoadOptions['fromCheckpoint'];
  /** Receives the session's row as the load read it (not called for a session without one). */
  onHead?: (head: LoadedSessionHead) => void;
}

/** Rows per page, and the entry bytes a page stops after (at least one row). */
const PAGE_ROWS = 500;
const PAGE_BYTES = 4 * 1024 * 1024;

/**
 * Streams a session's entries in pages (bounded by rows and bytes, so 1 MB entries do not arrive
 * five hundred at a time), up to the revision the session had when loading began, as arrays (none
 * empty, one per page at most). A row whose JSON is not an entry object is skipped with a
 * warning, and so is a gap in the numbers; an entry of an unknown `$schemaVersion` fails the
 * load. A warning or an error comes after the array of the entries before it, so a reader of the
 * arrays sees them in the order a reader of single entries does.
 * @throws UnsupportedSchemaVersionError for an entry this build cannot read.
 * @throws SessionStoreCorruptError for an entry without a `$schemaVersion`, or with one no agent-harness writes.
 */
export async function* loadPostgresEntryBatches(options: LoadPostgresEntriesOptions): AsyncGenerator<SessionEntry[]> {
  const { pool, s, sessionId, onWarning, fromCheckpoint, onHead } = options;
  // With the hint, the same statement looks for checkpoints from the end when the session is large
  // enough: the numbers of the rows, of the last ones read back, that may be one (their beginning
  // holds the kind as the library writes it), and the lowest number read. Reading back from the end
  // stops at the last checkpoint (a row's text is the whole value, decompressed: all of a cleared
  // session's rows cost about 35 ms). With a listener for warnings it also finds rows past the
  // revision (warned of after the entries): one snapshot, in which an append moves the revision
  // with its rows, so they are not taken for strays.
  const candidates = fromCheckpoint
    ? `CASE WHEN (SELECT coalesce(sum(e.bytes), 0) FROM ${s}.session_entries AS e WHERE e.session_id = $1 AND e.seq <= r.revision) >= ${TAIL_MIN_SIZE}
         THEN (${candidatesBelowSql(s, 'r.revision + 1', String(FIRST_CANDIDATE_ROWS))})
       END`
    : 'NULL::json';
  const strays = onWarning
    ? `(SELECT min(e.seq) FROM ${s}.session_entries AS e WHERE e.session_id = $1 AND e.seq > r.revision) AS first_stray,
       (SELECT max(e.seq) FROM ${s}.session_entries AS e WHERE e.session_id = $1) AS last_row`
    : 'NULL::bigint AS first_stray, NULL::bigint AS last_row';
  // Rows of one page: `bound` is the revision (a parameter, or the first statement's own row).
  const pageSql = (from: string, bound: string, only = '') =>
    `SELECT seq, entry::text AS entry FROM (
       SELECT seq, entry, bytes, sum(bytes) OVER (ORDER BY seq) AS running
       FROM (SELECT seq, entry, bytes FROM ${s}.session_entries WHERE session_id = $1 AND seq > ${from} AND seq <= ${bound}${only} ORDER BY seq LIMIT ${PAGE_ROWS}) AS page
     ) AS sized
     WHERE running - bytes < ${PAGE_BYTES}`;
  // The first statement also reads the first page when the load starts at the first entry (no
  // checkpoint listed): in the same snapshot, one round trip less. The session's row comes as one
  // JSON array in the place of an entry, in the only row whose seq is null; the page's rows are
  // those of a page.
  const first = await pool.query(
    `WITH r AS (
       SELECT r.revision, r.pending::text AS pending, r.pending_rule, r.last_id, ${candidates} AS candidates, ${strays}
       FROM ${s}.sessions AS r WHERE r.session_id = $1
     )
     SELECT NULL::bigint AS seq, json_build_array(r.revision, r.pending, r.pending_rule, r.last_id, r.candidates, r.first_stray, r.last_row)::text AS entry FROM r
     UNION ALL
     SELECT seq, entry FROM (${pageSql('0', '(SELECT revision FROM r)', fromCheckpoint ? ' AND (SELECT candidates FROM r) IS NULL' : '')}) AS first_page`,
    [sessionId],
  );
  const { head: row, rows: firstPage } = splitFirstStatement(first.rows);
  const saved = savedFieldsOf(row);
  const { revision } = saved;
  if (row !== undefined) onHead?.(saved);
  const where = `session ${JSON.stringify(sessionId)} in the PostgreSQL schema ${s}`;
  const missing = (from: number, to: number) =>
    onWarning?.({ sessionId, seq: from, message: `Entries ${from}${to > from ? `–${to}` : ''} of ${where} are missing (rows deleted from ${s}.session_entries); loaded the others.` });
  const listed = row?.candidates as CandidatesPage | null | undefined;
  const start = fromCheckpoint && listed ? await checkpointStart(pool, s, sessionId, fromCheckpoint, listed) : undefined;
  let after = start === undefined ? 0 : start.seq - 1;
  const page = (from: number) => pool.query(`${pageSql('$2', '$3')} ORDER BY seq`, [sessionId, from, revision]);
  // The checkpoint picked was read and parsed to pick it: the pages start after it.
  const from = start?.seq ?? after;
  // The next page is asked for as soon as a page arrives, so the server reads it while this one is
  // parsed and handed over (one statement in flight at a time, as before: a pool of one suffices).
  let next = from >= revision ? undefined : listed ? page(from) : Promise.resolve({ rows: firstPage });
  try {
    if (start !== undefined) yield* entriesOf([[start.seq, start.entry]]);
    while (next !== undefined) {
      const { rows } = await next;
      next = undefined;
      if (rows.length === 0) break;
      const last = toNumber(rows[rows.length - 1]!.seq);
      if (last < revision) {
        next = page(last);
        // pg.Pool hands out a connection in a later tick: sent only then, so the page is parsed
        // after it leaves (parsed first, the statement would leave only once the page was handed over).
        await new Promise<void>((resolve) => process.nextTick(resolve));
      }
      yield* entriesOf(rows.map((row) => [toNumber(row.seq), parseEntryText(String(row.entry))]));
    }
  } finally {
    // A load given up (a failed entry, a reader that stopped) waits for the page it asked for, and
    // drops it: no statement of it runs on once it has ended, nor fails unheard.
    if (next !== undefined) await next.then(undefined, () => undefined);
  }
  if (after < revision) missing(after + 1, revision);
  if (onWarning && row?.first_stray !== null && row?.first_stray !== undefined) {
    const first = toNumber(row.first_stray);
    const last = toNumber(row.last_row);
    onWarning({
      sessionId,
      seq: first,
      message: `Rows ${first}${last > first ? `–${last}` : ''} of ${where} lie past the session's revision, ${revision} (in ${s}.sessions): not loaded. The session's next append is refused until they are deleted or the revision is raised to take them.`,
    });
  }

  /** The entries of rows (`[seq, the entry parsed]`, in order), in arrays as the load yields them. */
  function* entriesOf(rows: ReadonlyArray<[number, unknown]>): Generator<SessionEntry[]> {
    let batch: SessionEntry[] = [];
    for (const [seq, value] of rows) {
      // The usual row: the next number, holding an entry this build reads that says so.
      if (seq === after + 1 && value !== undefined && isSupportedEntry(value) && value.seq === seq) {
        after = seq;
        batch.push(value);
        continue;
      }
      // Anything else may warn or fail: the entries before it are handed over first.
      if (batch.length > 0) yield batch;
      batch = [];
      if (seq > after + 1) missing(after + 1, seq - 1);
      after = seq;
      if (value === undefined) {
        onWarning?.({ sessionId, seq, message: `Skipped entry ${seq} of ${where}: it is not a transcript entry (a JSON object).` });
        continue;
      }
      // Named in a string only when it fails (a transcript has thousands of rows).
      if (!isSupportedEntry(value)) assertSupportedEntry(value, sessionId, `transcript entry ${seq} of ${where}`);
      batch.push(withStoredSeq(value, seq, sessionId, where, onWarning));
    }
    if (batch.length > 0) yield batch;
  }
}

/**
 * The session's row (its fields by name, as a statement of its own reads them) and the first
 * page's rows in order, of the rows of a load's first statement. Their order is not left to the
 * server (a `UNION ALL` has none): sorted here when they do not come in order, which they do.
 */
function splitFirstStatement(rows: ReadonlyArray<Record<string, unknown>>): { head: Record<string, unknown> | undefined; rows: Array<Record<string, unknown>> } {
  let head: Record<string, unknown> | undefined;
  const page: Array<Record<string, unknown>> = [];
  let sorted = true;
  for (const row of rows) {
    if (row.seq === null) {
      const [revision, pending, pending_rule, last_id, candidates, first_stray, last_row] = JSON.parse(String(row.entry)) as unknown[];
      head = { revision, pending, pending_rule, last_id, candidates, first_stray, last_row };
      continue;
    }
    if (page.length > 0 && toNumber(page[page.length - 1]!.seq) > toNumber(row.seq)) sorted = false;
    page.push(row);
  }
  if (!sorted) page.sort((a, b) => toNumber(a.seq) - toNumber(b.seq));
  return { head, rows: page };
}

/** Rows the first statement of a load reads back from the end for checkpoints; each page after reads eight times as many. */
const FIRST_CANDIDATE_ROWS = 64;

/** A page of rows read back for checkpoints: `[lowest seq read (null for none), seqs of the candidates, last first]`. */
type CandidatesPage = [number | string | null, Array<number | string> | null];

/**
 * SQL for a {@link CandidatesPage} as JSON: of the session's (`$1`) last `rows` rows after the
 * first below `below`, the lowest number and those whose beginning holds the checkpoint kind. The
 * kind anywhere is looked for first: left() counts characters, which cost four times the search
 * over all the rows of a session of small entries.
 */
function candidatesBelowSql(s: string, below: string, rows: string): string {
  return `SELECT json_build_array(min(page.seq), json_agg(page.seq ORDER BY page.seq DESC)
            FILTER (WHERE strpos(page.entry, '${CHECKPOINT_KIND}') > 0 AND strpos(left(page.entry, ${KIND_WITHIN}), '${CHECKPOINT_KIND}') > 0))
          FROM (SELECT e.seq, e.entry::text AS entry FROM ${s}.session_entries AS e
                WHERE e.session_id = $1 AND e.seq > 1 AND e.seq < ${below} ORDER BY e.seq DESC LIMIT ${rows}) AS page`;
}

/**
 * The row a load asked for `fromCheckpoint` may start at (its `seq` and entry): of the rows that
 * may be a checkpoint, read back from the end (`first`, the first page, then pages eight times as
 * large), the one {@link pickLastCheckpoint} picks, numbered as its row. A copy is looked for by id
 * (the index `session_entries_entry_id`): any row before it with the id as `JSON.stringify` writes
 * it. Only the pages read back and the rows it looks at are read.
 */
async function checkpointStart(pool: PostgresPool, s: string, sessionId: string, hint: NonNullable<SessionLoadOptions['fromCheckpoint']>, first: CandidatesPage): Promise<{ seq: number; entry: object } | undefined> {
  async function* lastFirst(): AsyncGenerator<number> {
    let [lowest, seqs] = first;
    for (let rows = FIRST_CANDIDATE_ROWS * 8; ; rows *= 8) {
      for (const seq of seqs ?? []) yield toNumber(seq);
      if (lowest === null || toNumber(lowest) <= 2) return;
      const { rows: found } = await pool.query(`SELECT (${candidatesBelowSql(s, '$2', '$3')})::text AS page`, [sessionId, toNumber(lowest), rows]);
      [lowest, seqs] = JSON.parse(String(found[0]?.page ?? '[null,null]')) as CandidatesPage;
    }
  }
  // The rows read, parsed, by seq.
  const parsed = new Map<number, unknown>();
  const entryAt = async (seq: number): Promise<unknown> => {
    if (parsed.has(seq)) return parsed.get(seq);
    // A candidate's row and the one before it come in one statement: the one before is kept.
    const { rows } = await pool.query(`SELECT seq, entry::text AS entry FROM ${s}.session_entries WHERE session_id = $1 AND seq BETWEEN $2 - 1 AND $2`, [sessionId, seq]);
    for (const row of rows) parsed.set(toNumber(row.seq), parseEntryText(String(row.entry)));
    return parsed.get(seq);
  };
  const firstEntry = async (): Promise<unknown> => {
    const { rows } = await pool.query(`SELECT entry::text AS entry FROM ${s}.session_entries WHERE session_id = $1 ORDER BY seq LIMIT 1`, [sessionId]);
    return rows[0] === undefined ? undefined : parseEntryText(String(rows[0].entry));
  };
  const start = await pickLastCheckpoint(lastFirst(), hint, {
    first: firstEntry,
    entry: entryAt,
    before: (seq) => entryAt(seq - 1),
    copied: async (entry, seq) => {
      const { id } = entry;
      // The whole load tells copies by a string id; one that JSON escapes cannot be looked up as written.
      if (typeof id !== 'string') return false;
      if (JSON.stringify(id) !== `"${id}"`) return true;
      const { rows } = await pool.query(`SELECT EXISTS (SELECT 1 FROM ${s}.session_entries WHERE session_id = $1 AND ${entryIdSql('entry')} = $2 AND seq < $3) AS copied`, [sessionId, id, seq]);
      return rows[0]?.copied !== false;
    },
    seqOf: (seq) => seq,
  });
  return start && { seq: start.candidate, entry: start.entry };
}
