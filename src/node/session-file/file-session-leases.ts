import { checkLeaseArguments, checkLeaseObject, endLease, extendLease, leaseOf, takeLease, type LeaseRecord } from '../../session/lease-rules.js';
import type { SessionLeases } from '../../session/session-store.js';
import { assertOwnSessionFile } from './assert-own-session-file.js';
import { readLeaseFile, writeLeaseFile } from './lease-file.js';
import type { SessionFileTarget } from './session-file-target.js';

/** What the file store lends its leases. */
export interface FileSessionLeasesContext {
  /** The session's files; checks the id. */
  targetOf: (sessionId: string) => SessionFileTarget;
  /** Runs `task` alone: after the store's queued work for the session, holding the session's lock. */
  exclusive: <T>(sessionId: string, task: () => Promise<T>) => Promise<T>;
  /** The lease clock. */
  now: () => number;
  /** Flush lease files to the disk. */
  fsync: boolean;
}

/**
 * Leases of the file store: one `<sessionId>.jsonl.lease` file per session (holder, fencing
 * token, expiry), read and replaced under the session's lock file, so two processes taking the
 * same lease at once cannot both get it. A lease file names its session: one that names another
 * (on a case-insensitive file system, ids that differ only in case share one) is refused with
 * `ConfigurationError`, as is a session whose transcript is another session's file.
 */
export function fileSessionLeases(context: FileSessionLeasesContext): SessionLeases {
  const change = async (sessionId: string, decide: (current: LeaseRecord | undefined) => LeaseRecord | undefined): Promise<LeaseRecord | undefined> => {
    const target = context.targetOf(sessionId);
    return context.exclusive(sessionId, async () => {
      // A session whose transcript is another's (a name that differs only in case) takes no lease:
      // its lease file would be the other session's too.
      await assertOwnSessionFile(target.file, sessionId);
      const next = decide(await readLeaseFile(target.leaseFile, sessionId));
      if (next !== undefined) await writeLeaseFile(target.leaseFile, sessionId, next, context.fsync);
      return next;
    });
  };
  return {
    async acquire(sessionId, options) {
      context.targetOf(sessionId);
      checkLeaseArguments('fileSessionStore.leases.acquire', options, true);
      const record = await change(sessionId, (current) => takeLease(current, options.holder, options.ttlMs, context.now()));
      return record === undefined ? undefined : leaseOf(sessionId, record);
    },
    async renew(lease, options) {
      checkLeaseObject('fileSessionStore.leases.renew', lease);
      checkLeaseArguments('fileSessionStore.leases.renew', options, false);
      const record = await change(lease.sessionId, (current) => extendLease(current, lease, options.ttlMs, context.now()));
      return record === undefined ? undefined : leaseOf(lease.sessionId, record);
    },
    async release(lease) {
      checkLeaseObject('fileSessionStore.leases.release', lease);
      await change(lease.sessionId, (current) => endLease(current, lease, context.now()));
    },
  };
}
