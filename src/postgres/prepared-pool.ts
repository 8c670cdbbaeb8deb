import { twoLaneHash } from '../ids/two-lane-hash.js';
import type { PostgresPool, PostgresQueryResult } from './postgres-pool.js';

/** A statement as `pg`'s `query` takes it to prepare it under a name. */
interface NamedQuery {
  name: string;
  text: string;
  values: unknown[];
}

/** Statement names per text, shared by the stores of the process (one name per text on every connection). */
const names = new Map<string, string>();

/**
 * The most statements given a name: the stores send a few dozen fixed texts, so a text past it is
 * one built with a value in it, which would leave a prepared statement on every connection per call.
 */
const MAX_NAMES = 256;

/** SQLSTATEs of a statement name the connection does not know (26000) or already holds (42P05). */
const LOST_STATEMENT_CODES = new Set(['26000', '42P05']);

/**
 * True for `pg`'s own refusal of a name its connection holds for another text, before sending
 * anything: a name the host's code took, say.
 */
function isNameTaken(error: unknown): boolean {
  const { message } = (error ?? {}) as { message?: unknown };
  return typeof message === 'string' && message.startsWith('Prepared statements must be unique');
}

/**
 * True for PostgreSQL's refusal to run a prepared statement whose result columns changed type
 * since it was prepared (an `ALTER TABLE` under a running process), before running it.
 */
function isStalePlan(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === '0A000' && typeof message === 'string' && message.includes('cached plan must not change result type');
}

/**
 * The name `text` is prepared under, or undefined once {@link MAX_NAMES} texts have one. Made of
 * a 64-bit hash of the text (two FNV-1a lanes), not of a count: two copies of the library in one
 * process (its ES module and CommonJS builds, two versions) share the host's pool, and each
 * numbering its own texts from 1 gave one name to two statements on a connection, which `pg`
 * refuses. Two texts with one hash would meet that refusal, which sends them unnamed.
 */
function nameOf(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMES) {
    const { fnv, mixed } = twoLaneHash(text, 0x050c5d1f);
    name = `agent_harness_${mixed}${fnv}`;
    names.set(text, name);
  }
  return name;
}

/**
 * True for a pool whose `query` takes a `{ name, text, values }` object: a `pg.Pool` as `pg` makes
 * it (its `Client` and its `totalCount`), with `query` its class's own. A pool wrapped by the host,
 * or a `query` replaced on the instance, may read its first argument as the text: not named.
 */
export function isPlainPgPool(pool: PostgresPool): boolean {
  const candidate = pool as PostgresPool & { Client?: unknown; totalCount?: unknown };
  return (
    typeof candidate.Client === 'function' &&
    typeof candidate.totalCount === 'number' &&
    !Object.hasOwn(pool, 'query') &&
    typeof Object.getPrototypeOf(pool)?.query === 'function'
  );
}

/**
 * `pool` with each statement sent as a named prepared statement, so that PostgreSQL parses and
 * plans it once per connection instead of at every call (the append's statement spends more on
 * planning than on running). Behind a pooler that moves a client between server connections and
 * does not carry prepared statements along (PgBouncer in transaction mode before 1.21, or without
 * `max_prepared_statements`), the first statement that misses its name (SQLSTATE 26000) or finds
 * it taken (42P05) is sent again unnamed: nothing ran, as PostgreSQL refuses it before running
 * it. From then on this pool's statements go unnamed; so they do after `pg` refused a name its
 * connection holds for another text (it refuses before sending). A statement PostgreSQL refuses
 * because its result columns changed type since it was prepared (a column altered under a
 * running process) is sent again unnamed too; `pg.Pool` drops the connection it failed on, and
 * with it the stale statement.
 */
export function preparedPool(pool: PostgresPool): PostgresPool {
  let named = true;
  const query = (text: string, values: unknown[] = []): Promise<PostgresQueryResult> => {
    const name = named ? nameOf(text) : undefined;
    if (name === undefined) return pool.query(text, values);
    const statement: NamedQuery = { name, text, values };
    return (pool.query as unknown as (query: NamedQuery) => Promise<PostgresQueryResult>).call(pool, statement).catch((error: unknown) => {
      if (LOST_STATEMENT_CODES.has(String((error as { code?: unknown } | null)?.code)) || isNameTaken(error)) named = false;
      else if (!isStalePlan(error)) throw error;
      return pool.query(text, values);
    });
  };
  return { query, connect: () => pool.connect() };
}
