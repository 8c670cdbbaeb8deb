// Every PostgreSQL test in one file, so a machine without the server skips them with one line.
import { randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import type pg from 'pg';
import { ConfigurationError, createAgent, LeaseLostError, PENDING_APPROVALS_RULE, SessionConflictError, SessionStoreCorruptError, UnsupportedSchemaVersionError, type SessionEntry, type SessionStore } from 'agent-harness';
import { describeConformance, planStoreConformance, scriptedModel, sessionStoreConformance, toolCall, turn } from 'agent-harness/testing';
import { migratePostgres, postgresMigrationSql, postgresPlanStore, postgresSessionStore, POSTGRES_SCHEMA_VERSION } from 'agent-harness/postgres';
import { entryMaker } from '../../src/testing/store-conformance/conformance-entries.js';
import { loadEntries } from '../../src/session/load-entries.js';
import { dropSchema, postgres, testPool, testSchema } from './postgres-test-database.js';
import { postgresTestScope } from './postgres-test-scope.js';
import { checkpointScenarios, expectCompactedSessionLoadsFromCheckpoint } from '../session/checkpoint-scenarios.js';
import { expectAppendAfterLoadRefusedWhenMoved, expectLoadedApprovalsFolded } from '../session/pending-basis-scenarios.js';
import { expectUnwritableEntriesRefused } from '../session/unwritable-entry-scenarios.js';
import { parseEntryText } from '../../src/session/parse-entry-text.js';
import { createSessionState } from '../../src/state/session-state.js';

/** A host's wrapper of `inner`: its statements go through `query` (and, being a wrapper, unnamed). */
const wrapped = (inner: pg.Pool, query: (text: string, values?: unknown[]) => Promise<pg.QueryResult>) => ({ query, connect: () => inner.connect() });

const { admin, pool, schema } = postgresTestScope();

/** Undoes migrations 4 (the entry id index) and 3 (plans.text_utf8) on a migrated schema: what a database written by an earlier release looks like. */
async function backToVersion2(name: string): Promise<void> {
  await admin!.query(`DROP INDEX "${name}".session_entries_entry_id; DELETE FROM "${name}".schema_migrations WHERE version = 4`);
  await admin!.query(
    `ALTER TABLE "${name}".plans DROP CONSTRAINT plans_text_or_text_utf8, DROP COLUMN text_utf8, ALTER COLUMN text SET NOT NULL; DELETE FROM "${name}".schema_migrations WHERE version = 3`,
  );
}

describe.skipIf(!postgres.reachable)('PostgreSQL stores: migrations', () => {
  it('migrates a new schema once, also when several processes start at once', async () => {
    const name = schema();
    const results = await Promise.all([pool(), pool(), pool()].map((each) => migratePostgres({ pool: each, schema: name })));
    expect(results.map((result) => result.to)).toEqual([POSTGRES_SCHEMA_VERSION, POSTGRES_SCHEMA_VERSION, POSTGRES_SCHEMA_VERSION]);
    expect(results.filter((result) => result.from === 0)).toHaveLength(1);
    expect(await migratePostgres({ pool: pool(), schema: name })).toEqual({ schema: name, from: POSTGRES_SCHEMA_VERSION, to: POSTGRES_SCHEMA_VERSION });
    const { rows } = await admin!.query(`SELECT version, description FROM "${name}".schema_migrations ORDER BY version`);
    expect(rows.map((row) => row.version)).toEqual([1, 2, 3, 4]);
  });

  it('migrates a schema at version 1 with sessions in it: they stay writable, and tell two histories apart from their next append on', async () => {
    const name = schema();
    await migratePostgres({ pool: pool(), schema: name });
    await backToVersion2(name);
    // Back to what version 1 was: no last_id column.
    await admin!.query(`ALTER TABLE "${name}".sessions DROP COLUMN last_id; DELETE FROM "${name}".schema_migrations WHERE version = 2`);
    const make = entryMaker('old');
    await admin!.query(`INSERT INTO "${name}".sessions (session_id, revision) VALUES ('old', 1)`);
    await admin!.query(`INSERT INTO "${name}".session_entries (session_id, seq, bytes, entry) VALUES ('old', 1, 1, $1::json)`, [JSON.stringify(make.userText('from version 1'))]);
    expect(await migratePostgres({ pool: pool(), schema: name })).toEqual({ schema: name, from: 1, to: POSTGRES_SCHEMA_VERSION });
    const store = postgresSessionStore({ pool: pool(), schema: name });
    await store.append('old', [make.userText('after the upgrade')], { expectedRevision: 1 });
    const { rows } = await admin!.query(`SELECT last_id FROM "${name}".sessions WHERE session_id = 'old'`);
    expect(rows[0].last_id).toBe('old-entry-2');
    const otherHistory = entryMaker('old', 2, 'another-history').userText('x');
    await expect(postgresSessionStore({ pool: pool(), schema: name }).append('old', [otherHistory], { expectedRevision: 2 })).rejects.toSatisfy(SessionConflictError.isInstance);
  });

  it('migrates or checks a schema once per pool in a process: a store made per request on the same pool does not again; a failed check is not remembered', async () => {
    const name = schema();
    const shared = pool(2);
    // Every statement of the pool's connections, as sent.
    const texts: string[] = [];
    shared.on('connect', (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as unknown as { query: unknown }).query = (...args: unknown[]) => {
        const first = args[0] as string | { text?: string };
        texts.push(typeof first === 'string' ? first : String(first?.text ?? ''));
        return query(...args);
      };
    });
    const migrations = () => texts.filter((text) => text.includes('pg_advisory_xact_lock')).length;
    const checks = () => texts.filter((text) => text.includes('to_regclass')).length;
    // A store that only checks fails on a schema nobody migrated, and is not remembered.
    await expect(postgresSessionStore({ pool: shared, schema: name, migrate: false }).list()).rejects.toThrow(ConfigurationError);
    expect(checks()).toBe(1);
    const make = entryMaker('s');
    await postgresSessionStore({ pool: shared, schema: name }).append('s', [make.userText('one')], { expectedRevision: 0 });
    // (The migration reads the version as the check does.)
    expect([migrations(), checks()]).toEqual([1, 2]);
    for (let request = 1; request <= 3; request += 1) {
      await postgresSessionStore({ pool: shared, schema: name }).append('s', [make.userText(`more ${request}`)], { expectedRevision: request });
      expect(await postgresSessionStore({ pool: shared, schema: name, migrate: false }).list()).toEqual(['s']);
    }
    expect([migrations(), checks()]).toEqual([1, 2]);
    // Another pool (another process, as far as the check knows) migrates, finding the schema current.
    const other = pool(1);
    expect((await loadEntries(postgresSessionStore({ pool: other, schema: name }), 's')).map((entry) => entry.seq)).toEqual([1, 2, 3, 4]);
    const { rows } = await admin!.query(`SELECT count(*)::int AS versions FROM "${name}".schema_migrations`);
    expect(rows[0].versions).toBe(POSTGRES_SCHEMA_VERSION);
  });

  it('a schema dropped under a running process is migrated again after the statement that found it gone, by that store and by a new one', async () => {
    const name = schema();
    const shared = pool(2);
    const make = entryMaker('s');
    const store = postgresSessionStore({ pool: shared, schema: name });
    const plans = postgresPlanStore({ pool: shared, schema: name });
    await store.append('s', [make.userText('one')], { expectedRevision: 0 });
    await plans.write('p', 'a plan');
    await admin!.query(`DROP SCHEMA "${name}" CASCADE`);
    // The statement that finds it gone fails as it is (nothing is written behind the host's back)...
    await expect(store.list()).rejects.toMatchObject({ code: expect.stringMatching(/^(42P01|3F000)$/) });
    // ...and the next one finds the tables made again, empty.
    expect(await store.list()).toEqual([]);
    expect(await postgresSessionStore({ pool: shared, schema: name }).list()).toEqual([]);
    await admin!.query(`DROP SCHEMA "${name}" CASCADE`);
    await expect(plans.exists('p')).rejects.toMatchObject({ code: expect.stringMatching(/^(42P01|3F000)$/) });
    expect(await postgresPlanStore({ pool: shared, schema: name }).exists('p')).toBe(false);
    const again = entryMaker('s');
    await postgresSessionStore({ pool: shared, schema: name }).append('s', [again.userText('one')], { expectedRevision: 0 });
    expect((await loadEntries(store, 's')).map((entry) => entry.seq)).toEqual([1]);
  });

  it('refuses a schema migrated by a newer agent-harness, naming the versions it reads', async () => {
    const name = schema();
    await migratePostgres({ pool: pool(), schema: name });
    await admin!.query(`INSERT INTO "${name}".schema_migrations (version, description) VALUES (99, 'from the future')`);
    const store = postgresSessionStore({ pool: pool(), schema: name });
    const error = await store.list().catch((caught: unknown) => caught);
    expect(UnsupportedSchemaVersionError.isInstance(error)).toBe(true);
    expect((error as UnsupportedSchemaVersionError).supported).toEqual([1, 2, 3, 4]);
    expect((error as Error).message).toContain(`"${name}"`);
    await expect(postgresSessionStore({ pool: pool(), schema: name, migrate: false }).list()).rejects.toSatisfy(UnsupportedSchemaVersionError.isInstance);
  });

  it('with migrate: false, refuses a schema that is not there and works on one migrated with the published SQL', async () => {
    const name = schema();
    const store = postgresSessionStore({ pool: pool(), schema: name, migrate: false });
    const error = await store.list().catch((caught: unknown) => caught);
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/is at version 0, this agent-harness needs 4: run migratePostgres/);
    await admin!.query(postgresMigrationSql({ schema: name }));
    // The failed first check is not remembered: the same store works now.
    const make = entryMaker('s');
    await store.append('s', [make.userText('hello')], { expectedRevision: 0 });
    expect(await store.list()).toEqual(['s']);
    const plans = postgresPlanStore({ pool: pool(), schema: name, migrate: false });
    await plans.write('plan.md', '# Plan\u0000');
    expect(await plans.read('plan.md')).toBe('# Plan\u0000');
  });

  it('migrates a schema at version 3 with sessions in it: their entries keep loading, and an entry id already stored with other content is refused from then on', async () => {
    const name = schema();
    await migratePostgres({ pool: pool(), schema: name });
    await admin!.query(`DROP INDEX "${name}".session_entries_entry_id; DELETE FROM "${name}".schema_migrations WHERE version = 4`);
    const make = entryMaker('old');
    const written = [make.userText('one'), make.userText('two')];
    const store3 = postgresSessionStore({ pool: pool(), schema: name, migrate: false });
    await expect(store3.list()).rejects.toThrow(/is at version 3, this agent-harness needs 4/);
    await admin!.query(`INSERT INTO "${name}".sessions (session_id, revision, last_id) VALUES ('old', 2, $1)`, [written[1]!.id]);
    for (const entry of written) {
      await admin!.query(`INSERT INTO "${name}".session_entries (session_id, seq, bytes, entry) VALUES ('old', $1, 1, $2::json)`, [entry.seq, JSON.stringify(entry)]);
    }
    expect(await migratePostgres({ pool: pool(), schema: name })).toEqual({ schema: name, from: 3, to: POSTGRES_SCHEMA_VERSION });
    const store = postgresSessionStore({ pool: pool(), schema: name });
    const taken = { ...entryMaker('old', 2).userText('other content'), id: written[0]!.id } as SessionEntry;
    const refusal = await store.append('old', [taken], { expectedRevision: 2 }).catch((error: unknown) => error);
    expect(ConfigurationError.isInstance(refusal)).toBe(true);
    expect((refusal as Error).message).toMatch(/postgresSessionStore\.append got entry 3 of session "old" with the id "old-entry-1", which entry 1 already has with other content/);
    const next = entryMaker('old', 2).userText('three');
    await store.append('old', [next], { expectedRevision: 2 });
    expect((await loadEntries(store, 'old')).map((entry) => entry.id)).toEqual([...written, next].map((entry) => entry.id));
  });

  it('refuses an entry id already stored with other content also when the entry holds a NUL character, and takes its copy', async () => {
    const store = postgresSessionStore({ pool: pool(), schema: schema() });
    const make = entryMaker('nul');
    const first = make.userText('with a NUL\u0000 and \\u0000');
    await store.append('nul', [first], { expectedRevision: 0 });
    const copy = { ...first, seq: 2, parentId: first.id } as SessionEntry;
    await store.append('nul', [copy], { expectedRevision: 1 });
    const other = { ...entryMaker('nul', 2).userText('with a NUL\u0000 and \\u0001'), id: first.id, parentId: first.id } as SessionEntry;
    await expect(store.append('nul', [other], { expectedRevision: 2 })).rejects.toSatisfy(ConfigurationError.isInstance);
  });

  it('refuses an entry whose id, or the parentId that names the stored last entry, holds a NUL character with a ConfigurationError before sending anything; a NUL elsewhere is stored', async () => {
    const store = postgresSessionStore({ pool: pool(), schema: schema() });
    const make = entryMaker('nul-id');
    const first = make.userText('one');
    const refusal = (what: RegExp) => (error: unknown) => ConfigurationError.isInstance(error) && what.test((error as Error).message) && /Nothing was stored\.$/.test((error as Error).message);
    await expect(store.append('nul-id', [{ ...first, id: 'a\u0000b' } as SessionEntry], { expectedRevision: 0 })).rejects.toSatisfy(refusal(/entry 1 of session "nul-id" whose id holds a NUL character/));
    const later = entryMaker('nul-id', 0);
    const two = [later.userText('one'), { ...later.userText('two'), id: 'c\u0000' } as SessionEntry];
    await expect(store.append('nul-id', two, { expectedRevision: 0 })).rejects.toSatisfy(refusal(/entry 2 of session "nul-id" whose id holds/));
    expect(await loadEntries(store, 'nul-id')).toEqual([]);
    await store.append('nul-id', [first], { expectedRevision: 0 });
    const next = { ...entryMaker('nul-id', 1).userText('two'), parentId: 'x\u0000' } as SessionEntry;
    await expect(store.append('nul-id', [next], { expectedRevision: 1 })).rejects.toSatisfy(refusal(/entry 1 of session "nul-id" whose parentId holds a NUL/));
    // At revision 0 a parentId names nothing stored: not sent, not refused.
    await store.append('nul-id-2', [{ ...entryMaker('nul-id-2').userText('one'), parentId: 'y\u0000' } as SessionEntry], { expectedRevision: 0 });
    expect((await loadEntries(store, 'nul-id')).map((entry) => entry.id)).toEqual([first.id]);
  });

  it('migrates a schema at version 2 with plans in it: they read unchanged, and a plan with a NUL can be written', async () => {
    const name = schema();
    await migratePostgres({ pool: pool(), schema: name });
    await backToVersion2(name);
    await admin!.query(`INSERT INTO "${name}".plans (name, text) VALUES ('old.md', $1), ('other.md', '')`, ['# Written at version 2\n\ufeff 🧪']);
    expect(await migratePostgres({ pool: pool(), schema: name })).toEqual({ schema: name, from: 2, to: POSTGRES_SCHEMA_VERSION });
    const plans = postgresPlanStore({ pool: pool(), schema: name });
    expect(await plans.read('old.md')).toBe('# Written at version 2\n\ufeff 🧪');
    expect(await plans.read('other.md')).toBe('');
    await plans.write('old.md', 'now with a NUL\u0000');
    await plans.write('new.md', 'without');
    expect(await plans.read('old.md')).toBe('now with a NUL\u0000');
    // A text PostgreSQL can hold stays in the text column, readable with SQL as before.
    const { rows } = await admin!.query(`SELECT name, text, text_utf8 IS NOT NULL AS bytes FROM "${name}".plans ORDER BY name COLLATE "C"`);
    expect(rows).toEqual([
      { name: 'new.md', text: 'without', bytes: false },
      { name: 'old.md', text: null, bytes: true },
      { name: 'other.md', text: '', bytes: false },
    ]);
    // A row cannot hold both forms, or neither.
    await expect(admin!.query(`UPDATE "${name}".plans SET text = 'x' WHERE name = 'old.md'`)).rejects.toThrow(/plans_text_or_text_utf8/);
    await expect(admin!.query(`UPDATE "${name}".plans SET text = NULL WHERE name = 'new.md'`)).rejects.toThrow(/plans_text_or_text_utf8/);
  });

  it('refuses bad options with a ConfigurationError that says what to pass', () => {
    expect(() => postgresSessionStore({ pool: pool(), schema: 'Robert"; DROP TABLE x' })).toThrow(/Invalid PostgreSQL schema name/);
    expect(() => postgresSessionStore({} as never)).toThrow(/needs options.pool, a pg.Pool/);
    expect(() => postgresMigrationSql({ schema: '1abc' })).toThrow(ConfigurationError);
  });

  it('refuses a schema name starting with pg_ (reserved by PostgreSQL) when the store is created, not at its first query', async () => {
    const reserved = /Invalid PostgreSQL schema name "pg_app": PostgreSQL reserves names starting with "pg_" for its system schemas.*e\.g\. "agent_harness"/;
    expect(() => postgresSessionStore({ pool: pool(), schema: 'pg_app' })).toThrow(reserved);
    expect(() => postgresPlanStore({ pool: pool(), schema: 'pg_app' })).toThrow(reserved);
    expect(() => postgresMigrationSql({ schema: 'pg_app' })).toThrow(reserved);
    await expect(migratePostgres({ pool: pool(), schema: 'pg_app' })).rejects.toSatisfy(ConfigurationError.isInstance);
    // Only the prefix is reserved.
    expect(() => postgresSessionStore({ pool: pool(), schema: 'app_pg_x' })).not.toThrow();
    expect(() => postgresSessionStore({ pool: pool(), schema: 'pgx' })).not.toThrow();
  });
});

