import { LeaseLostError } from '../../../errors/lease-lost-error.js';
import type { SessionLease, SessionLeases, SessionStore } from '../../../session/session-store.js';
import { check, checkRejects, checkSameJson, show } from '../check.js';
import type { ConformanceCase } from '../conformance-case.js';
import { entryMaker } from '../conformance-entries.js';
import type { ConformanceSetup, SessionStoreFixture } from '../session-store-conformance.js';
import { appendNext, hasCode, idsOf, loadClean } from '../store-calls.js';

function leasesOf(store: SessionStore): SessionLeases {
  check(store.leases !== undefined, 'The options say leases: true (the default), but the store has no `leases`. Pass leases: false if it has none.');
  return store.leases;
}

function checkLease(lease: SessionLease | undefined, what: string, expected: Partial<SessionLease>): SessionLease {
  check(lease !== undefined, `${what} should give a lease, it gave none.`);
  for (const [key, value] of Object.entries(expected)) {
    check(lease[key as keyof SessionLease] === value, `${what} gave a lease with ${key} ${show(lease[key as keyof SessionLease])}, expected ${show(value)}: ${show(lease)}`);
  }
  check(Number.isSafeInteger(lease.fencingToken) && lease.fencingToken > 0, `${what} gave the fencing token ${show(lease.fencingToken)}: tokens are positive integers.`);
  return lease;
}

const refusedLeaseLost = (what: string, promise: Promise<unknown>) =>
  checkRejects(promise, (error) => LeaseLostError.isInstance(error), `${what} should be refused with LeaseLostError`) as Promise<LeaseLostError>;

async function otherWorker(fixture: SessionStoreFixture, peers: boolean): Promise<SessionStore> {
  if (!peers) return fixture.store;
  check(fixture.openPeer !== undefined, 'The options say peers: true, but the fixture has no openPeer().');
  return fixture.openPeer();
}

