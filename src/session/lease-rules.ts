import { ConfigurationError } from '../errors/configuration-error.js';
import { LeaseLostError } from '../errors/lease-lost-error.js';
import type { SessionLease } from './session-store.js';

/** What a store keeps of a session's lease. The token stays after the lease ends, so tokens never repeat. */
export interface LeaseRecord {
  holder: string;
  fencingToken: number;
  /** Epoch milliseconds; the lease is valid while the clock reads less. */
  expiresAt: number;
}

/**
 * Checks the arguments of `leases.acquire` / `renew`.
 * @throws ConfigurationError for an empty holder or a ttl that is not a positive integer.
 */
export function checkLeaseArguments(where: string, options: { holder?: unknown; ttlMs?: unknown } | undefined, needsHolder: boolean): void {
  if (needsHolder && (typeof options?.holder !== 'string' || options.holder.length === 0)) {
    throw new ConfigurationError(`${where} needs options.holder, a non-empty string naming the worker (e.g. its host and pid), got ${JSON.stringify(options?.holder)}.`);
  }
  const ttlMs = options?.ttlMs;
  if (!Number.isSafeInteger(ttlMs) || (ttlMs as number) <= 0) {
    throw new ConfigurationError(`${where} needs options.ttlMs, the lease's lifetime in milliseconds (a positive integer, e.g. 30000), got ${JSON.stringify(ttlMs)}.`);
  }
}

/** Checks a lease handed back to `renew` / `release`. @throws ConfigurationError for something that is not one. */
export function checkLeaseObject(where: string, lease: unknown): asserts lease is SessionLease {
  const value = lease as Partial<SessionLease> | null | undefined;
  if (typeof value?.sessionId !== 'string' || typeof value.holder !== 'string' || !Number.isSafeInteger(value.fencingToken)) {
    throw new ConfigurationError(`${where} needs a lease returned by leases.acquire or leases.renew, got ${JSON.stringify(lease)}.`);
  }
}

const isValid = (record: LeaseRecord | undefined, now: number): record is LeaseRecord => record !== undefined && now < record.expiresAt;

/** The new lease record when `holder` may take the lease now, else undefined (another holder's is valid). */
export function takeLease(current: LeaseRecord | undefined, holder: string, ttlMs: number, now: number): LeaseRecord | undefined {
  if (isValid(current, now) && current.holder !== holder) return undefined;
  return { holder, fencingToken: (current?.fencingToken ?? 0) + 1, expiresAt: now + ttlMs };
}

/** The renewed record when `lease` is still the current, valid one, else undefined. */
export function extendLease(current: LeaseRecord | undefined, lease: SessionLease, ttlMs: number, now: number): LeaseRecord | undefined {
  if (!isValid(current, now) || current.fencingToken !== lease.fencingToken || current.holder !== lease.holder) return undefined;
  return { ...current, expiresAt: now + ttlMs };
}

/** The ended record when `lease` is still the current, valid one, else undefined (nothing to change). */
export function endLease(current: LeaseRecord | undefined, lease: SessionLease, now: number): LeaseRecord | undefined {
  if (!isValid(current, now) || current.fencingToken !== lease.fencingToken) return undefined;
  return { ...current, expiresAt: now };
}

/** The error for a write under `fencingToken`, or undefined when it is the current, valid lease's. */
export function fenceError(sessionId: string, current: LeaseRecord | undefined, fencingToken: number, now: number): LeaseLostError | undefined {
  if (isValid(current, now) && current.fencingToken === fencingToken) return undefined;
  return new LeaseLostError({ sessionId, fencingToken, currentLease: current === undefined ? undefined : { ...current }, now });
}

/** The lease handed to the caller. */
export function leaseOf(sessionId: string, record: LeaseRecord): SessionLease {
  return { sessionId, holder: record.holder, fencingToken: record.fencingToken, expiresAt: record.expiresAt };
}
