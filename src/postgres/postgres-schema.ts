import { ConfigurationError } from '../errors/configuration-error.js';

/** The schema the stores use unless told otherwise. */
export const DEFAULT_POSTGRES_SCHEMA = 'agent_harness';

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** PostgreSQL keeps names with this prefix for its system schemas: `CREATE SCHEMA pg_x` fails. */
const RESERVED_PREFIX = 'pg_';

/**
 * The schema name, quoted for SQL.
 * @throws ConfigurationError for a name that is not a plain lower-case identifier, or that starts
 * with `pg_` (reserved by PostgreSQL, so the migration would fail at the first query).
 */
export function quotedSchema(schema: unknown): string {
  if (typeof schema !== 'string' || !SCHEMA_NAME.test(schema)) {
    throw new ConfigurationError(
      `Invalid PostgreSQL schema name ${JSON.stringify(schema)}: use lower-case letters, digits and "_" (at most 63, not starting with a digit), e.g. "${DEFAULT_POSTGRES_SCHEMA}".`,
    );
  }
  if (schema.startsWith(RESERVED_PREFIX)) {
    throw new ConfigurationError(
      `Invalid PostgreSQL schema name ${JSON.stringify(schema)}: PostgreSQL reserves names starting with "${RESERVED_PREFIX}" for its system schemas, so the tables could not be created there. Choose a name without that prefix, e.g. "${DEFAULT_POSTGRES_SCHEMA}".`,
    );
  }
  return `"${schema}"`;
}

/**
 * SQL for the lease clock in epoch milliseconds: the parameter `$n` when the host gave a clock,
 * else the server's time at the start of the statement (one clock for every worker).
 */
export function clockSql(parameter: number): string {
  return `coalesce($${parameter}::bigint, floor(extract(epoch from statement_timestamp()) * 1000)::bigint)`;
}

/** A bigint column as read by `pg` (a string) or given as a number, as a number. */
export function toNumber(value: unknown): number {
  return typeof value === 'number' ? value : Number(value);
}

/**
 * SQL for the text of the json `json` with no `\u` escape left, so PostgreSQL's JSON functions
 * and jsonb read every entry (they refuse the escape of a NUL character or of a lone surrogate):
 * each escaped backslash becomes U+FDD1, then each `\u` escape the text of itself. Two entries
 * written by `JSON.stringify` are the same when these texts are (short of a U+FDD1 in one where the other has a backslash).
 */
export function entryTextSql(json: string): string {
  return `replace(replace(${json}::text, '\\\\', chr(64977)), '\\u', '\\\\u')`;
}

/** SQL for the `id` of the entry in the json `json` (the expression of the index `session_entries_entry_id`). */
export function entryIdSql(json: string): string {
  return `(${entryTextSql(json)}::json ->> 'id')`;
}
