// Attack class: a signed snapshot kept where the host keeps JSON (docs/architecture.md: "signed
// with snapshotKey (HMAC-SHA-256 over canonical JSON)"). A PostgreSQL `jsonb` column gives the
// object back with its keys in another order (shorter keys first) and its text re-spaced; what
// was signed is the content, so the snapshot must still resume, waiting approval and all, and a
// change made inside the column must still be refused.
import { describe, expect, it } from 'vitest';
import { createAgent, SnapshotInvalidError } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';
import { dropSchema, postgres, testPool, testSchema } from '../postgres/postgres-test-database.js';
import { counting } from './counting-write.js';

const snapshotKey = 'f0e1d2c3b4a5968778695a4b3c2d1e0f';

/** Every object's keys in reverse order, recursively: what a store that reorders keys gives back. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).reverse().map(([key, item]) => [key, reversedKeys(item)]));
}

async function waitingSnapshot() {
  const { runs, tools } = counting();
  const agent = createAgent({ model: scriptedModel([turn(toolCall('write', { text: 'é "quoted" \u2028 line' }, 'toolu_json'))]), tools, snapshotKey });
  await agent.run('Write it.').result;
  expect(agent.pendingApprovals).toHaveLength(1);
  return { snapshot: agent.snapshot(), runs, tools };
}

describe('attack: signed snapshots kept as JSON by the host', () => {
  it('keys in another order: the snapshot resumes and the approved call runs once', async () => {
    const { snapshot, runs, tools } = await waitingSnapshot();
    const resumed = createAgent({ model: scriptedModel(['Done.']), tools, snapshotKey, resume: reversedKeys(JSON.parse(JSON.stringify(snapshot))) as never });
    await resumed.ready;
    await resumed.resolveApproval(resumed.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
    expect(runs).toEqual(['é "quoted" \u2028 line']);
  });

  it.skipIf(!postgres.reachable)('through a PostgreSQL jsonb column: resumes as stored, and an edit made in the column is refused', async () => {
    const pool = testPool(1);
    const schema = testSchema();
    try {
      const { snapshot, runs, tools } = await waitingSnapshot();
      await pool.query(`CREATE SCHEMA "${schema}"`);
      await pool.query(`CREATE TABLE "${schema}".snapshots (id int PRIMARY KEY, body jsonb NOT NULL)`);
      await pool.query(`INSERT INTO "${schema}".snapshots VALUES (1, $1)`, [JSON.stringify(snapshot)]);
      const stored = (await pool.query(`SELECT body FROM "${schema}".snapshots WHERE id = 1`)).rows[0].body as Record<string, unknown>;
      expect(Object.keys(stored)).not.toEqual(Object.keys(snapshot)); // the column did reorder it

      const resumed = createAgent({ model: scriptedModel(['Done.']), tools, snapshotKey, resume: stored as never });
      await resumed.ready;
      await resumed.resolveApproval(resumed.pendingApprovals[0]!.id, { behavior: 'allow' }).result;
      expect(runs).toEqual(['é "quoted" \u2028 line']);

      await pool.query(`UPDATE "${schema}".snapshots SET body = jsonb_set(body, '{permissionMode}', '"acceptEdits"') WHERE id = 1`);
      const edited = (await pool.query(`SELECT body FROM "${schema}".snapshots WHERE id = 1`)).rows[0].body;
      let error: unknown;
      try {
        createAgent({ model: scriptedModel([]), tools, snapshotKey, resume: edited });
      } catch (caught) {
        error = caught;
      }
      expect(SnapshotInvalidError.isInstance(error), String(error)).toBe(true);
    } finally {
      await dropSchema(pool, schema);
      await pool.end();
    }
  });
});
