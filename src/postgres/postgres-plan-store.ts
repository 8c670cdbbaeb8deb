import { ConfigurationError } from '../errors/configuration-error.js';
import { assertPlanName } from '../plan/plan-name.js';
import type { PlanStore } from '../plan/plan-store.js';
import { storeSetup, type PostgresStoreOptions } from './postgres-store-options.js';

/** Options of {@link postgresPlanStore}. */
export type PostgresPlanStoreOptions = PostgresStoreOptions;

/** UTF-8 as hex, the form `decode(…, 'hex')` reads: a NUL character passes where text cannot. */
function utf8Hex(text: string): string {
  let hex = '';
  for (const byte of new TextEncoder().encode(text)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

// ignoreBOM: a plan that starts with U+FEFF keeps it.
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

function fromHex(hex: string): string {
  const bytes = new Uint8Array(hex.length / 2);
  for (let index = 0; index < bytes.length; index++) bytes[index] = Number.parseInt(hex.slice(index * 2, index * 2 + 2), 16);
  return utf8.decode(bytes);
}

/**
 * A plan store in PostgreSQL: the `plans` table, one row per plan name, beside the session
 * tables of the same schema. Names are checked like file names, as in every plan store. A text
 * is kept in the `text` column, or, when it holds a NUL character (which PostgreSQL text cannot
 * hold), as UTF-8 bytes in `text_utf8`, so every text round-trips. `list()` sorts like every
 * plan store (`Array.prototype.sort()`), not by the database's collation.
 * @throws ConfigurationError for a missing pool or a bad schema name, and (from `write`) for a
 * text that is not a string.
 * @example
 * const planStore = postgresPlanStore({ pool });
 * const agent = createAgent({ model, store: postgresSessionStore({ pool }), planStore });
 */
export function postgresPlanStore(options: PostgresPlanStoreOptions): PlanStore {
  const { s, ready, pool } = storeSetup(options, 'postgresPlanStore');
  return {
    async read(name) {
      assertPlanName(name);
      await ready();
      const { rows } = await pool.query(`SELECT text, encode(text_utf8, 'hex') AS text_utf8 FROM ${s}.plans WHERE name = $1`, [name]);
      const row = rows[0];
      if (row === undefined) return undefined;
      return row.text_utf8 === null || row.text_utf8 === undefined ? String(row.text) : fromHex(String(row.text_utf8));
    },
    async write(name, text, writeOptions) {
      assertPlanName(name);
      if (typeof text !== 'string') {
        throw new ConfigurationError(`postgresPlanStore.write("${name}") needs the plan text as a string, got ${text === null ? 'null' : typeof text}.`);
      }
      await ready();
      const nul = text.includes('\u0000');
      const { rows } = await pool.query(
        `INSERT INTO ${s}.plans (name, text, text_utf8) VALUES ($1, $2, decode($3, 'hex'))
         ON CONFLICT (name) DO ${writeOptions?.ifAbsent ? 'NOTHING' : 'UPDATE SET text = EXCLUDED.text, text_utf8 = EXCLUDED.text_utf8, updated_at = now()'}
         RETURNING 1`,
        [name, nul ? null : text, nul ? utf8Hex(text) : null],
      );
      if (writeOptions?.ifAbsent) return rows.length === 1;
    },
    async exists(name) {
      assertPlanName(name);
      await ready();
      const { rows } = await pool.query(`SELECT 1 FROM ${s}.plans WHERE name = $1`, [name]);
      return rows.length > 0;
    },
    async list() {
      await ready();
      const { rows } = await pool.query(`SELECT name FROM ${s}.plans`);
      // In JavaScript: no collation of the database sorts by UTF-16 code units.
      return rows.map((row) => String(row.name)).sort();
    },
  };
}
