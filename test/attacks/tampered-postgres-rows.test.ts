// Attack class: a PostgreSQL session store's rows edited by hand (psql, a bad migration, a partial
// restore): the tampering attacks of tampered-session-files.test.ts, ported to rows. Each must
// load what is good (with a warning naming what was skipped, as docs/stores.md says for damaged
// data) or fail with the documented error naming the entry and the cure: never loaded silently,
// never a raw driver error, never a SessionConflictError that a reload cannot get past.
import { describe, expect, it } from 'vitest';
import { createAgent, SessionStoreCorruptError, UnsupportedSchemaVersionError, type SessionEntry } from 'agent-harness';
import { postgresSessionStore } from 'agent-harness/postgres';
import { scriptedModel } from 'agent-harness/testing';
import { entryMaker } from '../../src/testing/store-conformance/conformance-entries.js';
import { postgres } from '../postgres/postgres-test-database.js';
import { postgresTestScope } from '../postgres/postgres-test-scope.js';
import { corrupt, load, loadBothWays, session } from './tampered-store.js';

const scope = postgresTestScope();
const admin = scope.admin;

/** A fresh schema with a store on it; `sql` runs as the hand that edits the rows. */
function setup() {
  const schema = scope.schema();
  const store = postgresSessionStore({ pool: scope.pool(2), schema });
  const t = (table: string) => `"${schema}".${table}`;
  const sql = (text: string, values: unknown[] = []) => admin!.query(text, values);
  return { schema, store, t, sql };
}

type Setup = ReturnType<typeof setup>;

/** Sets row `seq`'s entry to `entry` (a value or SQL text). */
const setRow = (context: Setup, sessionId: string, seq: number, entry: unknown) =>
  context.sql(`UPDATE ${context.t('session_entries')} SET entry = $3::json WHERE session_id = $1 AND seq = $2`, [sessionId, seq, typeof entry === 'string' ? entry : JSON.stringify(entry)]);

const rowEntry = async (context: Setup, sessionId: string, seq: number) =>
  (await context.sql(`SELECT entry::text AS entry FROM ${context.t('session_entries')} WHERE session_id = $1 AND seq = $2`, [sessionId, seq])).rows[0].entry as string;

