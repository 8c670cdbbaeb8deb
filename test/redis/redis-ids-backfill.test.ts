// A Redis session written before the ids hash existed (no `ids:<id>` key, no `idsFrom` field) is
// backfilled on its next append, in the append's own script: an append that gives one of its older
// entries' ids to other content is refused like any other (the session would no longer load), and a
// copy of an older entry is still taken. The session is built by hand, as an earlier version left it.
import { describe, expect, it } from 'vitest';
import { ConfigurationError, type SessionEntry } from 'agent-harness';
import { redisSessionStore } from 'agent-harness/redis';
import { loadEntries } from '../../src/session/load-entries.js';
import { entryMaker } from '../../src/testing/store-conformance/conformance-entries.js';
import { redis } from './redis-test-server.js';
import { redisTestScope } from './redis-test-scope.js';

const scope = redisTestScope();
const admin = scope.admin;

function setup() {
  const keyPrefix = scope.prefix();
  return { keyPrefix, store: redisSessionStore({ client: scope.client(), keyPrefix }), peer: () => redisSessionStore({ client: admin!, keyPrefix }) };
}

/**
 * Writes a session as an agent-harness from before the ids hash left it: the entries list (keys in
 * the entry's own order, not id first), the revision, the session in the sessions set, no ids key.
 */
async function preIdsSession(keyPrefix: string, sessionId: string, entries: SessionEntry[]): Promise<void> {
  await admin!.call('SET', `${keyPrefix}layout`, '1');
  await admin!.rpush(`${keyPrefix}entries:${sessionId}`, ...entries.map((entry) => JSON.stringify(entry)));
  await admin!.hset(`${keyPrefix}session:${sessionId}`, 'revision', String(entries.length));
  await admin!.sadd(`${keyPrefix}sessions`, sessionId);
}

describe.skipIf(!redis.reachable)('redisSessionStore: entry ids of a session written before the ids hash', () => {
  it('refuses an append that gives an older entry\'s id to other content, stores nothing, and the session still loads', async () => {
    const { keyPrefix, store, peer } = setup();
    const make = entryMaker('old');
    const written = [make.userText('one'), make.userText('two'), make.userText('three')];
    await preIdsSession(keyPrefix, 'old', written);
    const taken = { ...entryMaker('old', 3).userText('other content'), id: written[0]!.id } as SessionEntry;
    const refused = await store.append('old', [taken], { expectedRevision: 3 }).catch((error: unknown) => error);
    expect(ConfigurationError.isInstance(refused), String(refused)).toBe(true);
    expect((refused as Error).message).toContain(`got entry 4 of session "old" with the id "${written[0]!.id}", which entry 1 already has with other content`);
    expect(await admin!.llen(`${keyPrefix}entries:old`)).toBe(3);
    expect((await loadEntries(store, 'old')).map((entry) => entry.id)).toEqual(written.map((entry) => entry.id));
    // Another instance (another process) refuses it too.
    await expect(peer().append('old', [taken], { expectedRevision: 3 })).rejects.toSatisfy(ConfigurationError.isInstance);
  });

  it('takes a copy of an older entry (same content, new number), which loading skips, and refuses other content under that id after it', async () => {
    const { keyPrefix, store } = setup();
    const make = entryMaker('old');
    const written = [make.userText('one'), make.userText('two')];
    await preIdsSession(keyPrefix, 'old', written);
    const copy = { ...written[0]!, seq: 3, parentId: written[1]!.id } as SessionEntry;
    await store.append('old', [copy], { expectedRevision: 2 });
    expect(await admin!.llen(`${keyPrefix}entries:old`)).toBe(3);
    expect((await loadEntries(store, 'old')).map((entry) => entry.id)).toEqual(written.map((entry) => entry.id));
    // The digest learned from the stored entry is kept: the next clash needs no look-up.
    expect(await admin!.hget(`${keyPrefix}ids:old`, written[0]!.id)).toMatch(/^1 [0-9a-f]{16}$/);
    const taken = { ...entryMaker('old', 3).userText('other'), id: written[1]!.id, parentId: copy.id } as SessionEntry;
    await expect(store.append('old', [taken], { expectedRevision: 3 })).rejects.toSatisfy(ConfigurationError.isInstance);
    const next = { ...entryMaker('old', 3).userText('three'), parentId: copy.id } as SessionEntry;
    await store.append('old', [next], { expectedRevision: 3 });
    expect((await loadEntries(store, 'old')).map((entry) => entry.id)).toEqual([...written, next].map((entry) => entry.id));
  });

  it('backfills a session whose ids hash covers only its later entries (idsFrom above 0, as the previous version left it)', async () => {
    const { keyPrefix, store } = setup();
    const make = entryMaker('half');
    const older = [make.userText('one'), make.userText('two')];
    await preIdsSession(keyPrefix, 'half', older);
    // The previous version started the hash at the revision of the first append it saw.
    await admin!.hset(`${keyPrefix}session:half`, 'idsFrom', '2');
    const later = make.userText('three');
    await store.append('half', [later], { expectedRevision: 2 });
    const taken = { ...entryMaker('half', 3).userText('other'), id: older[1]!.id, parentId: later.id } as SessionEntry;
    await expect(store.append('half', [taken], { expectedRevision: 3 })).rejects.toSatisfy(ConfigurationError.isInstance);
    expect(await admin!.hget(`${keyPrefix}session:half`, 'idsFrom')).toBe('0');
  });

  it('backfills elements whose id needs escaping in JSON and skips elements that are no entry', async () => {
    const { keyPrefix, store } = setup();
    const make = entryMaker('odd', 0, 'odd "quoted" \\ é');
    const written = [make.userText('one'), make.userText('two')];
    await preIdsSession(keyPrefix, 'odd', written);
    await admin!.rpush(`${keyPrefix}entries:odd`, '{"torn');
    await admin!.hset(`${keyPrefix}session:odd`, 'revision', '3');
    const taken = { ...entryMaker('odd', 3).userText('other'), id: written[0]!.id } as SessionEntry;
    await expect(store.append('odd', [taken], { expectedRevision: 3 })).rejects.toSatisfy(ConfigurationError.isInstance);
    const fine = entryMaker('odd', 3, 'fresh').userText('fine');
    await store.append('odd', [fine], { expectedRevision: 3 });
  });

  it('an older entry edited by hand after the backfill: its digest is computed from the element as it is now, so a copy of the edited entry is taken and other content refused', async () => {
    const { keyPrefix, store } = setup();
    const make = entryMaker('edited');
    const written = [make.userText('one'), make.userText('two')];
    await preIdsSession(keyPrefix, 'edited', written);
    await store.append('edited', [make.userText('three')], { expectedRevision: 2 });
    expect(await admin!.hget(`${keyPrefix}ids:edited`, written[0]!.id)).toMatch(/^1 @[0-9a-f]{40}$/);
    const edited = { ...written[0]!, message: { role: 'user', content: [{ type: 'text', text: 'one, edited' }] } } as SessionEntry;
    await admin!.lset(`${keyPrefix}entries:edited`, 0, JSON.stringify(edited));
    const original = { ...written[0]!, seq: 4, parentId: 'edited-entry-3' } as SessionEntry;
    await expect(store.append('edited', [original], { expectedRevision: 3 })).rejects.toSatisfy(ConfigurationError.isInstance);
    await store.append('edited', [{ ...edited, seq: 4, parentId: 'edited-entry-3' } as SessionEntry], { expectedRevision: 3 });
  });
});
