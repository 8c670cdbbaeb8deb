// Attack class: a Redis session store's keys edited by hand (redis-cli, a partial restore, another
// program under the same prefix): the tampering attacks of tampered-session-files.test.ts, ported
// to list elements and hash fields. Each must load what is good (with a warning naming what was
// skipped, as docs/stores.md says for damaged data) or fail with the documented error naming the
// entry or field and the cure: never loaded silently, never a raw Redis or Lua error.
import { describe, expect, it } from 'vitest';
import { createAgent, SessionStoreCorruptError, UnsupportedSchemaVersionError, type SessionEntry } from 'agent-harness';
import { redisSessionStore } from 'agent-harness/redis';
import { scriptedModel } from 'agent-harness/testing';
import { entryMaker } from '../../src/testing/store-conformance/conformance-entries.js';
import { redis } from '../redis/redis-test-server.js';
import { redisTestScope } from '../redis/redis-test-scope.js';
import { corrupt, load, loadBothWays, session } from './tampered-store.js';

const scope = redisTestScope();
const admin = scope.admin;

function setup() {
  const keyPrefix = scope.prefix();
  const store = redisSessionStore({ client: scope.client(), keyPrefix });
  return { keyPrefix, store, entries: (sessionId: string) => `${keyPrefix}entries:${sessionId}`, hash: (sessionId: string) => `${keyPrefix}session:${sessionId}` };
}

type Setup = ReturnType<typeof setup>;

const setElement = (context: Setup, sessionId: string, seq: number, entry: unknown) => admin!.lset(context.entries(sessionId), seq - 1, typeof entry === 'string' ? entry : JSON.stringify(entry));