describe.skipIf(!postgres.reachable)('attack: PostgreSQL rows tampered with by hand', () => {
  it('a row given the id of an earlier entry with other content: the load fails with SessionStoreCorruptError naming both', async () => {
    const context = setup();
    const written = await session(context, 'clash');
    await setRow(context, 'clash', 3, { ...written[2]!, id: written[0]!.id });
    const error = await corrupt(context, 'clash');
    expect(error.message).toContain('transcript entry 3');
    expect(error.message).toContain(`has the id "${written[0]!.id}" of entry 1`);
  });

  it("a row holding another session's entry in the middle: the load fails naming the entry and the cure", async () => {
    const context = setup();
    await session(context, 'victim');
    const other = await session(context, 'other', 3);
    await setRow(context, 'victim', 3, other[2]!);
    const error = await corrupt(context, 'victim');
    expect(error.message).toContain('transcript entry 3');
    expect(error.message).toContain(`(id "${other[2]!.id}") belongs to session "other"`);
    expect(error.message).toMatch(/restore|remove/i);
  });

  it("another session's entry added as a row at the end, the revision raised to take it: the load fails naming it", async () => {
    const context = setup();
    await session(context, 'victim-end', 2);
    const foreign = { ...entryMaker('elsewhere', 2).userText('not yours'), parentId: 'elsewhere-entry-2' } as SessionEntry;
    await context.sql(`INSERT INTO ${context.t('session_entries')} (session_id, seq, bytes, entry) VALUES ('victim-end', 3, 10, $1::json)`, [JSON.stringify(foreign)]);
    await context.sql(`UPDATE ${context.t('sessions')} SET revision = 3 WHERE session_id = 'victim-end'`);
    const error = await corrupt(context, 'victim-end');
    expect(error.message).toContain('transcript entry 3');
    expect(error.message).toContain('belongs to session "elsewhere"');
  });

  it('rows renumbered out of order (seq of two rows swapped): the load fails naming the entry, never applies them out of order', async () => {
    const context = setup();
    await session(context, 'reordered');
    const table = context.t('session_entries');
    await context.sql(`UPDATE ${table} SET seq = 100 WHERE session_id = 'reordered' AND seq = 2`);
    await context.sql(`UPDATE ${table} SET seq = 2 WHERE session_id = 'reordered' AND seq = 3`);
    await context.sql(`UPDATE ${table} SET seq = 3 WHERE session_id = 'reordered' AND seq = 100`);
    const error = await corrupt(context, 'reordered');
    expect(error.message).toContain('transcript entry 2');
  });

  it('two rows with their entries swapped (and their seq fields with them): the load fails naming the entry', async () => {
    const context = setup();
    const written = await session(context, 'swapped');
    await setRow(context, 'swapped', 2, written[2]!);
    await setRow(context, 'swapped', 3, written[1]!);
    const error = await corrupt(context, 'swapped');
    expect(error.message).toMatch(/transcript entry [23]/);
  });

  it('a row whose parentId points nowhere: the load fails naming the entry and the id', async () => {
    const context = setup();
    const written = await session(context, 'dangling');
    await setRow(context, 'dangling', 3, { ...written[2]!, parentId: 'no-such-entry' });
    const error = await corrupt(context, 'dangling');
    expect(error.message).toContain('transcript entry 3');
    expect(error.message).toContain('no-such-entry');
  });

  it('a row duplicated in the middle (the rows after it renumbered): the copy is skipped with a warning, each entry applied once', async () => {
    const context = setup();
    const written = await session(context, 'duplicated');
    const table = context.t('session_entries');
    for (const seq of [4, 3]) await context.sql(`UPDATE ${table} SET seq = seq + 1 WHERE session_id = 'duplicated' AND seq = $1`, [seq]);
    await context.sql(`INSERT INTO ${table} (session_id, seq, bytes, entry) SELECT session_id, 3, bytes, entry FROM ${table} WHERE session_id = 'duplicated' AND seq = 2`);
    await context.sql(`UPDATE ${context.t('sessions')} SET revision = 5 WHERE session_id = 'duplicated'`);
    const loaded = await load(context, 'duplicated');
    expect(loaded.ids).toEqual(written.map((entry) => entry.id));
    expect(loaded.revision).toBe(5);
    expect(loaded.warnings.join('\n')).toMatch(/copy of entry 2/);
  });

  it('a row whose entry is a truncated JSON text (the column holds JSON, so a string): skipped with a warning naming the seq; the rest loads and the session goes on', async () => {
    const context = setup();
    const written = await session(context, 'torn');
    const text = await rowEntry(context, 'torn', 2);
    await setRow(context, 'torn', 2, JSON.stringify(text.slice(0, 25)));
    const loaded = await load(context, 'torn');
    expect(loaded.ids).toEqual([written[0]!.id, written[2]!.id, written[3]!.id]);
    expect(loaded.warnings.join('\n')).toMatch(/Skipped entry 2/);
    await context.store.append('torn', [entryMaker('torn', 4).userText('after')], { expectedRevision: 4 });
  });

  it('a row whose $schemaVersion was removed or made a string: SessionStoreCorruptError naming the entry and the field, not advice to upgrade', async () => {
    const context = setup();
    const written = await session(context, 'unversioned');
    const { $schemaVersion: _version, ...without } = written[1]!;
    await setRow(context, 'unversioned', 2, without);
    let error = await corrupt(context, 'unversioned');
    expect(error.message).toContain('transcript entry 2');
    expect(error.message).toContain('has no $schemaVersion field');
    expect(error.message).not.toMatch(/Upgrade agent-harness/);
    await setRow(context, 'unversioned', 2, { ...written[1]!, $schemaVersion: '2' });
    error = await corrupt(context, 'unversioned');
    expect(error.message).toContain('has $schemaVersion "2"');
  });

  it('a row whose $schemaVersion was raised: UnsupportedSchemaVersionError naming the versions this build reads', async () => {
    const context = setup();
    const written = await session(context, 'future');
    await setRow(context, 'future', 2, { ...written[1]!, $schemaVersion: 99 });
    const error = await load(context, 'future').catch((caught: unknown) => caught);
    expect(UnsupportedSchemaVersionError.isInstance(error)).toBe(true);
    expect((error as UnsupportedSchemaVersionError).supported).toEqual([1, 2]);
  });

  it('an object row that is no entry at all ({"$schemaVersion": 2}): resume fails with SessionStoreCorruptError naming the entry, never a TypeError', async () => {
    const context = setup();
    await session(context, 'hollow');
    await setRow(context, 'hollow', 3, { $schemaVersion: 2, seq: 3 });
    const resumed = createAgent({ model: scriptedModel([]), store: context.store, resume: 'hollow' });
    const error = await resumed.ready.then(() => undefined, (caught: unknown) => caught);
    expect(SessionStoreCorruptError.isInstance(error), String(error)).toBe(true);
    expect((error as Error).message).toContain('transcript entry 3');
  });

  it('rows deleted in the middle: the others load with a warning naming the missing seqs (not silently), and the session goes on', async () => {
    const context = setup();
    const written = await session(context, 'gap', 5);
    await context.sql(`DELETE FROM ${context.t('session_entries')} WHERE session_id = 'gap' AND seq IN (2, 3)`);
    const loaded = await load(context, 'gap');
    expect(loaded.ids).toEqual([written[0]!.id, written[3]!.id, written[4]!.id]);
    expect(loaded.revision).toBe(5);
    expect(loaded.warnings.join('\n')).toMatch(/Entries 2–3 of session "gap".* are missing/);
    await context.store.append('gap', [entryMaker('gap', 5).userText('after')], { expectedRevision: 5 });
  });

  it('a version-1 row after a deleted one is numbered by its row, so the writer that loaded the session can append (not a conflict for ever)', async () => {
    const context = setup();
    const make = entryMaker('legacy');
    const old = [make.userText('one'), make.userText('two'), make.userText('three')].map((entry) => {
      const { seq: _seq, ...rest } = entry;
      return { ...rest, $schemaVersion: 1 } as SessionEntry;
    });
    await context.store.append('legacy', old, { expectedRevision: 0 });
    await context.sql(`DELETE FROM ${context.t('session_entries')} WHERE session_id = 'legacy' AND seq = 2`);
    const loaded = await load(context, 'legacy');
    expect(loaded.revision).toBe(3);
    await context.store.append('legacy', [{ ...entryMaker('legacy', 3).userText('after'), parentId: loaded.lastId } as SessionEntry], { expectedRevision: loaded.revision });
  });

  it("the session row's last_id edited: an append after the last entry is refused with SessionStoreCorruptError printing the repair, not a conflict for ever", async () => {
    const context = setup();
    const written = await session(context, 'last-id');
    await context.sql(`UPDATE ${context.t('sessions')} SET last_id = 'edited' WHERE session_id = 'last-id'`);
    const loaded = await load(context, 'last-id');
    expect(loaded.lastId).toBe(written[3]!.id);
    const next = { ...entryMaker('last-id', 4).userText('after'), parentId: loaded.lastId } as SessionEntry;
    const refused = await context.store.append('last-id', [next], { expectedRevision: 4 }).catch((error: unknown) => error);
    expect(SessionStoreCorruptError.isInstance(refused), String(refused)).toBe(true);
    const message = (refused as Error).message;
    expect(message).toContain('"edited"');
    const repair = message.slice(message.indexOf('UPDATE ')).split(')')[0]!;
    await context.sql(repair.endsWith("'") ? repair : repair.replace(/\s*$/, ''));
    await context.store.append('last-id', [next], { expectedRevision: 4 });
    // A session deleted and written again is still a conflict: the entry at the revision is another one.
    await expect(context.store.append('last-id', [{ ...entryMaker('last-id', 5, 'another').userText('x') } as SessionEntry], { expectedRevision: 5 })).rejects.toThrow(/conflict|revision/i);
  });

  it("the session row's lease token edited below zero: acquiring is refused with SessionStoreCorruptError, never a lease with a token no append accepts", async () => {
    const context = setup();
    await session(context, 'leased', 1);
    await context.sql(`UPDATE ${context.t('sessions')} SET lease_token = -5 WHERE session_id = 'leased'`);
    const error = await context.store.leases!.acquire('leased', { holder: 'w', ttlMs: 1000 }).catch((caught: unknown) => caught);
    expect(SessionStoreCorruptError.isInstance(error), String(error)).toBe(true);
    expect((error as Error).message).toContain('lease_token');
  });

  it("listPending passes over a session with a damaged row that has to be refolded, and still lists the others' approvals", async () => {
    const context = setup();
    for (const sessionId of ['a-damaged', 'b-waiting']) {
      const make = entryMaker(sessionId);
      await context.store.append(sessionId, [make.userText('Go.'), make.assistantCalls('toolu_1'), make.approvalPending(`approval_${sessionId}`, 'toolu_1')], { expectedRevision: 0 });
    }
    await setRow(context, 'a-damaged', 1, `{"kind":"message"}`);
    await context.sql(`UPDATE ${context.t('sessions')} SET pending_rule = 0`);
    const other = postgresSessionStore({ pool: scope.pool(2), schema: context.schema });
    expect((await other.listPending!()).map((session) => session.sessionId)).toEqual(['b-waiting']);
  });

  it('a damaged session listPending passed over is listed by the same store once the row is repaired in place, with no append', async () => {
    const context = setup();
    const make = entryMaker('a-damaged');
    const entries = [make.userText('Go.'), make.assistantCalls('toolu_1'), make.approvalPending('approval_a', 'toolu_1')];
    await context.store.append('a-damaged', entries, { expectedRevision: 0 });
    const original = await rowEntry(context, 'a-damaged', 1);
    await setRow(context, 'a-damaged', 1, `{"kind":"message"}`);
    await context.sql(`UPDATE ${context.t('sessions')} SET pending_rule = 0`);
    const other = postgresSessionStore({ pool: scope.pool(2), schema: context.schema });
    expect(await other.listPending!()).toEqual([]);
    // The operator puts the entry back as it was.
    await setRow(context, 'a-damaged', 1, original);
    expect((await other.listPending!()).map((session) => session.sessionId)).toEqual(['a-damaged']);
  });

  it("the session row's revision lowered by hand (0, or below its rows): the load warns that rows lie past it instead of ending the transcript early without a word, and an append is refused with the repair", async () => {
    const context = setup();
    const written = await session(context, 'lowered');
    for (const revision of [2, 0]) {
      await context.sql(`UPDATE ${context.t('sessions')} SET revision = $1 WHERE session_id = 'lowered'`, [revision]);
      const loaded = await load(context, 'lowered');
      expect(loaded.ids).toEqual(written.slice(0, revision).map((entry) => entry.id));
      expect(loaded.warnings.join('\n')).toContain(`Rows ${revision + 1}–4 of session "lowered"`);
      expect(loaded.warnings.join('\n')).toContain(`lie past the session's revision, ${revision}`);
      const next = { ...entryMaker('lowered', revision, 'next').userText('x'), parentId: loaded.lastId } as SessionEntry;
      await expect(context.store.append('lowered', [next], { expectedRevision: revision })).rejects.toSatisfy(SessionStoreCorruptError.isInstance);
    }
  });

  it('damage through a long session warns in the order of the rows, whether the rows are read by page or one by one', async () => {
    const context = setup();
    const written = await session(context, 'order', 40);
    await setRow(context, 'order', 10, '"just text"');
    // Entry 5 again in place of 20 (the one after it names it as its parent): a warning of the load, between the store's.
    await setRow(context, 'order', 20, written[4]!);
    await setRow(context, 'order', 21, { ...written[20]!, parentId: written[4]!.id });
    await context.sql(`DELETE FROM ${context.t('session_entries')} WHERE session_id = 'order' AND seq = 30`);
    const loaded = await loadBothWays(context, 'order', [/Skipped entry 10 /, /Entry 20 .* says it is entry 5;/, /transcript entry 20 \(message\) is a copy of entry 5 /, /Entries 30 .* are missing/]);
    expect(loaded.ids).toHaveLength(37);
  });
});
