// Every Redis test in one file, so a machine without the server skips them with one line.
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { ConfigurationError, createAgent, PENDING_APPROVALS_RULE, SessionConflictError, SessionStoreCorruptError, UnsupportedSchemaVersionError, type SessionEntry, type SessionStoreWarning } from 'agent-harness';
import { redisPlanStore, redisSessionStore } from 'agent-harness/redis';
import { describeConformance, planStoreConformance, scriptedModel, sessionStoreConformance, turn } from 'agent-harness/testing';
import { checkpointScenarios, expectCompactedSessionLoadsFromCheckpoint } from '../session/checkpoint-scenarios.js';
import { expectAppendAfterLoadRefusedWhenMoved, expectLoadedApprovalsFolded } from '../session/pending-basis-scenarios.js';
import { expectUnwritableEntriesRefused } from '../session/unwritable-entry-scenarios.js';
import { parseEntryText } from '../../src/session/parse-entry-text.js';
import { CHECKPOINT_KIND, KIND_WITHIN } from '../../src/session/pick-checkpoint-start.js';
import { loadEntries } from '../../src/session/load-entries.js';
import { entryMaker } from '../../src/testing/store-conformance/conformance-entries.js';
import { createSessionState } from '../../src/state/session-state.js';
import { dropPrefix, redis, testClient, testPrefix } from './redis-test-server.js';
import { redisTestScope } from './redis-test-scope.js';

const scope = redisTestScope();
const admin = scope.admin;

/** A key prefix per case; every client opened is closed and the keys deleted after. */
function redisFixture(now: () => number) {
  const keyPrefix = testPrefix();
  const clients: Redis[] = [];
  const open = () => {
    const client = testClient();
    clients.push(client);
    return redisSessionStore({ client, keyPrefix, now });
  };
  return {
    store: open(),
    openPeer: open,
    // What a hand edit or a partial restore can leave: one element that is not JSON, the last one gone.
    damage: async (sessionId: string) => {
      await admin!.lset(`${keyPrefix}entries:${sessionId}`, 1, '{"torn');
      await admin!.rpop(`${keyPrefix}entries:${sessionId}`);
    },
    dispose: async () => {
      await Promise.all(clients.map((client) => client.quit()));
      await dropPrefix(admin!, keyPrefix);
    },
  };
}

