import { ConfigurationError } from '../errors/configuration-error.js';
import { assertPlanName } from '../plan/plan-name.js';
import type { PlanStore } from '../plan/plan-store.js';
import { storeSetup, type PostgresStoreOptions } from './postgres-store-options.js';

/** Options of {@link postgresPlanStore}. */
export type PostgresPlanStoreOptions = PostgresStoreOptions;

/**
 * A plan store in PostgreSQL: the `plans` table, one row per plan name, beside the session
 * tables of the same schema. Names are checked like file names, as in every plan store.
 * @throws ConfigurationError for a missing pool or a bad schema name, and (from `write`) for a
 * text with a NUL character, which PostgreSQL text cannot hold.
 * @example
 * const planStore = postgresPlanStore({ pool });
 * const agent = createAgent({ model, store: postgresSessionStore({ pool }), planStore });
 */
export function postgresPlanStore(options: PostgresPlanStoreOptions): PlanStore {
  const { s, ready } = storeSetup(options, 'postgresPlanStore');
  const { pool } = options;
  return {
    async read(name) {
      assertPlanName(name);
      await ready();
      const { rows } = await pool.query(`SELECT text FROM ${s}.plans WHERE name = $1`, [name]);
      return rows[0] === undefined ? undefined : String(rows[0].text);
    },
    async write(name, text) {
      assertPlanName(name);
      if (typeof text !== 'string' || text.includes('\u0000')) {
        throw new ConfigurationError(`postgresPlanStore.write("${name}") needs a text without NUL characters (PostgreSQL text cannot hold them), got ${typeof text === 'string' ? 'one with a NUL' : typeof text}.`);
      }
      await ready();
      await pool.query(`INSERT INTO ${s}.plans (name, text) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET text = EXCLUDED.text, updated_at = now()`, [name, text]);
    },
    async exists(name) {
      assertPlanName(name);
      await ready();
      const { rows } = await pool.query(`SELECT 1 FROM ${s}.plans WHERE name = $1`, [name]);
      return rows.length > 0;
    },
    async list() {
      await ready();
      const { rows } = await pool.query(`SELECT name FROM ${s}.plans ORDER BY name COLLATE "C"`);
      return rows.map((row) => String(row.name));
    },
  };
}
