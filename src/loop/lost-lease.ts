import { LeaseLostError } from '../errors/lease-lost-error.js';
import { toError } from '../errors/describe-thrown.js';
import type { AgentCore } from '../runtime/agent-core.js';

/**
 * What stops a tool call from starting as far as the session's lease goes: the error once the
 * lease is known lost — the store refused a write with `LeaseLostError`, or the host's
 * `checkLease` says so (read now, locally: no store round trip) — else undefined. Remembered for
 * the run, so a renewal that comes back later does not let the batch's next call start after one
 * was refused. A `checkLease` that throws stops the call with what it threw.
 */
export function lostLease(core: AgentCore): Error | undefined {
  if (core.leaseLost) return core.leaseLost;
  const failure = core.writeFailure;
  let lost: Error | undefined = LeaseLostError.isInstance(failure) ? failure : undefined;
  if (!lost && core.leaseCheck) {
    try {
      const answer: unknown = core.leaseCheck();
      if (answer !== undefined && answer !== null && answer !== false) lost = toError(answer);
    } catch (error) {
      lost = toError(error);
    }
  }
  if (lost) core.leaseLost = lost;
  return lost;
}