describe.skipIf(!postgres.reachable)('PostgreSQL stores: behaviour beyond the conformance suite', () => {
  it('refuses an entry that writes as no JSON object (a toJSON returning something else, a BigInt, a cycle) with a ConfigurationError, storing nothing', () =>
    expectUnwritableEntriesRefused(postgresSessionStore({ pool: pool(), schema: schema() }), 'postgresSessionStore'));

  describe('a load with fromCheckpoint starts where the memory and file stores start', () => {
    // Rows written by hand (as a store would hold them), counted as large: a session under 256 KiB is read whole.
    const written = checkpointScenarios().filter((scenario) => scenario.texts.every((text) => parseEntryText(text) !== undefined));
    for (const scenario of written) {
      it(scenario.name, async () => {
        const name = schema();
        const inner = pool();
        /** Rows of each load statement that reads its session's row first. */
        const firstRows: number[] = [];
        const counting = wrapped(inner, async (text, values) => {
          const result = await inner.query(text, values);
          if (text.startsWith('WITH r AS')) firstRows.push(result.rows.length);
          return result;
        });
        const store = postgresSessionStore({ pool: counting, schema: name });
        await store.list();
        const last = JSON.parse(scenario.texts.at(-1)!) as SessionEntry;
        await admin!.query(`INSERT INTO "${name}".sessions (session_id, revision, last_id) VALUES ('s', $1, $2)`, [scenario.texts.length, last.id]);
        // Each row at its entry's number (an entry removed leaves a gap in the rows), or its position for one without.
        const seqs = scenario.texts.map((text, index) => (JSON.parse(text) as { seq?: number }).seq ?? index + 1);
        await admin!.query(`UPDATE "${name}".sessions SET revision = $1`, [Math.max(...seqs)]);
        for (const [index, text] of scenario.texts.entries()) {
          await admin!.query(`INSERT INTO "${name}".session_entries (session_id, seq, bytes, entry) VALUES ('s', $1, 100000, $2::json)`, [seqs[index], text]);
        }
        const loaded: SessionEntry[] = [];
        for await (const entry of store.load('s', { fromCheckpoint: scenario.agentId !== undefined ? { agentId: scenario.agentId } : {} })) loaded.push(entry);
        expect(loaded.map((entry) => [entry.id, entry.seq])).toEqual(seqs.slice(scenario.start).map((seq, index) => [(JSON.parse(scenario.texts[scenario.start + index]!) as SessionEntry).id, seq]));
        // The first statement reads the first page only for a load with no checkpoint listed (it
        // would start there): one that starts at a checkpoint reads the session's row alone.
        expect(firstRows).toEqual([scenario.start > 0 ? 1 : expect.any(Number)]);
        if (scenario.texts.slice(1).every((text) => !text.includes('"kind":"checkpoint"'))) expect(firstRows[0]).toBe(1 + scenario.texts.length);
      });
    }

    it('a compacted session loads from its last checkpoint (whole while under 256 KiB) and resumes as written', () => expectCompactedSessionLoadsFromCheckpoint(postgresSessionStore({ pool: pool(), schema: schema() })));
  });

  describe('a load with fromCheckpoint reads back from the end for the last checkpoint', () => {
    /** A checkpoint of session `s` (as the scenarios make them). */
    const checkpointOf = (make: ReturnType<typeof entryMaker>) => make.next({ kind: 'checkpoint', state: createSessionState({ sessionId: 's' }), reason: 'compaction' });
    /** Stores the texts as rows of session `s` at their entries' numbers, each counted as large (a session under 256 KiB is read whole). */
    async function storedRows(texts: string[], name = schema()) {
      const store = postgresSessionStore({ pool: pool(), schema: name });
      await store.list();
      const seqs = texts.map((text) => (JSON.parse(text) as { seq: number }).seq);
      await admin!.query(`INSERT INTO "${name}".sessions (session_id, revision, last_id) VALUES ('s', $1, $2)`, [Math.max(...seqs), (JSON.parse(texts.at(-1)!) as { id: string }).id]);
      await admin!.query(`INSERT INTO "${name}".session_entries (session_id, seq, bytes, entry) SELECT 's', (value ->> 'seq')::bigint, 100000, value FROM json_array_elements($1::json) AS value`, [`[${texts.join(',')}]`]);
      return store;
    }
    /** The `seq` of the first entry a load with the hint gives. */
    const firstLoaded = async (store: SessionStore) => {
      for await (const entry of store.load('s', { fromCheckpoint: {} })) return entry.seq;
      return undefined;
    };

    // The first statement reads back 64 rows, the next 512, the next 4,096.
    for (const after of [0, 63, 64, 575, 576, 700]) {
      it(`finds the last checkpoint with ${after} entries after it (pages of rows read back: 64, 512, 4,096)`, async () => {
        const make = entryMaker('s');
        const entries = [checkpointOf(make), make.userText('one'), checkpointOf(make), make.userText('two'), checkpointOf(make)];
        for (let index = 0; index < after; index++) entries.push(make.userText(`after ${index}`));
        const store = await storedRows(entries.map((entry) => JSON.stringify(entry)));
        expect(await firstLoaded(store)).toBe(5);
        expect(await loadEntries(store, 's', { fromCheckpoint: {} })).toEqual(entries.slice(4));
      });
    }

    it('an append by another writer while the load reads back is not read: the load ends at the revision it began with', async () => {
      const make = entryMaker('s');
      const entries = [checkpointOf(make), make.userText('one'), checkpointOf(make)];
      for (let index = 0; index < 100; index++) entries.push(make.userText(`after ${index}`));
      const name = schema();
      await storedRows(entries.map((entry) => JSON.stringify(entry)), name);
      const writer = postgresSessionStore({ pool: pool(), schema: name });
      const inner = pool();
      let appended = false;
      // The second page read back (the checkpoint is 100 rows from the end) runs after another writer's append.
      const racing = wrapped(inner, async (text, values) => {
        if (!appended && text.includes('json_build_array(min(page.seq)') && !text.startsWith('WITH r AS')) {
          appended = true;
          const more = entryMaker('s', entries.length);
          await writer.append('s', [more.userText('late'), checkpointOf(more), more.userText('later')], { expectedRevision: entries.length });
        }
        return inner.query(text, values);
      });
      const loaded = await loadEntries(postgresSessionStore({ pool: racing, schema: name }), 's', { fromCheckpoint: {} });
      expect(appended).toBe(true);
      expect(loaded).toEqual(entries.slice(2));
    });

    it('reads the checkpoint it starts at once: read to pick it, then handed over as parsed', async () => {
      const make = entryMaker('s');
      const entries = [checkpointOf(make), make.userText('one'), checkpointOf(make), make.userText('after'), make.userText('and after')];
      const name = schema();
      await storedRows(entries.map((entry) => JSON.stringify(entry)), name);
      const inner = pool();
      /** The statements that read whole rows, with their parameters. */
      const reads: Array<{ text: string; values: unknown[] }> = [];
      const counting = wrapped(inner, async (text, values) => {
        if (text.includes('entry::text AS entry')) reads.push({ text, values: values ?? [] });
        return inner.query(text, values);
      });
      expect(await loadEntries(postgresSessionStore({ pool: counting, schema: name }), 's', { fromCheckpoint: {} })).toEqual(entries.slice(2));
      // The pick reads rows 2 and 3 (the checkpoint and the one before it); the page starts after row 3.
      const pages = reads.filter(({ text }) => text.includes('sum(bytes) OVER') && !text.startsWith('WITH r AS'));
      expect(pages.map(({ values }) => Number(values[1]))).toEqual([3]);
      expect(reads.filter(({ text }) => text.includes('BETWEEN')).map(({ values }) => Number(values[1]))).toEqual([3]);
    });

    it('tries 16 candidates across the pages read back, then reads the whole transcript', async () => {
      // Entries whose beginning holds the kind (a tool input) after the checkpoint, 100 rows apart.
      const written = (count: number) => {
        const make = entryMaker('s');
        const entries = [checkpointOf(make), make.userText('one'), checkpointOf(make)];
        for (let index = 0; index < count; index++) {
          entries.push(make.next({ kind: 'message', message: { role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${index}`, name: 'Save', input: { kind: 'checkpoint' } }] } }));
          for (let filler = 0; filler < 100; filler++) entries.push(make.userText(`filler ${index}-${filler}`));
        }
        return entries.map((entry) => JSON.stringify(entry));
      };
      expect(await firstLoaded(await storedRows(written(15)))).toBe(3);
      expect(await firstLoaded(await storedRows(written(16)))).toBe(1);
    });

    it('does not start at a checkpoint whose id a row before it holds, checkpoint or not (a whole load would skip it or refuse it), with the index or without', async () => {
      const make = entryMaker('s');
      const entries = [checkpointOf(make), make.userText('one'), checkpointOf(make), make.userText('two'), checkpointOf(make), make.userText('three')];
      const texts = entries.map((entry) => JSON.stringify(entry));
      // A message stored with the last checkpoint's id, before it.
      texts[3] = JSON.stringify({ ...entries[3], id: entries[4]!.id });
      texts[4] = JSON.stringify({ ...entries[4], parentId: entries[4]!.id });
      const name = schema();
      const store = await storedRows(texts, name);
      expect(await firstLoaded(store)).toBe(3);
      // The same read without the index (a schema whose migration 4 is still building it): slower, the same start.
      await admin!.query(`DROP INDEX "${name}".session_entries_entry_id`);
      expect(await firstLoaded(postgresSessionStore({ pool: pool(), schema: name, migrate: false }))).toBe(3);
      // Control: with the id its own, the last checkpoint is the start.
      expect(await firstLoaded(await storedRows(entries.map((entry) => JSON.stringify(entry))))).toBe(5);
    });

    it('passes over a checkpoint whose id JSON escapes (it cannot be looked up as written): an earlier one', async () => {
      const make = entryMaker('s');
      const entries = [checkpointOf(make), make.userText('one'), checkpointOf(make), make.userText('two'), checkpointOf(make), make.userText('three')];
      const odd = 'a "quoted"\nid';
      entries[4] = { ...entries[4]!, id: odd };
      entries[5] = { ...entries[5]!, parentId: odd };
      expect(await firstLoaded(await storedRows(entries.map((entry) => JSON.stringify(entry))))).toBe(3);
    });

    it('reads the values of the rows from the last checkpoint on, not of every row of the session', async () => {
      // Values that do not compress are stored out of line (TOAST): each one read is a lookup in
      // the TOAST table's index, counted for the transaction in pg_stat_xact_all_tables.
      const make = entryMaker('s');
      const entries = [checkpointOf(make)];
      for (let index = 0; index < 300; index++) entries.push(make.toolResult(`toolu_${index}`, randomBytes(3000).toString('base64')));
      entries.push(checkpointOf(make));
      for (let index = 0; index < 10; index++) entries.push(make.userText(`after ${index}`));
      const name = schema();
      const writer = postgresSessionStore({ pool: pool(), schema: name });
      await writer.append('s', entries, { expectedRevision: 0 });
      const client = await pool(1).connect();
      try {
        await client.query('BEGIN');
        const store = postgresSessionStore({ pool: { query: (text, values) => client.query(text, values), connect: () => Promise.reject(new Error('not used')) }, schema: name, migrate: false });
        const valuesRead = async (): Promise<number> => {
          const { rows } = await client.query(
            `SELECT coalesce(idx_scan, 0) AS read FROM pg_stat_xact_all_tables WHERE relid = (SELECT reltoastrelid FROM pg_class WHERE oid = $1::regclass)`,
            [`"${name}".session_entries`],
          );
          return Number(rows[0]?.read ?? 0);
        };
        const before = await valuesRead();
        expect(await loadEntries(store, 's', { fromCheckpoint: {} })).toEqual(entries.slice(301));
        const fromCheckpoint = (await valuesRead()) - before;
        // The 64 rows read back for the kind, at most: not the 300 before them.
        expect(fromCheckpoint).toBeLessThanOrEqual(64);
        // Control: a whole load reads every one of them.
        await loadEntries(store, 's');
        expect((await valuesRead()) - before - fromCheckpoint).toBeGreaterThanOrEqual(300);
        await client.query('ROLLBACK');
      } finally {
        client.release();
      }
    });
  });

  it('loads sessions of big entries in pages bounded by bytes', async () => {
    const store = postgresSessionStore({ pool: pool(), schema: schema() });
    const make = entryMaker('big');
    const entries = Array.from({ length: 12 }, (_, index) => make.toolResult(`toolu_${index}`, String(index % 10).repeat(1_000_000)));
    await store.append('big', entries, { expectedRevision: 0 });
    const loaded = await loadEntries(store, 'big');
    expect(loaded.map((entry) => (entry.kind === 'tool-result' ? (entry.result.content as string).length : 0))).toEqual(entries.map(() => 1_000_000));
    expect(loaded.map((entry) => entry.seq)).toEqual(entries.map((entry) => entry.seq));
  });

  it('stores long entries outside Latin-1 byte for byte, sent as bytes by a pg.Pool and as text by a wrapped pool', async () => {
    const name = schema();
    const inner = pool();
    const texts = ['’'.repeat(70_000), `漢字😀é ${'x'.repeat(5000)} "quoted" \\ back\nslash`, 'tab\tand \u0000 NUL', ''];
    for (const [label, given] of [['pg.Pool', inner], ['wrapped', wrapped(inner, (text, values) => inner.query(text, values))]] as const) {
      const store = postgresSessionStore({ pool: given as pg.Pool, schema: name });
      const sessionId = `wide-${label}`;
      const make = entryMaker(sessionId);
      const entries = texts.map((text, index) => make.toolResult(`toolu_${index}`, text));
      await store.append(sessionId, entries.slice(0, 2), { expectedRevision: 0 });
      await store.append(sessionId, entries.slice(2), { expectedRevision: 2 });
      const loaded = await loadEntries(store, sessionId);
      expect(loaded, label).toEqual(entries);
      const { rows } = await admin!.query(`SELECT bytes, entry::text AS entry FROM "${name}".session_entries WHERE session_id = $1 ORDER BY seq`, [sessionId]);
      expect(rows.map((row) => row.bytes), label).toEqual(rows.map((row) => Buffer.byteLength(row.entry, 'utf8')));
    }
  });

  it('an append reads the stored rows of the ids it brings, not every row of the session', async () => {
    // The check for an id already stored with other content once joined the new entries to all of
    // the session's rows whenever the planner guessed the session small (a table not analyzed
    // yet, a session longer than most): an append cost more the longer the session grew.
    const name = schema();
    const writer = postgresSessionStore({ pool: pool(), schema: name });
    await writer.list();
    // What a server's table looks like to the planner: many short sessions, analyzed; then one long one.
    await admin!.query(`INSERT INTO "${name}".sessions (session_id, revision) SELECT 'short-' || g, 10 FROM generate_series(1, 300) AS g`);
    await admin!.query(
      `INSERT INTO "${name}".session_entries (session_id, seq, bytes, entry) SELECT 'short-' || g, n, 100, json_build_object('id', 'short-' || g || '-' || n, 'seq', n) FROM generate_series(1, 300) AS g, generate_series(1, 10) AS n`,
    );
    await admin!.query(`ANALYZE "${name}".session_entries`);
    const make = entryMaker('long');
    await writer.append('long', Array.from({ length: 3000 }, (_, index) => make.userText(`turn ${index}`)), { expectedRevision: 0 });
    const client = await pool(1).connect();
    try {
      // The append runs in a transaction of its own connection, so the counts of the rows its
      // statements read (pg_stat_xact_user_tables) are its own.
      await client.query('BEGIN');
      const store = postgresSessionStore({ pool: { query: (text, values) => client.query(text, values), connect: () => Promise.reject(new Error('not used')) }, schema: name, migrate: false });
      const rowsRead = async (): Promise<number> => {
        const { rows } = await client.query(`SELECT seq_tup_read + coalesce(idx_tup_fetch, 0) AS read FROM pg_stat_xact_user_tables WHERE schemaname = $1 AND relname = 'session_entries'`, [name]);
        return Number(rows[0]?.read ?? 0);
      };
      const before = await rowsRead();
      await store.append('long', [make.userText('one more'), make.userText('and another')], { expectedRevision: 3000 });
      expect((await rowsRead()) - before).toBeLessThan(10);
      // The same check still refuses a stored id with other content (the conformance suite has the rest).
      const taken = { ...make.userText('a copy'), id: 'long-entry-17' };
      await expect(store.append('long', [taken], { expectedRevision: 3002 })).rejects.toThrow(/entry 3003 of session "long" with the id "long-entry-17", which entry 17 already has with other content/);
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
  });

  describe('a store made per request', () => {
    /** A pool of one that records the text of each statement (prepared statements off: texts only). */
    const recording = () => {
      const inner = pool(1);
      const texts: string[] = [];
      return { texts, pool: wrapped(inner, (text, values) => (texts.push(text.replace(/\s+/g, ' ')), inner.query(text, values))) };
    };
    const readsRow = (text: string) => text.includes('AS now, r.revision, r.pending::text AS pending');

    it('writes the first append of the session it loaded without reading its row again, and loads it in one statement: a chat request is three statements', async () => {
      const name = schema();
      const model = scriptedModel([turn('First answer.'), turn('Second answer.')]);
      const first = createAgent({ model, store: postgresSessionStore({ pool: pool(1), schema: name }), sessionId: 'chat' });
      await first.run('Hello.').result;
      await first.close();
      const { texts, pool: counted } = recording();
      const agent = createAgent({ model, store: postgresSessionStore({ pool: counted, schema: name, migrate: false }), resume: 'chat' });
      expect((await agent.run('And now?').result).status).toBe('completed');
      await agent.close();
      // (Before them, the schema's version: a wrapper of the pool is another pool, checked once.)
      const request = texts.slice(texts.findIndex((text) => text.startsWith('WITH r AS')));
      // The load (its row and its one page in one statement), then the run's start and its end.
      expect(request).toHaveLength(3);
      expect(request[0]).toContain('running - bytes');
      expect(request.filter((text) => text.startsWith('WITH clash'))).toHaveLength(2);
      expect(texts.some(readsRow)).toBe(false);
      expect((await loadEntries(postgresSessionStore({ pool: pool(1), schema: name }), 'chat')).filter((entry) => entry.kind === 'message')).toHaveLength(4);
    });

    it('an append after another writer appended to the session it loaded is refused as a conflict, and writes nothing', async () => {
      const name = schema();
      const { texts, pool: counted } = recording();
      await expectAppendAfterLoadRefusedWhenMoved(postgresSessionStore({ pool: pool(1), schema: name }), postgresSessionStore({ pool: counted, schema: name, migrate: false }));
      expect(texts.some(readsRow)).toBe(true);
    });

    it('folds the pending approvals the load read: an approval waiting before the append is still listed after it, and one whose call it answers is not', async () => {
      const name = schema();
      const { texts, pool: counted } = recording();
      const loader = postgresSessionStore({ pool: counted, schema: name, migrate: false });
      const lister = postgresSessionStore({ pool: pool(1), schema: name });
      // The loader's first statements check the schema: the writer's store migrates it first.
      await expectLoadedApprovalsFolded(postgresSessionStore({ pool: pool(1), schema: name }), loader, lister);
      expect(texts.some(readsRow)).toBe(false);
    });
  });

  it('reads a long session in pages, the next asked for while one is handed over; a load given up leaves no statement running', async () => {
    const name = schema();
    const make = entryMaker('paged');
    const inner = pool(1);
    await postgresSessionStore({ pool: inner, schema: name }).append('paged', Array.from({ length: 1700 }, (_, index) => make.userText(`turn ${index}`)), { expectedRevision: 0 });
    let running = 0;
    let most = 0;
    const pages: Array<number | 'first'> = [];
    const counting = wrapped(inner, async (text, values) => {
      running += 1;
      most = Math.max(most, running);
      try {
        return await inner.query(text, values);
      } finally {
        running -= 1;
        if (text.includes('running - bytes')) pages.push(values!.length === 1 ? 'first' : Number(values![1]));
      }
    });
    const store = postgresSessionStore({ pool: counting, schema: name, migrate: false });
    // Whole and in order, four pages of at most 500 rows (the first read with the session's row),
    // one statement at a time.
    expect((await loadEntries(store, 'paged')).map((entry) => entry.seq)).toEqual(Array.from({ length: 1700 }, (_, index) => index + 1));
    expect(pages).toEqual(['first', 500, 1000, 1500]);
    expect(most).toBe(1);
    // The next page is asked for before the reader takes this one's entries, and sent (the pool
    // hands it a connection) before this one is parsed.
    pages.length = 0;
    const parse = vi.spyOn(JSON, 'parse');
    /** Entries parsed when the pool handed out a connection, for each statement of the load. */
    const parsedAtAcquire: number[] = [];
    // (Entries are JSON objects; the session's row comes as an array.)
    const onAcquire = () => parsedAtAcquire.push(parse.mock.calls.filter(([text]) => text.startsWith('{')).length);
    inner.on('acquire', onAcquire);
    let first: IteratorResult<unknown>;
    const reader = store.load('paged')[Symbol.asyncIterator]();
    try {
      first = await reader.next();
    } finally {
      parse.mockRestore();
      inner.off('acquire', onAcquire);
    }
    expect(first.done).toBe(false);
    expect(pages).toEqual(['first']);
    expect(running).toBe(1);
    // The session's row with the first page, then the second page: sent before any entry of the first was parsed.
    expect(parsedAtAcquire).toEqual([0, 0]);
    // Given up: the page asked for is waited for (and dropped) before the load ends.
    await reader.return!(undefined);
    expect(running).toBe(0);
    expect(pages).toEqual(['first', 500]);
  });

  it("a load's first statement read in any order (a UNION ALL promises none) still gives the session's row and its first page in order", async () => {
    const name = schema();
    const make = entryMaker('shuffled');
    const inner = pool(1);
    await postgresSessionStore({ pool: inner, schema: name }).append('shuffled', Array.from({ length: 40 }, (_, index) => make.userText(`turn ${index}`)), { expectedRevision: 0 });
    let reversed = 0;
    const reversing = wrapped(inner, async (text, values) => {
      const result = await inner.query(text, values);
      if (!text.startsWith('WITH r AS')) return result;
      reversed += 1;
      return { ...result, rows: [...result.rows].reverse() };
    });
    const store = postgresSessionStore({ pool: reversing, schema: name, migrate: false });
    expect((await loadEntries(store, 'shuffled')).map((entry) => entry.seq)).toEqual(Array.from({ length: 40 }, (_, index) => index + 1));
    expect(reversed).toBe(1);
    // The row read so is the append's basis: the next append is stored after it.
    await store.append('shuffled', [make.userText('one more')], { expectedRevision: 40 });
    expect((await loadEntries(store, 'shuffled')).map((entry) => entry.seq)).toHaveLength(41);
  });

  describe('a new session\'s first append', () => {
    it('is one statement: no read of the row before it', async () => {
      const inner = pool(1);
      const texts: string[] = [];
      const store = postgresSessionStore({ pool: wrapped(inner, (text, values) => (texts.push(text), inner.query(text, values))), schema: schema() });
      const warm = entryMaker('warm');
      await store.append('warm', [warm.userText('tables made')], { expectedRevision: 0 });
      texts.length = 0;
      const make = entryMaker('s');
      await store.append('s', [make.userText('hello'), make.next({ kind: 'reminder', text: 'r' })], { expectedRevision: 0 });
      expect(texts).toHaveLength(1);
      expect((await loadEntries(store, 's')).map((entry) => entry.seq)).toEqual([1, 2]);
    });

    it('refuses as the read before it did: another revision (even with an id of a stored entry and other content) is a conflict, a lost lease is LeaseLostError, a retry of a stored append is taken', async () => {
      const store = postgresSessionStore({ pool: pool(), schema: schema() });
      const make = entryMaker('s');
      const first = [make.userText('hello'), make.userText('again')];
      await store.append('s', first, { expectedRevision: 0 });
      // The reply was lost and the same append comes again: stored once.
      await store.append('s', first, { expectedRevision: 0 });
      expect((await loadEntries(store, 's')).map((entry) => entry.seq)).toEqual([1, 2]);
      // A writer that believes the session new: a conflict naming the revision, whatever its ids.
      const stale = entryMaker('s');
      await expect(store.append('s', [stale.userText('other')], { expectedRevision: 0 })).rejects.toSatisfy((error: unknown) => SessionConflictError.isInstance(error) && (error as SessionConflictError).actualRevision === 2);
      const clashing = { ...entryMaker('s').userText('other content'), id: first[0]!.id } as SessionEntry;
      await expect(store.append('s', [clashing], { expectedRevision: 0 })).rejects.toSatisfy(SessionConflictError.isInstance);
      // A lease taken on a new session, then lost: its holder's first append is refused as such.
      const lease = await store.leases!.acquire('fenced', { holder: 'a', ttlMs: 60_000 });
      await store.leases!.release(lease!);
      await store.leases!.acquire('fenced', { holder: 'b', ttlMs: 60_000 });
      const fenced = entryMaker('fenced');
      await expect(store.append('fenced', [fenced.userText('late')], { expectedRevision: 0, fencingToken: lease!.fencingToken })).rejects.toSatisfy(LeaseLostError.isInstance);
      expect(await loadEntries(store, 'fenced')).toEqual([]);
    });
  });

  describe('prepared statements', () => {
    /** The names of the statements prepared on the one connection of `pool` (a pool of one). */
    const prepared = async (on: pg.Pool): Promise<string[]> => (await on.query(`SELECT name FROM pg_prepared_statements ORDER BY name`)).rows.map((row) => String(row.name));
    /** Appends `count` user messages to session `s` and returns what loads. */
    const appendAndLoad = async (store: ReturnType<typeof postgresSessionStore>, make: ReturnType<typeof entryMaker>, count: number) => {
      for (let index = 0; index < count; index += 1) {
        const revision = make.revision;
        await store.append('s', [make.userText(`message ${revision + 1}`)], { expectedRevision: revision });
      }
      return (await loadEntries(store, 's')).map((entry) => entry.seq);
    };

    it('a pg.Pool gets named statements; preparedStatements: false and a wrapped pool get none', async () => {
      const name = schema();
      const plain = pool(1);
      expect(await appendAndLoad(postgresSessionStore({ pool: plain, schema: name }), entryMaker('s'), 3)).toEqual([1, 2, 3]);
      expect((await prepared(plain)).filter((each) => each.startsWith('agent_harness_')).length).toBeGreaterThan(0);
      const off = pool(1);
      const make = entryMaker('s', 3);
      expect(await appendAndLoad(postgresSessionStore({ pool: off, schema: name, preparedStatements: false }), make, 2)).toEqual([1, 2, 3, 4, 5]);
      expect(await prepared(off)).toEqual([]);
      // A host's wrapper may read its first argument as the text: it is given text only.
      const inner = pool(1);
      const texts: unknown[] = [];
      const wrapper = wrapped(inner, (text, values) => (texts.push(text), inner.query(text, values)));
      expect(await appendAndLoad(postgresSessionStore({ pool: wrapper, schema: name }), make, 1)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(texts.every((text) => typeof text === 'string')).toBe(true);
      expect(await prepared(inner)).toEqual([]);
      expect(() => postgresSessionStore({ pool: plain, schema: name, preparedStatements: 'yes' as unknown as boolean })).toThrow(ConfigurationError);
    });

    it('each append writes its own session\'s waiting flag and kind of statement, whatever one store sent before (its texts are kept per store)', async () => {
      const name = schema();
      const one = pool(1);
      const store = postgresSessionStore({ pool: one, schema: name });
      const waiting = async (sessionId: string): Promise<boolean> => (await admin!.query(`SELECT waiting FROM "${name}".sessions WHERE session_id = $1`, [sessionId])).rows[0].waiting;
      // A session that waits from its first append, then one that does not, then both move on.
      const a = entryMaker('a');
      await store.append('a', [a.assistantCalls('t1'), a.approvalPending('ap1', 't1')], { expectedRevision: 0 });
      const b = entryMaker('b');
      await store.append('b', [b.userText('hello')], { expectedRevision: 0 });
      expect([await waiting('a'), await waiting('b')]).toEqual([true, false]);
      await store.append('b', [b.assistantCalls('t2'), b.approvalPending('ap2', 't2')], { expectedRevision: b.revision - 2 });
      await store.append('a', [a.toolResult('t1', 'done')], { expectedRevision: a.revision - 1 });
      expect([await waiting('a'), await waiting('b')]).toEqual([false, true]);
      await store.append('a', [a.userText('more')], { expectedRevision: a.revision - 1 });
      await store.append('b', [b.toolResult('t2', 'done')], { expectedRevision: b.revision - 1 });
      expect([await waiting('a'), await waiting('b')]).toEqual([false, false]);
      expect((await store.listPending!()).map((pending) => pending.sessionId)).toEqual([]);
      expect((await loadEntries(store, 'a')).map((entry) => entry.seq)).toEqual([1, 2, 3, 4]);
    });

    it('a connection that lost its prepared statements (a pooler moving the client to another server connection) gets each append once, unnamed from then on', async () => {
      const name = schema();
      const one = pool(1);
      const store = postgresSessionStore({ pool: one, schema: name });
      const make = entryMaker('s');
      expect(await appendAndLoad(store, make, 2)).toEqual([1, 2]);
      // The server connection forgets them; pg still takes them for prepared (SQLSTATE 26000 next).
      await one.query('DEALLOCATE ALL');
      expect(await appendAndLoad(store, make, 2)).toEqual([1, 2, 3, 4]);
      expect(await prepared(one)).toEqual([]);
      const { rows } = await admin!.query(`SELECT revision FROM "${name}".sessions WHERE session_id = 's'`);
      expect(Number(rows[0].revision)).toBe(4);
    });

    it('two copies of the library in one process (an ES module and a CommonJS build, two versions) share a pool of one connection, each preparing its statements', async () => {
      const one = pool(1);
      const mine = await import('../../src/postgres/prepared-pool.js');
      // The second copy: the module again under another id, with its own table of names.
      const second = '../../src/postgres/prepared-pool.js?second-copy';
      const copy = (await import(/* @vite-ignore */ second)) as typeof mine;
      expect(copy).not.toBe(mine);
      const texts = [`SELECT 'copies-a' AS got`, `SELECT 'copies-b' AS got`];
      // Each copy names a text the other has not seen first.
      expect((await mine.preparedPool(one).query(texts[0]!, [])).rows).toEqual([{ got: 'copies-a' }]);
      expect((await copy.preparedPool(one).query(texts[1]!, [])).rows).toEqual([{ got: 'copies-b' }]);
      expect((await copy.preparedPool(one).query(texts[0]!, [])).rows).toEqual([{ got: 'copies-a' }]);
      expect((await mine.preparedPool(one).query(texts[1]!, [])).rows).toEqual([{ got: 'copies-b' }]);
      const statements = (await one.query(`SELECT name, statement FROM pg_prepared_statements WHERE statement LIKE '%copies-%' ORDER BY statement`)).rows;
      expect(statements.map((row) => row.statement)).toEqual(texts);
      expect(statements.every((row) => String(row.name).startsWith('agent_harness_'))).toBe(true);
    });

    it('a connection that already holds a statement under the name (42P05) gets the append once, unnamed', async () => {
      const name = schema();
      const first = pool(1);
      const make = entryMaker('s');
      expect(await appendAndLoad(postgresSessionStore({ pool: first, schema: name }), make, 1)).toEqual([1]);
      const names = (await prepared(first)).filter((each) => each.startsWith('agent_harness_'));
      // Another pool's connection, where something else prepared those names (pg does not know).
      const second = pool(1);
      for (const each of names) await second.query(`PREPARE ${each} AS SELECT 1`);
      const store = postgresSessionStore({ pool: second, schema: name });
      expect(await appendAndLoad(store, make, 2)).toEqual([1, 2, 3]);
      // None prepared since (pg-pool also drops a connection a statement failed on).
      expect((await prepared(second)).every((each) => names.includes(each))).toBe(true);
    });
  });

  it('never leaves entries beside revision 0 when deletes race appends', async () => {
    const name = schema();
    const writer = postgresSessionStore({ pool: pool(), schema: name });
    const deleter = postgresSessionStore({ pool: pool(), schema: name });
    for (let round = 0; round < 15; round += 1) {
      const make = entryMaker('raced');
      await writer.append('raced', [make.userText('first')], { expectedRevision: 0 }).catch(() => undefined);
      const entries = await loadEntries(writer, 'raced');
      const revision = entries.at(-1)?.seq ?? 0;
      await Promise.allSettled([
        writer.append('raced', [entryMaker('raced', revision).userText('second')], { expectedRevision: revision }),
        deleter.delete('raced'),
      ]);
      const { rows } = await admin!.query(
        `SELECT r.revision, (SELECT count(*) FROM "${name}".session_entries e WHERE e.session_id = r.session_id) AS entries FROM "${name}".sessions r WHERE r.session_id = 'raced'`,
      );
      expect(Number(rows[0].entries)).toBe(Number(rows[0].revision));
      await deleter.delete('raced');
    }
  });

  it('an append whose connection PostgreSQL ends mid-statement (pg_terminate_backend) stores nothing, and the writer\'s retry stores it once', async () => {
    const name = schema();
    const store = postgresSessionStore({ pool: pool(), schema: name });
    const make = entryMaker('killed');
    await store.append('killed', [make.userText('first')], { expectedRevision: 0 });
    const second = [make.userText('second'), make.userText('third')];
    // Another transaction holds the session's row, so the append waits inside its statement.
    const blocker = await admin!.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query(`SELECT 1 FROM "${name}".sessions WHERE session_id = 'killed' FOR UPDATE`);
      const appending = store.append('killed', second, { expectedRevision: 1 });
      // Its failure is awaited from the start: the append may see its connection end before the
      // admin query that ends it returns (an unhandled rejection meanwhile, on a loaded machine).
      const failed = expect(appending).rejects.toThrow(/terminat/i);
      let waiting: number | undefined;
      while (waiting === undefined) {
        const { rows } = await admin!.query(
          `SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1 AND pid <> pg_backend_pid()`,
          [`%"${name}".session_entries%`],
        );
        waiting = rows[0]?.pid as number | undefined;
      }
      await admin!.query('SELECT pg_terminate_backend($1)', [waiting]);
      await failed;
      await blocker.query('ROLLBACK');
    } finally {
      blocker.release();
    }
    expect(await loadEntries(store, 'killed')).toHaveLength(1);
    // The writer tries again with what it sent: stored once, and the session moves on from there.
    await store.append('killed', second, { expectedRevision: 1 });
    await store.append('killed', second, { expectedRevision: 1 });
    const entries = await loadEntries(store, 'killed');
    expect(entries.map((entry) => entry.seq)).toEqual([1, 2, 3]);
    expect(entries.slice(1).map((entry) => entry.id)).toEqual(second.map((entry) => entry.id));
    await store.append('killed', [make.userText('fourth')], { expectedRevision: 3 });
    expect(await loadEntries(store, 'killed')).toHaveLength(4);
  });

  it('lists sessions in code point order also when the column sorts by a locale (an ICU collation)', async () => {
    const { rows: icu } = await admin!.query(`SELECT 1 FROM pg_collation WHERE collname = 'en-x-icu'`);
    if (icu.length === 0) return; // A server built without ICU: nothing to check.
    const name = schema();
    const store = postgresSessionStore({ pool: pool(), schema: name });
    await store.list();
    await admin!.query(`ALTER TABLE "${name}".sessions ALTER COLUMN session_id TYPE text COLLATE "en-x-icu"`);
    const ids = ['ab', 'a_b', 'B', 'a-c', 'a'];
    for (const sessionId of ids) {
      const make = entryMaker(sessionId);
      await store.append(sessionId, [make.userText('Go.'), make.assistantCalls('toolu_1'), make.approvalPending('approval_1', 'toolu_1')], { expectedRevision: 0 });
    }
    // The locale's order would be a, a_b, a-c, ab, B.
    expect(await store.list()).toEqual(['B', 'a', 'a-c', 'a_b', 'ab']);
    expect((await store.listPending!()).map((session) => session.sessionId)).toEqual(['B', 'a', 'a-c', 'a_b', 'ab']);
  });

  it('refolds pending approvals saved under another version of the rule', async () => {
    const name = schema();
    const store = postgresSessionStore({ pool: pool(), schema: name });
    const make = entryMaker('waiting');
    await store.append('waiting', [make.userText('Go.'), make.assistantCalls('toolu_1'), make.approvalPending('approval_1', 'toolu_1')], { expectedRevision: 0 });
    // As an older agent-harness might have left it: another rule, another shape.
    await admin!.query(`UPDATE "${name}".sessions SET pending = NULL, pending_rule = 0`);
    const other = postgresSessionStore({ pool: pool(), schema: name });
    expect((await other.listPending!()).map((session) => session.approvals.map((approval) => approval.id))).toEqual([['approval_1']]);
    const { rows } = await admin!.query(`SELECT pending_rule FROM "${name}".sessions`);
    expect(rows[0].pending_rule).toBe(PENDING_APPROVALS_RULE);
    // An append onto a session whose saved state is outdated folds from the whole transcript.
    await admin!.query(`UPDATE "${name}".sessions SET pending = '{"rule":0,"x":1}', pending_rule = 0`);
    const third = postgresSessionStore({ pool: pool(), schema: name });
    await third.append('waiting', [make.toolState('k', 1)], { expectedRevision: 3 });
    expect((await third.listPending!()).map((session) => session.sessionId)).toEqual(['waiting']);
  });

  it('lists the other sessions\' approvals when a session written by a newer agent-harness has to be refolded, and does not read it again', async () => {
    const name = schema();
    const store = postgresSessionStore({ pool: pool(), schema: name });
    for (const sessionId of ['a-newer', 'b-waiting']) {
      const make = entryMaker(sessionId);
      await store.append(sessionId, [make.userText('Go.'), make.assistantCalls('toolu_1'), make.approvalPending(`approval_${sessionId}`, 'toolu_1')], { expectedRevision: 0 });
    }
    await admin!.query(`UPDATE "${name}".session_entries SET entry = jsonb_set(entry::jsonb, '{$schemaVersion}', '99')::json WHERE session_id = 'a-newer' AND seq = 1`);
    await admin!.query(`UPDATE "${name}".sessions SET pending_rule = pending_rule + 1 WHERE session_id = 'a-newer'`);
    await admin!.query(`UPDATE "${name}".sessions SET pending_rule = 0 WHERE session_id = 'b-waiting'`);
    const queries: string[] = [];
    const watched = pool();
    const query = watched.query.bind(watched);
    watched.query = ((text: string, values?: unknown[]) => {
      queries.push(text);
      return query(text, values);
    }) as typeof watched.query;
    const other = postgresSessionStore({ pool: watched, schema: name });
    expect((await other.listPending!()).map((session) => session.sessionId)).toEqual(['b-waiting']);
    const { rows } = await admin!.query(`SELECT pending_rule FROM "${name}".sessions WHERE session_id = 'a-newer'`);
    expect(rows[0].pending_rule).toBe(PENDING_APPROVALS_RULE + 1);
    const reads = () => queries.filter((text) => text.includes('session_entries') && text.includes('ORDER BY seq')).length;
    const before = reads();
    expect((await other.listPending!()).map((session) => session.sessionId)).toEqual(['b-waiting']);
    expect(reads()).toBe(before);
  });

  it('runs leases on the server clock by default', async () => {
    const store = postgresSessionStore({ pool: pool(), schema: schema() });
    const before = Date.now();
    const lease = await store.leases!.acquire('clocked', { holder: 'worker', ttlMs: 60_000 });
    // The server and this process share a host: the server's clock reads the same time.
    expect(lease!.expiresAt).toBeGreaterThanOrEqual(before + 60_000 - 5_000);
    expect(lease!.expiresAt).toBeLessThanOrEqual(Date.now() + 60_000 + 5_000);
    const renewed = await store.leases!.renew(lease!, { ttlMs: 120_000 });
    expect(renewed!.expiresAt).toBeGreaterThan(lease!.expiresAt);
  });

  it('approves and saves a plan whose text holds a NUL character, with both stores on PostgreSQL, and a resumed agent reads it back', async () => {
    const plan = '# Plan\n1. Parse the C string "a\u0000b".\n';
    const name = schema();
    const store = postgresSessionStore({ pool: pool(), schema: name });
    const planStore = postgresPlanStore({ pool: pool(), schema: name });
    const model = scriptedModel([turn(toolCall('ExitPlanMode', { plan }, 'toolu_plan')), 'Executing.']);
    const agent = createAgent({ model, store, planStore, sessionId: 'nul-plan', permissionMode: 'plan', canUseTool: () => ({ behavior: 'allow' }) });
    const result = await agent.run('plan it').result;
    expect(result.status).toBe('completed');
    expect(agent.permissionMode).toBe('default');
    expect(await planStore.read(agent.plan!.name)).toBe(plan);
    await agent.close();
    const resumed = createAgent({ model: scriptedModel([]), store, planStore: postgresPlanStore({ pool: pool(), schema: name }), resume: 'nul-plan' });
    await resumed.ready;
    expect(resumed.plan?.text).toBe(plan);
    await resumed.close();
  });

  it('refuses a plan text that is not a string, naming the plan', async () => {
    const plans = postgresPlanStore({ pool: pool(), schema: schema() });
    await expect(plans.write('plan.md', 42 as never)).rejects.toThrow(/postgresPlanStore\.write\("plan\.md"\) needs the plan text as a string, got number/);
  });

  /** Runs the SQL a SessionStoreCorruptError prints as its repair (the parentheses after `marker`). */
  const runRepair = async (error: unknown, marker: string) => {
    const message = (error as Error).message;
    const sql = message.slice(message.indexOf(marker)).split(' (')[1]!.split(')')[0]!;
    for (const statement of sql.split('; ')) await admin!.query(statement);
  };

  it('refuses an append after the last readable row when the later rows are gone or unreadable, and the cut back it prints makes the session writable', async () => {
    const name = schema();
    const store = postgresSessionStore({ pool: pool(), schema: name });
    const make = entryMaker('s');
    await store.append('s', [make.userText('a'), make.userText('b'), make.userText('c'), make.userText('d')], { expectedRevision: 0 });
    await admin!.query(`DELETE FROM "${name}".session_entries WHERE seq = 4`);
    await admin!.query(`UPDATE "${name}".session_entries SET entry = '"torn"'::json WHERE seq = 3`);
    expect((await loadEntries(store, 's')).map((entry) => entry.seq)).toEqual([1, 2]);
    const refused = await store.append('s', [entryMaker('s', 2).userText('x')], { expectedRevision: 2 }).catch((error: unknown) => error);
    expect(SessionStoreCorruptError.isInstance(refused)).toBe(true);
    expect((refused as Error).message).toContain(`entries 3–4 of "${name}".session_entries are missing or not a transcript entry`);
    await runRepair(refused, 'cut the session back');
    await store.append('s', [entryMaker('s', 2).userText('x')], { expectedRevision: 2 });
    expect((await loadEntries(store, 's')).map((entry) => entry.id)).toEqual(['s-entry-1', 's-entry-2', 's-entry-3']);
  });

  it('refuses an append onto rows that lie past the revision, and the repair it prints makes the session writable', async () => {
    const name = schema();
    const store = postgresSessionStore({ pool: pool(), schema: name });
    const make = entryMaker('s');
    await store.append('s', [make.userText('a'), make.userText('b'), make.userText('c')], { expectedRevision: 0 });
    // A partial restore of the sessions table: the revision went back, the rows stayed.
    await admin!.query(`UPDATE "${name}".sessions SET revision = 1, last_id = 's-entry-1'`);
    const next = { ...entryMaker('s', 1, 'other').userText('x'), parentId: 's-entry-1' };
    const refused = await store.append('s', [next], { expectedRevision: 1 }).catch((error: unknown) => error);
    expect(SessionStoreCorruptError.isInstance(refused)).toBe(true);
    expect((refused as Error).message).toContain(`rows 2–3 of "${name}".session_entries lie past the session's revision, 1`);
    expect((await admin!.query(`SELECT count(*)::int AS n FROM "${name}".session_entries`)).rows[0].n).toBe(3);
    await runRepair(refused, 'make the last of them');
    expect((await loadEntries(store, 's')).map((entry) => entry.id)).toEqual(['s-entry-1', 's-entry-2', 's-entry-3']);
    await store.append('s', [entryMaker('s', 3).userText('d')], { expectedRevision: 3 });
  });

  it('keeps entries that are not JSON objects out of the transcript, with a warning naming the seq', async () => {
    const name = schema();
    const store = postgresSessionStore({ pool: pool(), schema: name });
    const make = entryMaker('s');
    await store.append('s', [make.userText('a'), make.userText('b'), make.userText('c')], { expectedRevision: 0 });
    await admin!.query(`UPDATE "${name}".session_entries SET entry = '[1,2]'::json WHERE seq = 3`);
    const warnings: Array<{ seq?: number; message: string }> = [];
    const loaded: SessionEntry[] = [];
    for await (const entry of store.load('s', { onWarning: (warning) => warnings.push(warning) })) loaded.push(entry);
    expect(loaded.map((entry) => entry.id)).toEqual(['s-entry-1', 's-entry-2']);
    expect(warnings).toEqual([expect.objectContaining({ seq: 3, message: expect.stringContaining('Skipped entry 3') })]);
  });

  it('loads an entry whose own seq was edited with its row\'s seq, with a warning, and the session stays writable', async () => {
    const name = schema();
    const store = postgresSessionStore({ pool: pool(), schema: name });
    const make = entryMaker('s');
    await store.append('s', [make.userText('a'), make.userText('b'), make.userText('c')], { expectedRevision: 0 });
    await admin!.query(`UPDATE "${name}".session_entries SET entry = jsonb_set(entry::jsonb, '{seq}', '99')::json WHERE seq = 3`);
    const warnings: Array<{ seq?: number; message: string }> = [];
    const loaded: SessionEntry[] = [];
    for await (const entry of store.load('s', { onWarning: (warning) => warnings.push(warning) })) loaded.push(entry);
    expect(loaded.map((entry) => entry.seq)).toEqual([1, 2, 3]);
    expect(warnings).toEqual([expect.objectContaining({ seq: 3, message: expect.stringContaining('says it is entry 99') })]);
    await store.append('s', [entryMaker('s', 3).userText('d')], { expectedRevision: 3 });
  });
});


/** A schema per case; every pool opened on it is ended and the schema dropped after. */
function postgresFixture(now: () => number) {
  const schema = testSchema();
  const pools: pg.Pool[] = [];
  const open = () => {
    const pool = testPool();
    pools.push(pool);
    return postgresSessionStore({ pool, schema, now });
  };
  return {
    store: open(),
    openPeer: open,
    // What a database row can look like after a bad hand edit or a partial restore: one entry
    // that is not an entry object, another row gone.
    damage: async (sessionId: string) => {
      await admin!.query(`UPDATE "${schema}".session_entries SET entry = '"not an entry"'::json WHERE session_id = $1 AND seq = 2`, [sessionId]);
      await admin!.query(`DELETE FROM "${schema}".session_entries WHERE session_id = $1 AND seq = 4`, [sessionId]);
      // The last row lost too: the session's revision is past its last row.
      await admin!.query(`DELETE FROM "${schema}".session_entries WHERE session_id = $1 AND seq = 5`, [sessionId]);
    },
    dispose: async () => {
      await Promise.all(pools.map((pool) => pool.end()));
      await dropSchema(admin!, schema);
    },
  };
}

describe.skipIf(!postgres.reachable)('PostgreSQL stores', () => {
  describeConformance({
    title: 'postgresSessionStore conformance',
    cases: sessionStoreConformance({ create: ({ now }) => postgresFixture(now), peers: true, damage: true, entryIds: true }),
    describe,
    it,
  });

  describeConformance({
    title: 'postgresPlanStore conformance',
    cases: planStoreConformance({
      create: () => {
        const schema = testSchema();
        const pool = testPool(2);
        const peer = testPool(2);
        return {
          store: postgresPlanStore({ pool, schema }),
          openPeer: () => postgresPlanStore({ pool: peer, schema }),
          dispose: async () => {
            await Promise.all([pool.end(), peer.end()]);
            await dropSchema(admin!, schema);
          },
        };
      },
    }),
    describe,
    it,
  });
});