describe.skipIf(!redis.reachable)('attack: Redis keys tampered with by hand', () => {
  it('an element given the id of an earlier entry with other content: the load fails naming both', async () => {
    const context = setup();
    const written = await session(context, 'clash');
    await setElement(context, 'clash', 3, { ...written[2]!, id: written[0]!.id });
    const error = await corrupt(context, 'clash');
    expect(error.message).toContain(`has the id "${written[0]!.id}" of entry 1`);
  });

  it("an element replaced with another session's entry: the load fails naming the entry and the cure", async () => {
    const context = setup();
    await session(context, 'victim');
    const foreign = entryMaker('other', 2).userText('not yours');
    await setElement(context, 'victim', 3, foreign);
    const error = await corrupt(context, 'victim');
    expect(error.message).toContain('transcript entry 3');
    expect(error.message).toContain('belongs to session "other"');
  });

  it("another session's entry pushed at the end with the revision raised to take it: the load fails naming it", async () => {
    const context = setup();
    await session(context, 'victim-end', 2);
    await admin!.rpush(context.entries('victim-end'), JSON.stringify(entryMaker('elsewhere', 2).userText('not yours')));
    await admin!.hset(context.hash('victim-end'), 'revision', '3');
    const error = await corrupt(context, 'victim-end');
    expect(error.message).toContain('belongs to session "elsewhere"');
  });

  it('two elements swapped: the load fails naming the entry, never applies them out of order', async () => {
    const context = setup();
    const written = await session(context, 'swapped');
    await setElement(context, 'swapped', 2, written[2]!);
    await setElement(context, 'swapped', 3, written[1]!);
    const error = await corrupt(context, 'swapped');
    expect(error.message).toMatch(/transcript entry [23]/);
  });

  it('an element whose parentId points nowhere: the load fails naming the entry and the id', async () => {
    const context = setup();
    const written = await session(context, 'dangling');
    await setElement(context, 'dangling', 3, { ...written[2]!, parentId: 'no-such-entry' });
    const error = await corrupt(context, 'dangling');
    expect(error.message).toContain('no-such-entry');
  });

  it('an element removed from the middle (LREM): the load fails naming the entry that moved up, and an append is refused with the repair, never stored after a shifted list', async () => {
    const context = setup();
    const written = await session(context, 'removed');
    await admin!.lrem(context.entries('removed'), 1, (await admin!.lindex(context.entries('removed'), 1))!);
    const error = await corrupt(context, 'removed');
    expect(error.message).toContain('transcript entry 2');
    const refused = await corrupt(context, 'removed', context.store.append('removed', [{ ...entryMaker('removed', 4).userText('after'), parentId: written[3]!.id } as SessionEntry], { expectedRevision: 4 }));
    expect(refused.message).toMatch(/holds 3 entries, while the session's revision/);
  });

  it('an element duplicated in the middle (LINSERT), the revision raised: the copy is skipped with a warning, each entry applied once', async () => {
    const context = setup();
    const written = await session(context, 'duplicated');
    const second = (await admin!.lindex(context.entries('duplicated'), 1))!;
    await admin!.linsert(context.entries('duplicated'), 'AFTER', second, second);
    await admin!.hset(context.hash('duplicated'), 'revision', '5');
    const loaded = await load(context, 'duplicated');
    expect(loaded.ids).toEqual(written.map((entry) => entry.id));
    expect(loaded.warnings.join('\n')).toMatch(/stored twice|copy of entry 2/);
  });

  it('an element cut short (invalid JSON): skipped with a warning naming the seq, the rest loads', async () => {
    const context = setup();
    const written = await session(context, 'torn');
    const text = (await admin!.lindex(context.entries('torn'), 1))!;
    await setElement(context, 'torn', 2, text.slice(0, 25));
    const loaded = await load(context, 'torn');
    expect(loaded.ids).toEqual([written[0]!.id, written[2]!.id, written[3]!.id]);
    expect(loaded.warnings.join('\n')).toMatch(/Skipped entry 2/);
  });

  it('an element whose $schemaVersion was removed: SessionStoreCorruptError naming the entry and the field; one raised: UnsupportedSchemaVersionError', async () => {
    const context = setup();
    const written = await session(context, 'versions');
    const { $schemaVersion: _version, ...without } = written[1]!;
    await setElement(context, 'versions', 2, without);
    const error = await corrupt(context, 'versions');
    expect(error.message).toContain('has no $schemaVersion field');
    expect(error.message).not.toMatch(/Upgrade agent-harness/);
    await setElement(context, 'versions', 2, { ...written[1]!, $schemaVersion: 99 });
    await expect(load(context, 'versions')).rejects.toSatisfy(UnsupportedSchemaVersionError.isInstance);
  });

  it('an element that is an object but no entry: resume fails with SessionStoreCorruptError naming it', async () => {
    const context = setup();
    await session(context, 'hollow');
    await setElement(context, 'hollow', 3, { $schemaVersion: 2, seq: 3 });
    const resumed = createAgent({ model: scriptedModel([]), store: context.store, resume: 'hollow' });
    const error = await resumed.ready.then(() => undefined, (caught: unknown) => caught);
    expect(SessionStoreCorruptError.isInstance(error), String(error)).toBe(true);
  });

  it.each([
    ['not a number', 'abc'],
    ['negative', '-2'],
    ['a fraction', '2.5'],
  ])("the session's revision field edited (%s): load and append fail with SessionStoreCorruptError naming the field and the repair, never an empty session or a raw error", async (_name, value) => {
    const context = setup();
    const written = await session(context, 'revision');
    await admin!.hset(context.hash('revision'), 'revision', value);
    const error = await corrupt(context, 'revision');
    expect(error.message).toContain('"revision"');
    expect(error.message).toContain(JSON.stringify(value));
    const refused = await corrupt(context, 'revision', context.store.append('revision', [entryMaker('revision', 4).userText('after')], { expectedRevision: 4 }));
    expect(refused.message).toContain('"revision"');
    // The repair it prints: the number of entries the list holds.
    expect(refused.message).toContain(`HSET ${context.hash('revision')} revision 4`);
    await admin!.hset(context.hash('revision'), 'revision', '4');
    expect((await load(context, 'revision')).ids).toEqual(written.map((entry) => entry.id));
  });

  it.each([
    ['leaseToken', 'abc'],
    ['leaseToken', '-3'],
    ['leaseExpiresAt', 'soon'],
  ])('the lease field %s edited to %j: acquire, renew, release and a fenced append fail with SessionStoreCorruptError naming the field, never a Lua error', async (field, value) => {
    const context = setup();
    await session(context, 'leased', 1);
    const lease = (await context.store.leases!.acquire('leased', { holder: 'w', ttlMs: 60_000 }))!;
    await admin!.hset(context.hash('leased'), field, value);
    for (const action of [
      () => context.store.leases!.acquire('leased', { holder: 'w', ttlMs: 1000 }),
      () => context.store.leases!.renew(lease, { ttlMs: 1000 }),
      () => context.store.leases!.release(lease),
      () => context.store.append('leased', [entryMaker('leased', 1).userText('x')], { expectedRevision: 1, fencingToken: lease.fencingToken }),
      () => context.store.delete('leased'),
    ]) {
      const error = await corrupt(context, 'leased', action());
      expect(error.message).toContain(`"${field}"`);
      expect(error.message).toContain(`HSET ${context.hash('leased')}`);
    }
    // An append without a token does not read the lease: it is stored.
    await context.store.append('leased', [entryMaker('leased', 1).userText('unfenced')], { expectedRevision: 1 });
    // The repair the error prints makes the leases work again.
    const error = await corrupt(context, 'leased', context.store.leases!.acquire('leased', { holder: 'w', ttlMs: 1000 }));
    const repair = error.message.slice(error.message.indexOf('(HSET ') + 1).split(')')[0]!;
    await admin!.call(...(repair.split(' ') as [string, ...string[]]));
    const next = await context.store.leases!.acquire('leased', { holder: 'w2', ttlMs: 1000 });
    expect(next!.fencingToken).toBeGreaterThan(lease.fencingToken);
  });

  it("a session's entries key replaced with a value of another type: load and append fail with SessionStoreCorruptError naming the key, never WRONGTYPE", async () => {
    const context = setup();
    await session(context, 'wrongtype');
    await admin!.del(context.entries('wrongtype'));
    await admin!.set(context.entries('wrongtype'), 'x');
    const error = await corrupt(context, 'wrongtype');
    expect(error.message).toContain(context.entries('wrongtype'));
    await corrupt(context, 'wrongtype', context.store.append('wrongtype', [entryMaker('wrongtype', 4).userText('after')], { expectedRevision: 4 }));
  });

  it("listPending passes over a session with a damaged element that has to be refolded, and still lists the others' approvals", async () => {
    const context = setup();
    for (const sessionId of ['a-damaged', 'b-waiting']) {
      const make = entryMaker(sessionId);
      await context.store.append(sessionId, [make.userText('Go.'), make.assistantCalls('toolu_1'), make.approvalPending(`approval_${sessionId}`, 'toolu_1')], { expectedRevision: 0 });
    }
    await setElement(context, 'a-damaged', 1, { kind: 'message' });
    for (const sessionId of ['a-damaged', 'b-waiting']) await admin!.hset(context.hash(sessionId), 'pendingRule', '0');
    expect((await context.store.listPending!()).map((session) => session.sessionId)).toEqual(['b-waiting']);
  });

  it("the session's revision lowered by hand: the load warns that entries lie past it instead of ending the transcript early without a word, and an append is refused with the repair", async () => {
    const context = setup();
    const written = await session(context, 'lowered');
    await admin!.hset(context.hash('lowered'), 'revision', '2');
    const loaded = await load(context, 'lowered');
    expect(loaded.ids).toEqual(written.slice(0, 2).map((entry) => entry.id));
    expect(loaded.warnings.join('\n')).toContain(`Entries 3–4 of session "lowered"`);
    expect(loaded.warnings.join('\n')).toContain(`lie past the session's revision, 2`);
    const next = { ...entryMaker('lowered', 2, 'next').userText('x'), parentId: loaded.lastId } as SessionEntry;
    await corrupt(context, 'lowered', context.store.append('lowered', [next], { expectedRevision: 2 }));
  });

  it('damage through a long session warns in the order of the elements, whether the list is read in ranges or one by one', async () => {
    const context = setup();
    const written = await session(context, 'order', 40);
    await setElement(context, 'order', 10, '"just text"');
    // Entry 5 again in place of 20 (the one after it names it as its parent): a warning of the load, between the store's.
    await setElement(context, 'order', 20, written[4]!);
    await setElement(context, 'order', 21, { ...written[20]!, parentId: written[4]!.id });
    await setElement(context, 'order', 30, '[1]');
    const loaded = await loadBothWays(context, 'order', [/Skipped entry 10 /, /Entry 20 .* says it is entry 5;/, /transcript entry 20 \(message\) is a copy of entry 5 /, /Skipped entry 30 /]);
    expect(loaded.ids).toHaveLength(37);
  });
});