describe.skipIf(!redis.reachable)('Redis stores', () => {
  describeConformance({
    title: 'redisSessionStore conformance',
    cases: sessionStoreConformance({ create: ({ now }) => redisFixture(now), peers: true, damage: true, entryIds: true }),
    describe,
    it,
  });

  describeConformance({
    title: 'redisPlanStore conformance',
    cases: planStoreConformance({
      create: () => {
        const keyPrefix = testPrefix();
        const client = testClient();
        const peer = testClient();
        return {
          store: redisPlanStore({ client, keyPrefix }),
          openPeer: () => redisPlanStore({ client: peer, keyPrefix }),
          dispose: async () => {
            await Promise.all([client.quit(), peer.quit()]);
            await dropPrefix(admin!, keyPrefix);
          },
        };
      },
    }),
    describe,
    it,
  });

  describe('beyond the conformance suite', () => {
    const setup = () => {
      const keyPrefix = scope.prefix();
      const client = scope.client();
      return { keyPrefix, client, store: redisSessionStore({ client, keyPrefix }) };
    };

    it('refuses an entry that writes as no JSON object (a toJSON returning something else, a BigInt, a cycle) with a ConfigurationError, storing nothing', () =>
      expectUnwritableEntriesRefused(setup().store, 'redisSessionStore'));

    it("a key of another type where the session's hash or entries list belongs fails the load with SessionStoreCorruptError naming the key", async () => {
      const { keyPrefix, store } = setup();
      const make = entryMaker('s');
      await store.append('s', [make.userText('one')], { expectedRevision: 0 });
      await admin!.del(`${keyPrefix}session:s`);
      await admin!.set(`${keyPrefix}session:s`, 'not a hash');
      await expect(loadEntries(store, 's')).rejects.toThrow(new RegExp(`${keyPrefix}session:s[\\s\\S]*holds a string`));
      await expect(loadEntries(store, 's')).rejects.toThrow(SessionStoreCorruptError);
      await admin!.del(`${keyPrefix}session:s`);
      await admin!.hset(`${keyPrefix}session:s`, 'revision', '1');
      await admin!.del(`${keyPrefix}entries:s`);
      await admin!.set(`${keyPrefix}entries:s`, 'not a list');
      await expect(loadEntries(store, 's')).rejects.toThrow(new RegExp(`${keyPrefix}entries:s[\\s\\S]*holds a string`));
    });

    describe('a store made per request', () => {
      /** A client of its own, with the commands sent through it recorded. */
      const recording = () => {
        const client = scope.client();
        const commands: string[] = [];
        return {
          commands,
          client: {
            call: (command: string, ...args: Array<string | number>) => {
              commands.push(command);
              return client.call(command, ...args);
            },
          },
        };
      };
      const readsSaved = (commands: readonly string[]) => commands.includes('HMGET');

      it('loads a short session in one script and writes the first append without reading its hash again: a chat request is three commands', async () => {
        const { keyPrefix, client } = setup();
        const model = scriptedModel([turn('First answer.'), turn('Second answer.')]);
        const first = createAgent({ model, store: redisSessionStore({ client, keyPrefix }), sessionId: 'chat' });
        await first.run('Hello.').result;
        await first.close();
        const { commands, client: counted } = recording();
        const agent = createAgent({ model, store: redisSessionStore({ client: counted, keyPrefix }), resume: 'chat' });
        expect((await agent.run('And now?').result).status).toBe('completed');
        await agent.close();
        // (Before them, the key layout's version and the scripts' loading: once per client, which a host keeps.)
        const request = commands.filter((command) => command !== 'SCRIPT').slice(commands.filter((command) => command !== 'SCRIPT').indexOf('EVALSHA'));
        // The load (one script: the hash, the list's length, its first range), then the run's start and its end.
        expect(request).toEqual(['EVALSHA', 'EVALSHA', 'EVALSHA']);
        expect(readsSaved(commands)).toBe(false);
        expect((await loadEntries(redisSessionStore({ client, keyPrefix }), 'chat')).filter((entry) => entry.kind === 'message')).toHaveLength(4);
      });

      it('checks the key layout once per client and prefix in a process; a refused layout is not remembered', async () => {
        const keyPrefix = scope.prefix();
        const { commands, client } = recording();
        await admin!.set(`${keyPrefix}layout`, '2');
        await expect(redisSessionStore({ client, keyPrefix }).list()).rejects.toThrow(UnsupportedSchemaVersionError);
        await admin!.set(`${keyPrefix}layout`, '1');
        for (let request = 0; request < 3; request += 1) {
          const make = entryMaker(`s${request}`);
          await redisSessionStore({ client, keyPrefix }).append(`s${request}`, [make.userText('one')], { expectedRevision: 0 });
          expect(await redisPlanStore({ client, keyPrefix }).list()).toEqual([]);
        }
        // The refused check, then one that passed.
        expect(commands.filter((command) => command === 'GET')).toHaveLength(2);
      });

      it('an append after another writer appended to the session it loaded is refused as a conflict, and writes nothing', async () => {
        const { keyPrefix, store: writer } = setup();
        const { commands, client } = recording();
        await expectAppendAfterLoadRefusedWhenMoved(writer, redisSessionStore({ client, keyPrefix }));
        expect(readsSaved(commands)).toBe(true);
      });

      it('folds the pending approvals the load read: an approval waiting before the append is still listed after it, and one whose call it answers is not', async () => {
        const { keyPrefix, store: writer } = setup();
        const { commands, client } = recording();
        await expectLoadedApprovalsFolded(writer, redisSessionStore({ client, keyPrefix }), redisSessionStore({ client: scope.client(), keyPrefix }));
        expect(readsSaved(commands)).toBe(false);
      });

      it('a session longer than the first range loads whole and in order, the first range with the hash and the rest in ranges', async () => {
        const { keyPrefix, store: writer } = setup();
        const make = entryMaker('s');
        await writer.append('s', Array.from({ length: 250 }, (_, index) => make.userText(`turn ${index}`)), { expectedRevision: 0 });
        const { commands, client } = recording();
        const loader = redisSessionStore({ client, keyPrefix });
        expect((await loadEntries(loader, 's')).map((entry) => entry.seq)).toEqual(Array.from({ length: 250 }, (_, index) => index + 1));
        expect(commands.filter((command) => command === 'LRANGE').length).toBeGreaterThan(0);
        // A session of one entry is the script alone.
        const one = entryMaker('t');
        await writer.append('t', [one.userText('only')], { expectedRevision: 0 });
        commands.length = 0;
        expect((await loadEntries(loader, 't')).map((entry) => entry.seq)).toEqual([1]);
        expect(commands).toEqual(['EVALSHA']);
      });

      it('reads the id of the last entry as written, quotes and all; a list longer than the revision gives the first append no basis', async () => {
        const { keyPrefix, store: writer } = setup();
        const make = entryMaker('s', 0, 'a "quoted\\" id');
        await writer.append('s', [make.userText('one')], { expectedRevision: 0 });
        const quoted = recording();
        const loader = redisSessionStore({ client: quoted.client, keyPrefix });
        expect(await loadEntries(loader, 's')).toHaveLength(1);
        await loader.append('s', [make.userText('two')], { expectedRevision: 1 });
        expect(readsSaved(quoted.commands)).toBe(false);
        // A stray element past the revision (a partial restore): the last element is not entry 2.
        await admin!.rpush(`${keyPrefix}entries:s`, JSON.stringify({ id: 'stray' }));
        const strayed = recording();
        const other = redisSessionStore({ client: strayed.client, keyPrefix });
        expect(await loadEntries(other, 's')).toHaveLength(2);
        await expect(other.append('s', [make.userText('three')], { expectedRevision: 2 })).rejects.toThrow();
        expect(readsSaved(strayed.commands)).toBe(true);
      });
    });

    describe('a load with fromCheckpoint starts where the memory and file stores start', () => {
      // Lists written by hand (as the store would hold them), past 256 KiB: a session under that is read whole.
      for (const scenario of checkpointScenarios('x'.repeat(300_000))) {
        it(scenario.name, async () => {
          const { keyPrefix, store } = setup();
          await store.list();
          await admin!.rpush(`${keyPrefix}entries:s`, ...scenario.texts);
          await admin!.hset(`${keyPrefix}session:s`, 'revision', scenario.texts.length, 'bytes', scenario.texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0));
          // The checkpoints list the append script keeps: each entry after the first whose beginning holds the kind.
          const listed = scenario.texts.flatMap((text, index) => (index > 0 && text.slice(0, KIND_WITHIN).includes(CHECKPOINT_KIND) ? [`${index + 1} ${(parseEntryText(text) as { id?: string } | undefined)?.id ?? ''}`] : []));
          if (listed.length > 0) await admin!.rpush(`${keyPrefix}checkpoints:s`, ...listed);
          const loaded: SessionEntry[] = [];
          for await (const entry of store.load('s', { fromCheckpoint: scenario.agentId !== undefined ? { agentId: scenario.agentId } : {} })) loaded.push(entry);
          const expected = scenario.texts.slice(scenario.start).filter((text) => parseEntryText(text) !== undefined);
          expect(loaded.map((entry) => entry.id)).toEqual(expected.map((text) => (JSON.parse(text) as SessionEntry).id));
        });
      }

      it('a compacted session loads from its last checkpoint (whole while under 256 KiB) and resumes as written', () => expectCompactedSessionLoadsFromCheckpoint(setup().store));

      it('reads the checkpoint it starts at once: read to pick it, then handed over as parsed', async () => {
        const { keyPrefix, store } = setup();
        const make = entryMaker('s');
        const checkpoint = () => make.next({ kind: 'checkpoint', state: createSessionState({ sessionId: 's' }), reason: 'compaction' });
        const entries = [checkpoint(), make.userText('x'.repeat(300_000)), checkpoint(), make.userText('after'), make.userText('and after')];
        await store.append('s', entries, { expectedRevision: 0 });
        const client = scope.client();
        /** The list elements each LRANGE of the entries read, [first, last]. */
        const ranges: Array<[number, number]> = [];
        const counted = {
          call: (command: string, ...args: Array<string | number>) => {
            if (command === 'LRANGE' && String(args[0]).endsWith('entries:s')) ranges.push([Number(args[1]), Number(args[2])]);
            return client.call(command, ...args);
          },
        };
        const loaded: SessionEntry[] = [];
        for await (const entry of redisSessionStore({ client: counted, keyPrefix }).load('s', { fromCheckpoint: {} })) loaded.push(entry);
        expect(loaded).toEqual(entries.slice(2));
        // The checkpoint is element 2 (seq 3).
        expect(ranges.filter(([first, last]) => first <= 2 && 2 <= last)).toHaveLength(1);
      });
    });

    it('keeps exactly the documented keys', async () => {
      const { keyPrefix, store, client } = setup();
      const make = entryMaker('s1');
      await store.append('s1', [make.userText('Go.'), make.assistantCalls('toolu_1'), make.approvalPending('approval_1', 'toolu_1')], { expectedRevision: 0 });
      await store.leases!.acquire('s1', { holder: 'worker', ttlMs: 1000 });
      await store.listPending!();
      await redisPlanStore({ client, keyPrefix }).write('plan.md', '# Plan');
      const keys = (await admin!.keys(`${keyPrefix}*`)).map((key) => key.slice(keyPrefix.length)).sort();
      expect(keys).toEqual(['entries:s1', 'ids:s1', 'layout', 'plans', 'session:s1', 'sessions', 'waiting', 'waiting-rule']);
      expect(await admin!.type(`${keyPrefix}entries:s1`)).toBe('list');
      expect(Object.keys(await admin!.hgetall(`${keyPrefix}ids:s1`)).sort()).toEqual(['s1-entry-1', 's1-entry-2', 's1-entry-3']);
      expect(Object.keys(await admin!.hgetall(`${keyPrefix}session:s1`)).sort()).toEqual(['bytes', 'idsFrom', 'leaseExpiresAt', 'leaseHolder', 'leaseToken', 'pending', 'pendingRule', 'revision']);
      await store.delete('s1');
      expect((await admin!.keys(`${keyPrefix}*`)).map((key) => key.slice(keyPrefix.length)).sort()).toEqual(['layout', 'plans', 'session:s1', 'waiting-rule']);
    });

    it('keeps a checkpoints list: each entry after the first that may be a checkpoint, by seq and id; deleted with the session', async () => {
      const { keyPrefix, store } = setup();
      const make = entryMaker('s2');
      const checkpoint = () => make.next({ kind: 'checkpoint', state: createSessionState({ sessionId: 's2' }), reason: 'compaction' });
      const entries = [checkpoint(), make.userText('one'), checkpoint(), make.next({ kind: 'message', message: { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Save', input: { kind: 'checkpoint' } }] } })];
      await store.append('s2', entries.slice(0, 2), { expectedRevision: 0 });
      expect(await admin!.exists(`${keyPrefix}checkpoints:s2`)).toBe(0);
      await store.append('s2', entries.slice(2), { expectedRevision: 2 });
      expect(await admin!.lrange(`${keyPrefix}checkpoints:s2`, 0, -1)).toEqual([`3 ${entries[2]!.id}`, `4 ${entries[3]!.id}`]);
      // A replayed append (its reply lost) lists nothing twice.
      await store.append('s2', entries.slice(2), { expectedRevision: 2 });
      expect(await admin!.llen(`${keyPrefix}checkpoints:s2`)).toBe(2);
      await store.delete('s2');
      expect(await admin!.exists(`${keyPrefix}checkpoints:s2`)).toBe(0);
      expect(await admin!.hget(`${keyPrefix}session:s2`, 'bytes')).toBeNull();
    });

    it('a session written before the checkpoints list and its size were kept loads whole with the hint', async () => {
      const { keyPrefix, store } = setup();
      const make = entryMaker('old');
      const checkpoint = () => make.next({ kind: 'checkpoint', state: createSessionState({ sessionId: 'old' }), reason: 'compaction' });
      const entries = [checkpoint(), make.userText('x'.repeat(300_000)), checkpoint(), make.userText('after')];
      await store.append('old', entries, { expectedRevision: 0 });
      const hinted = async () => {
        const loaded: SessionEntry[] = [];
        for await (const entry of store.load('old', { fromCheckpoint: {} })) loaded.push(entry);
        return loaded.map((entry) => entry.seq);
      };
      expect(await hinted()).toEqual([3, 4]);
      await admin!.del(`${keyPrefix}checkpoints:old`);
      expect(await hinted()).toEqual([1, 2, 3, 4]);
      await admin!.hdel(`${keyPrefix}session:old`, 'bytes');
      await store.append('old', [make.userText('one more')], { expectedRevision: 4 });
      // Counted from then on: small, so read whole.
      expect(await hinted()).toEqual([1, 2, 3, 4, 5]);
      // A size edited into something that is no count neither fails an append nor a load.
      await admin!.hset(`${keyPrefix}session:old`, 'bytes', 'lots');
      expect(await hinted()).toEqual([1, 2, 3, 4, 5]);
      await store.append('old', [make.userText('and another')], { expectedRevision: 5 });
      expect(Number(await admin!.hget(`${keyPrefix}session:old`, 'bytes'))).toBeGreaterThan(0);
      // A checkpoints key of another type: the append of a checkpoint is refused, naming the key and the cure; a resume still loads (whole).
      await admin!.set(`${keyPrefix}checkpoints:old`, 'not a list');
      const refused = await store.append('old', [checkpoint()], { expectedRevision: 6 }).catch((error: unknown) => error);
      expect(SessionStoreCorruptError.isInstance(refused)).toBe(true);
      expect((refused as Error).message).toContain(`${keyPrefix}checkpoints:old`);
      expect((refused as Error).message).toContain('checkpoints (a list)');
      // Refused before anything was written: the list still holds the revision's entries.
      expect(await admin!.llen(`${keyPrefix}entries:old`)).toBe(6);
      expect(await admin!.hget(`${keyPrefix}session:old`, 'revision')).toBe('6');
      const resumed = createAgent({ model: scriptedModel([]), store, resume: 'old' });
      await resumed.ready;
      expect(resumed.messages.length).toBeGreaterThan(0);
      await resumed.close();
    });

    it('fills in the entry ids of a session written before the ids hash on its next append: a taken id with other content is refused (also an older entry\'s), a copy is not', async () => {
      const { keyPrefix, store } = setup();
      const make = entryMaker('old');
      await store.append('old', [make.userText('a'), make.userText('b')], { expectedRevision: 0 });
      // What an earlier version of the store left: no ids hash, no idsFrom.
      await admin!.del(`${keyPrefix}ids:old`);
      await admin!.hdel(`${keyPrefix}session:old`, 'idsFrom');
      const later = entryMaker('old', 2);
      const third = later.userText('c');
      await redisSessionStore({ client: admin!, keyPrefix }).append('old', [third], { expectedRevision: 2 });
      expect(await admin!.hget(`${keyPrefix}session:old`, 'idsFrom')).toBe('0');
      const older = { ...entryMaker('old', 3).userText('other'), id: 'old-entry-1' } as SessionEntry;
      await expect(store.append('old', [older], { expectedRevision: 3 })).rejects.toSatisfy(ConfigurationError.isInstance);
      const taken = { ...entryMaker('old', 3).userText('other'), id: third.id } as SessionEntry;
      const refused = await store.append('old', [taken], { expectedRevision: 3 }).catch((error: unknown) => error);
      expect(ConfigurationError.isInstance(refused)).toBe(true);
      expect((refused as Error).message).toContain(`redisSessionStore.append got entry 4 of session "old" with the id "${third.id}", which entry 3 already has with other content`);
      const copy = { ...third, seq: 4, parentId: third.id } as SessionEntry;
      await store.append('old', [copy], { expectedRevision: 3 });
      expect(await admin!.llen(`${keyPrefix}entries:old`)).toBe(4);
    });

    it('refuses keys written by a newer agent-harness, naming the layout versions it reads', async () => {
      const { keyPrefix, client } = setup();
      await admin!.set(`${keyPrefix}layout`, '2');
      const error = await redisSessionStore({ client, keyPrefix })
        .list()
        .catch((caught: unknown) => caught);
      expect(UnsupportedSchemaVersionError.isInstance(error)).toBe(true);
      expect((error as UnsupportedSchemaVersionError).supported).toEqual([1]);
      await expect(redisPlanStore({ client, keyPrefix }).list()).rejects.toSatisfy(UnsupportedSchemaVersionError.isInstance);
    });

    it('refuses bad options with a ConfigurationError that says what to pass', () => {
      expect(() => redisSessionStore({} as never)).toThrow(/needs options.client, an ioredis client/);
      expect(() => redisSessionStore({ client: admin!, keyPrefix: '' })).toThrow(ConfigurationError);
      expect(() => redisPlanStore({ client: undefined } as never)).toThrow(ConfigurationError);
    });

    it('reloads its scripts after the server forgot them', async () => {
      const { store } = setup();
      const make = entryMaker('s');
      await store.append('s', [make.userText('one')], { expectedRevision: 0 });
      await admin!.script('FLUSH');
      await store.append('s', [make.userText('two')], { expectedRevision: 1 });
      expect((await loadEntries(store, 's')).map((entry) => entry.seq)).toEqual([1, 2]);
    });

    it('stores long entries outside Latin-1 byte for byte, sent as bytes by an ioredis client and as strings by a wrapped one', async () => {
      const { keyPrefix, client } = setup();
      const texts = ['’'.repeat(70_000), `漢字😀é ${'x'.repeat(5000)} "quoted" \\ back\nslash`, 'tab\tand \u0000 NUL', ''];
      const seen: unknown[][] = [];
      const forward = (command: string, ...args: Array<string | number>) => (seen.push(args), client.call(command, ...args));
      const wrapped = { call: forward };
      // Shaped like ioredis (a boolean isCluster, a sendCommand) without being it.
      const lookalike = { isCluster: false, sendCommand: () => undefined, call: forward };
      // ioredis itself, its call replaced on the instance (a host's logging, say).
      const patched = Object.assign(Object.create(client) as Redis, { call: forward });
      for (const [label, given] of [['ioredis', client], ['wrapped', wrapped], ['lookalike', lookalike], ['patched', patched]] as const) {
        const store = redisSessionStore({ client: given as Redis, keyPrefix });
        const sessionId = `wide-${label}`;
        const make = entryMaker(sessionId);
        const entries = texts.map((text, index) => make.toolResult(`toolu_${index}`, text));
        await store.append(sessionId, entries.slice(0, 2), { expectedRevision: 0 });
        await store.append(sessionId, entries.slice(2), { expectedRevision: 2 });
        expect(await loadEntries(store, sessionId), label).toEqual(entries);
        const stored = await admin!.lrange(`${keyPrefix}entries:${sessionId}`, 0, -1);
        expect(stored.map((text) => JSON.parse(text)), label).toEqual(entries.map((entry) => JSON.parse(JSON.stringify(entry))));
      }
      // The wrapped clients were given strings only: they may not take Buffers.
      expect(seen.length).toBeGreaterThan(6);
      expect(seen.flat().filter((arg) => typeof arg !== 'string' && typeof arg !== 'number')).toEqual([]);
    });

    it('loads sessions of big entries in chunks that shrink and grow', async () => {
      const { store } = setup();
      const make = entryMaker('big');
      const entries = [
        ...Array.from({ length: 12 }, (_, index) => make.toolResult(`toolu_${index}`, String(index % 10).repeat(1_000_000))),
        ...Array.from({ length: 500 }, (_, index) => make.toolState('small', index)),
      ];
      await store.append('big', entries, { expectedRevision: 0 });
      const loaded = await loadEntries(store, 'big');
      expect(loaded.map((entry) => entry.id)).toEqual(entries.map((entry) => entry.id));
    });

    it('stores each entry with its id first, and still tells the entry a writer follows when an earlier version stored it otherwise', async () => {
      const { keyPrefix, store } = setup();
      const make = entryMaker('older', 0, 'older-first');
      const [one, two] = [make.userText('one'), make.userText('two')];
      await store.append('older', [one, two], { expectedRevision: 0 });
      const key = `${keyPrefix}entries:older`;
      expect((await admin!.lrange(key, 0, -1)).map((text) => text.slice(0, 7))).toEqual(['{"id":"', '{"id":"']);
      // As an earlier agent-harness stored it: the keys in the entry's own order, id not first.
      const { id, ...rest } = two;
      await admin!.lset(key, 1, JSON.stringify({ ...rest, id }));
      // A writer that saw that entry appends after it...
      const three = make.userText('three');
      await store.append('older', [three], { expectedRevision: 2 });
      expect((await loadEntries(store, 'older')).map((entry) => entry.id)).toEqual([one.id, two.id, three.id]);
      // ...and one that saw another entry there is refused, even when the stored one quotes its id.
      const other = entryMaker('older', 0, 'older-other');
      const quoting = other.toolState('seen', { id: 'older-other-entry-3' });
      const { id: quotingId, ...quotingRest } = quoting;
      await admin!.lset(key, 2, JSON.stringify({ ...quotingRest, id: quotingId, seq: 3 }));
      const stale = { ...other.userText('x'), id: 'older-other-entry-4', seq: 4, parentId: 'older-other-entry-3' };
      await expect(store.append('older', [stale], { expectedRevision: 3 })).rejects.toSatisfy((error: unknown) => SessionConflictError.isInstance(error));
    });

    it('refolds pending approvals saved under another version of the rule, also for sessions not in the waiting set', async () => {
      const { keyPrefix, client, store } = setup();
      const make = entryMaker('waiting');
      await store.append('waiting', [make.userText('Go.'), make.assistantCalls('toolu_1'), make.approvalPending('approval_1', 'toolu_1')], { expectedRevision: 0 });
      expect((await store.listPending!()).map((session) => session.sessionId)).toEqual(['waiting']);
      // As an older agent-harness might have left it.
      await admin!.hset(`${keyPrefix}session:waiting`, 'pendingRule', '0', 'pending', '{"old":true}');
      await admin!.srem(`${keyPrefix}waiting`, 'waiting');
      await admin!.set(`${keyPrefix}waiting-rule`, '0');
      const other = redisSessionStore({ client, keyPrefix });
      expect((await other.listPending!()).map((session) => session.approvals.map((approval) => approval.id))).toEqual([['approval_1']]);
      expect(await admin!.hget(`${keyPrefix}session:waiting`, 'pendingRule')).toBe(String(PENDING_APPROVALS_RULE));
      expect(await admin!.sismember(`${keyPrefix}waiting`, 'waiting')).toBe(1);
    });

    it('lists the other sessions\' approvals when a session written by a newer agent-harness has to be refolded', async () => {
      const { keyPrefix, client, store } = setup();
      for (const sessionId of ['a-newer', 'b-waiting']) {
        const make = entryMaker(sessionId);
        await store.append(sessionId, [make.userText('Go.'), make.assistantCalls('toolu_1'), make.approvalPending(`approval_${sessionId}`, 'toolu_1')], { expectedRevision: 0 });
      }
      const first = JSON.parse((await admin!.lindex(`${keyPrefix}entries:a-newer`, 0))!);
      await admin!.lset(`${keyPrefix}entries:a-newer`, 0, JSON.stringify({ ...first, $schemaVersion: 99 }));
      // A newer rule's saved state, and a waiting set built under it: every session is refolded.
      await admin!.hset(`${keyPrefix}session:a-newer`, 'pendingRule', String(PENDING_APPROVALS_RULE + 1));
      await admin!.set(`${keyPrefix}waiting-rule`, '0');
      const other = redisSessionStore({ client, keyPrefix });
      expect((await other.listPending!()).map((session) => session.sessionId)).toEqual(['b-waiting']);
      // Left as the newer build saved it.
      expect(await admin!.hget(`${keyPrefix}session:a-newer`, 'pendingRule')).toBe(String(PENDING_APPROVALS_RULE + 1));
      await expect(loadEntries(other, 'a-newer')).rejects.toSatisfy(UnsupportedSchemaVersionError.isInstance);
    });

    it('runs leases on the server clock by default', async () => {
      const { store } = setup();
      const before = Date.now();
      const lease = await store.leases!.acquire('clocked', { holder: 'worker', ttlMs: 60_000 });
      expect(lease!.expiresAt).toBeGreaterThanOrEqual(before + 60_000 - 5_000);
      expect(lease!.expiresAt).toBeLessThanOrEqual(Date.now() + 60_000 + 5_000);
    });

    /** Runs the Redis commands a SessionStoreCorruptError prints as its repair (between the parentheses). */
    const runRepair = async (error: unknown, marker: string) => {
      const message = (error as Error).message;
      const commands = message.slice(message.indexOf(marker)).split(' (')[1]!.split(')')[0]!;
      for (const command of commands.split('; ')) await admin!.call(...(command.split(' ') as [string, ...string[]]));
    };

    it('refuses an append onto an entries list that does not hold the revision\'s entries, and the repair it prints makes the session writable', async () => {
      const { keyPrefix, store } = setup();
      const make = entryMaker('s');
      await store.append('s', [make.userText('a'), make.userText('b'), make.userText('c')], { expectedRevision: 0 });
      // The session's hash lost (a partial restore, an eviction): a new session must not write after the old list.
      await admin!.del(`${keyPrefix}session:s`);
      const fresh = entryMaker('s', 0, 'fresh');
      const refused = await store.append('s', [fresh.userText('new')], { expectedRevision: 0 }).catch((error: unknown) => error);
      expect(SessionStoreCorruptError.isInstance(refused)).toBe(true);
      expect((refused as Error).message).toContain(`Redis key ${keyPrefix}entries:s holds 3 entries, while the session's revision`);
      expect(await admin!.llen(`${keyPrefix}entries:s`)).toBe(3);
      await runRepair(refused, 'make the revision');
      expect((await loadEntries(store, 's')).map((entry) => entry.id)).toEqual(['s-entry-1', 's-entry-2', 's-entry-3']);
      await store.append('s', [entryMaker('s', 3).userText('d')], { expectedRevision: 3 });
      // A list cut short under its revision is refused alike.
      await admin!.rpop(`${keyPrefix}entries:s`);
      await expect(store.append('s', [entryMaker('s', 3).userText('again')], { expectedRevision: 3 })).rejects.toSatisfy(SessionStoreCorruptError.isInstance);
    });

    it('refuses an append after the last readable entry when every later element is unreadable, and the cut back it prints makes the session writable', async () => {
      const { keyPrefix, store } = setup();
      const make = entryMaker('s');
      await store.append('s', [make.userText('a'), make.userText('b'), make.userText('c'), make.userText('d')], { expectedRevision: 0 });
      await admin!.lset(`${keyPrefix}entries:s`, 2, '{"torn');
      await admin!.lset(`${keyPrefix}entries:s`, 3, '[]');
      const loaded = await loadEntries(store, 's');
      expect(loaded.map((entry) => entry.seq)).toEqual([1, 2]);
      const refused = await store.append('s', [entryMaker('s', 2).userText('x')], { expectedRevision: 2 }).catch((error: unknown) => error);
      expect(SessionStoreCorruptError.isInstance(refused)).toBe(true);
      expect((refused as Error).message).toContain(`entries 3–4 of Redis key ${keyPrefix}entries:s are missing or not a transcript entry`);
      // Another writer's readable entry past the writer's revision: a conflict, as ever.
      await admin!.lset(`${keyPrefix}entries:s`, 3, (await admin!.lindex(`${keyPrefix}entries:s`, 1))!);
      await expect(store.append('s', [entryMaker('s', 2).userText('x')], { expectedRevision: 2 })).rejects.toSatisfy(SessionConflictError.isInstance);
      await admin!.lset(`${keyPrefix}entries:s`, 3, '[]');
      await runRepair(refused, 'cut the session back');
      await store.append('s', [entryMaker('s', 2).userText('x')], { expectedRevision: 2 });
      expect((await loadEntries(store, 's')).map((entry) => entry.id)).toEqual(['s-entry-1', 's-entry-2', 's-entry-3']);
    });

    it('warns about elements that are not entries, naming the seq', async () => {
      const { keyPrefix, store } = setup();
      const make = entryMaker('s');
      await store.append('s', [make.userText('a'), make.userText('b'), make.userText('c')], { expectedRevision: 0 });
      await admin!.lset(`${keyPrefix}entries:s`, 2, '42');
      const warnings: SessionStoreWarning[] = [];
      const loaded = await loadEntries(store, 's', { onWarning: (warning) => warnings.push(warning) });
      expect(loaded.map((entry) => entry.id)).toEqual(['s-entry-1', 's-entry-2']);
      expect(warnings).toEqual([expect.objectContaining({ seq: 3, message: expect.stringContaining('Skipped entry 3') })]);
    });

    it('loads an entry whose own seq was edited with the position it has, with a warning, and the session stays writable', async () => {
      const { keyPrefix, store } = setup();
      const make = entryMaker('s');
      await store.append('s', [make.userText('a'), make.userText('b'), make.userText('c')], { expectedRevision: 0 });
      const third = JSON.parse((await admin!.lindex(`${keyPrefix}entries:s`, 2))!);
      await admin!.lset(`${keyPrefix}entries:s`, 2, JSON.stringify({ ...third, seq: 99 }));
      const warnings: SessionStoreWarning[] = [];
      const loaded = await loadEntries(store, 's', { onWarning: (warning) => warnings.push(warning) });
      expect(loaded.map((entry) => entry.seq)).toEqual([1, 2, 3]);
      expect(warnings).toEqual([expect.objectContaining({ seq: 3, message: expect.stringContaining('says it is entry 99') })]);
      await store.append('s', [entryMaker('s', 3).userText('d')], { expectedRevision: 3 });
    });

    it('tells the history a writer saw from another one at the same revision also when the last entry was rewritten by hand (spaces in its JSON)', async () => {
      const { keyPrefix, store } = setup();
      const make = entryMaker('s');
      await store.append('s', [make.userText('a'), make.userText('b')], { expectedRevision: 0 });
      const last = JSON.parse((await admin!.lindex(`${keyPrefix}entries:s`, 1))!);
      await admin!.lset(`${keyPrefix}entries:s`, 1, JSON.stringify(last, null, 2));
      await expect(store.append('s', [entryMaker('s', 2, 'another-history').userText('x')], { expectedRevision: 2 })).rejects.toSatisfy(SessionConflictError.isInstance);
      await store.append('s', [make.userText('c')], { expectedRevision: 2 });
      // An element that is no entry tells nothing: the revision alone decides.
      await admin!.lset(`${keyPrefix}entries:s`, 2, '{"torn');
      await store.append('s', [entryMaker('s', 3, 'unknown').userText('d')], { expectedRevision: 3 });
    });
  });
});