/** Leases: one holder at a time, expiry, takeover with a larger token, fenced writes. */
export function leaseCases({ options, withStore }: ConformanceSetup): ConformanceCase[] {
  const skip = options.leases ? {} : { skip: 'the store has no leases' };
  const ttlMs = 30_000;
  return [
    {
      name: 'leases: one holder at a time; renew extends the lease and keeps its token; release frees it for a larger token',
      ...skip,
      run: () =>
        withStore(async ({ store }, clock) => {
          const leases = leasesOf(store);
          const start = clock.now();
          const held = checkLease(await leases.acquire('leased', { holder: 'worker-a', ttlMs }), 'acquire() of a free session', {
            sessionId: 'leased',
            holder: 'worker-a',
            expiresAt: start + ttlMs,
          });
          check((await leases.acquire('leased', { holder: 'worker-b', ttlMs })) === undefined, 'A second holder got the lease of a session whose lease is held and unexpired.');
          clock.advance(ttlMs - 1);
          const renewed = checkLease(await leases.renew(held, { ttlMs }), 'renew() of a held lease', { fencingToken: held.fencingToken, expiresAt: clock.now() + ttlMs });
          clock.advance(ttlMs - 1);
          check((await leases.acquire('leased', { holder: 'worker-b', ttlMs })) === undefined, 'A renewed lease was taken before its new expiry.');
          await leases.release(renewed);
          const next = checkLease(await leases.acquire('leased', { holder: 'worker-b', ttlMs }), 'acquire() after release', { holder: 'worker-b' });
          check(next.fencingToken > held.fencingToken, `The lease taken after a release has token ${next.fencingToken}, not larger than ${held.fencingToken}.`);
          check((await leases.renew(renewed, { ttlMs })) === undefined, 'renew() of a released lease gave a lease.');
          // Releasing a lost lease changes nothing.
          await leases.release(renewed);
          check((await leases.acquire('leased', { holder: 'worker-c', ttlMs })) === undefined, 'Releasing an old lease freed the current holder\'s lease.');
        }),
    },
    {
      name: 'leases: a crashed worker\'s lease expires, another worker takes over with a larger token, and the old token cannot write',
      ...skip,
      run: () =>
        withStore(async (fixture, clock) => {
          const worker = fixture.store;
          const successor = await otherWorker(fixture, options.peers);
          const held = checkLease(await leasesOf(worker).acquire('job', { holder: 'worker-a', ttlMs }), 'acquire() by worker-a', { holder: 'worker-a' });
          const make = entryMaker('job');
          const first = [make.userText('started by worker-a')];
          await appendNext(worker, 'job', first, held.fencingToken);
          // worker-a stops renewing (crashed, or stalled in a long pause).
          clock.advance(ttlMs - 1);
          check((await leasesOf(successor).acquire('job', { holder: 'worker-b', ttlMs })) === undefined, 'worker-b took the lease before it expired.');
          clock.advance(1);
          const taken = checkLease(await leasesOf(successor).acquire('job', { holder: 'worker-b', ttlMs }), 'acquire() of an expired lease by worker-b', { holder: 'worker-b' });
          check(taken.fencingToken > held.fencingToken, `The takeover's token ${taken.fencingToken} is not larger than the crashed worker's ${held.fencingToken}.`);
          check((await leasesOf(worker).renew(held, { ttlMs })) === undefined, 'worker-a renewed a lease that expired and was taken over.');
          const late = entryMaker('job', 1).userText('worker-a, back from a pause');
          const error = await refusedLeaseLost('An append by worker-a under its old token', appendNext(worker, 'job', [late], held.fencingToken));
          check(error.sessionId === 'job' && error.fencingToken === held.fencingToken, `The LeaseLostError should name the session and the refused token: ${show(error)}`);
          check(error.currentLease === undefined || error.currentLease.holder === 'worker-b', `The LeaseLostError names ${show(error.currentLease)} as the current lease, expected worker-b's.`);
          const continued = entryMaker('job', 1).userText('continued by worker-b');
          await appendNext(successor, 'job', [continued], taken.fencingToken);
          checkSameJson(idsOf(await loadClean(fixture.store, 'job')), [first[0]!.id, continued.id], 'the session after the takeover');
          await leasesOf(worker).release(held);
          check((await leasesOf(worker).acquire('job', { holder: 'worker-c', ttlMs })) === undefined, 'worker-a releasing its lost lease freed worker-b\'s.');
        }),
    },
    {
      name: 'leases: a write under an expired, superseded or unknown token is refused with LeaseLostError and stores nothing',
      ...skip,
      run: () =>
        withStore(async ({ store }, clock) => {
          const leases = leasesOf(store);
          const make = entryMaker('fenced');
          const entry = make.userText('fenced write');
          await refusedLeaseLost('An append under a token for a session that has no lease', appendNext(store, 'fenced', [entry], 1));
          const first = checkLease(await leases.acquire('fenced', { holder: 'worker-a', ttlMs }), 'acquire()', {});
          await refusedLeaseLost('An append under a token that is not the current lease\'s', appendNext(store, 'fenced', [entry], first.fencingToken + 1));
          clock.advance(ttlMs);
          await refusedLeaseLost('An append under an expired lease nobody took over', appendNext(store, 'fenced', [entry], first.fencingToken));
          // The same holder acquiring again gets a new token; its old lease object is lost.
          const second = checkLease(await leases.acquire('fenced', { holder: 'worker-a', ttlMs }), 'acquire() again by the same holder', { holder: 'worker-a' });
          check(second.fencingToken > first.fencingToken, `Acquiring again gave token ${second.fencingToken}, not larger than ${first.fencingToken}.`);
          const third = checkLease(await leases.acquire('fenced', { holder: 'worker-a', ttlMs }), 'acquire() by the holder of a valid lease', { holder: 'worker-a' });
          check(third.fencingToken > second.fencingToken, `Acquiring while holding gave token ${third.fencingToken}, not larger than ${second.fencingToken}.`);
          check((await leases.renew(second, { ttlMs })) === undefined, 'renew() of a lease superseded by the same holder\'s new one gave a lease.');
          await refusedLeaseLost('An append under a superseded token', appendNext(store, 'fenced', [entry], second.fencingToken));
          checkSameJson(await loadClean(store, 'fenced'), [], 'the session after refused fenced appends');
          // The lease check comes first: a writer that lost its lease learns that, whatever its revision.
          await refusedLeaseLost('A stale append under a lost lease', store.append('fenced', [entryMaker('fenced', 5).userText('x')], { expectedRevision: 5, fencingToken: second.fencingToken }));
          await appendNext(store, 'fenced', [entry], third.fencingToken);
          // Appends without a token are not checked against leases.
          await appendNext(store, 'fenced', [make.userText('unfenced')]);
          check((await loadClean(store, 'fenced')).length === 2, 'The fenced and the unfenced append should both be stored.');
        }),
    },
    {
      name: 'leases: fencing tokens never repeat for a session, also after delete; sessions lease independently',
      ...skip,
      run: () =>
        withStore(async ({ store }) => {
          const leases = leasesOf(store);
          const tokens: number[] = [];
          for (let round = 0; round < 3; round += 1) {
            const lease = checkLease(await leases.acquire('reused', { holder: `worker-${round}`, ttlMs }), `acquire() round ${round + 1}`, {});
            tokens.push(lease.fencingToken);
            await appendNext(store, 'reused', [entryMaker('reused').userText(`round ${round}`)], lease.fencingToken);
            await store.delete('reused');
            await refusedLeaseLost('An append under the lease of a deleted session', appendNext(store, 'reused', [entryMaker('reused').userText('after delete')], lease.fencingToken));
          }
          check(tokens[0]! < tokens[1]! && tokens[1]! < tokens[2]!, `Tokens across deletes should grow: ${show(tokens)}.`);
          const other = checkLease(await leases.acquire('independent', { holder: 'worker-0', ttlMs }), 'acquire() of another session', {});
          check(other.sessionId === 'independent', 'The lease names the wrong session.');
        }),
    },
    {
      name: 'leases: many workers acquiring at once, exactly one gets the lease',
      ...skip,
      run: () =>
        withStore(async (fixture) => {
          const stores = [fixture.store];
          if (options.peers) for (let index = 0; index < 3; index += 1) stores.push(await otherWorker(fixture, true));
          const attempts = Array.from({ length: 8 }, (_, index) => leasesOf(stores[index % stores.length]!).acquire('contended', { holder: `worker-${index}`, ttlMs }));
          const leases = (await Promise.all(attempts)).filter((lease): lease is SessionLease => lease !== undefined);
          check(leases.length === 1, `${leases.length} of 8 concurrent acquires got the lease: ${show(leases)}`);
        }),
    },
    {
      name: 'leases: bad arguments are refused with a ConfigurationError',
      ...skip,
      run: () =>
        withStore(async ({ store }) => {
          const leases = leasesOf(store);
          const isConfiguration = hasCode('configuration');
          for (const [acquireOptions, what] of [
            [{ holder: '', ttlMs }, 'an empty holder'],
            [{ holder: 'worker', ttlMs: 0 }, 'ttlMs 0'],
            [{ holder: 'worker', ttlMs: -5 }, 'ttlMs -5'],
            [{ holder: 'worker', ttlMs: 1.5 }, 'ttlMs 1.5'],
            [{ holder: 'worker' }, 'no ttlMs'],
          ] as const) {
            await checkRejects(leases.acquire('args', acquireOptions as never), isConfiguration, `acquire() with ${what} should be refused with a ConfigurationError`);
          }
          const lease = checkLease(await leases.acquire('args', { holder: 'worker', ttlMs }), 'acquire()', {});
          await checkRejects(leases.renew(lease, { ttlMs: 0 }), isConfiguration, 'renew() with ttlMs 0 should be refused with a ConfigurationError');
          await checkRejects(leases.acquire('', { holder: 'worker', ttlMs }), isConfiguration, 'acquire() of session id "" should be refused with a ConfigurationError');
        }),
    },
  ];
}
