import { AgentHarnessError, hasCode } from './agent-harness-error.js';

/** The session's lease as a store saw it when it refused a write. */
export interface LeaseLostErrorLease {
  /** Who holds (or last held) the lease. */
  holder: string;
  /** The lease's fencing token. */
  fencingToken: number;
  /** Epoch milliseconds the lease ends (or ended) at, in the store's clock. */
  expiresAt: number;
}

/** Fields of a {@link LeaseLostError}. */
export interface LeaseLostErrorOptions {
  /** The session the refused write was for. */
  sessionId: string;
  /** The fencing token the refused writer carried. */
  fencingToken: number;
  /** The session's lease as the store holds it now; undefined when it has none. */
  currentLease: LeaseLostErrorLease | undefined;
  /** The store's clock (epoch milliseconds) when it refused; the holder's, with `reason`. */
  now: number;
  /**
   * Set when the lease holder found out itself, before the store refused anything — its lease ran
   * out by its own clock with no renewal, or a renewal was refused — and stopped a tool call from
   * starting: why, as a clause (e.g. `its 30000 ms ran out with no renewal`). The message then says
   * so, instead of naming the store's lease.
   * @default undefined (the store refused a write)
   */
  reason?: string;
}

function iso(epochMs: number): string {
  return Number.isFinite(epochMs) && Math.abs(epochMs) <= 8.64e15 ? new Date(epochMs).toISOString() : String(epochMs);
}

function whyLost(options: LeaseLostErrorOptions): string {
  const lease = options.currentLease;
  if (lease === undefined) return 'the session has no lease at all';
  if (lease.fencingToken !== options.fencingToken) {
    return `the lease now belongs to "${lease.holder}" with fencing token ${lease.fencingToken}`;
  }
  return `the lease expired or was released at ${iso(lease.expiresAt)} (the store's clock reads ${iso(options.now)})`;
}

/** The `code` of a {@link LeaseLostError}. */
const CODE = 'lease-lost';

/**
 * A write carried the fencing token of a lease that is no longer the session's current,
 * unexpired lease: it expired, was released, or another worker took the session over. Nothing of
 * the write was stored. Also what a run ends with when its lease holder found the lease lost
 * before a tool call started (`createAgent({ checkLease })`, with `reason`): the call did not run.
 * The worker must stop working on the session; to continue it, acquire the lease again and load
 * the session afresh.
 */
export class LeaseLostError extends AgentHarnessError {
  /** The error's code, `lease-lost`. */
  static readonly code = CODE;
  /** The session the refused write was for. */
  readonly sessionId: string;
  /** The fencing token the refused writer carried. */
  readonly fencingToken: number;
  /** The session's lease as the store held it when refusing, if any. */
  readonly currentLease: LeaseLostErrorLease | undefined;
  constructor(options: LeaseLostErrorOptions) {
    super(
      CODE,
      `Session "${options.sessionId}" is no longer leased under fencing token ${options.fencingToken}: ` +
        (options.reason === undefined ? `${whyLost(options)}. Nothing was written.` : `${options.reason}. The tool call about to start was not run, and the run stopped.`) +
        ' Stop working on this session; to continue it, acquire its lease again (store.leases.acquire) and load it afresh.',
    );
    this.sessionId = options.sessionId;
    this.fencingToken = options.fencingToken;
    this.currentLease = options.currentLease;
  }
  /** True for this error, also when thrown by another copy of the library. */
  static override isInstance = hasCode<LeaseLostError>(CODE);
}
