import { describe, expect, it } from 'vitest';
import { SessionConflictError, SessionWriteError } from 'agent-harness';
import { flushWriteError } from '../../src/loop/write-error.js';
import type { AgentCore } from '../../src/runtime/agent-core.js';

/** The part of a core flushWriteError reads: a flush that settles, then the failure it left. */
function coreFailingWith(failure: Error | undefined) {
  const order: string[] = [];
  let failed: Error | undefined;
  const core = {
    sessionId: 'sess_1',
    flush: async () => {
      order.push('flush');
      failed = failure;
    },
    get writeFailure() {
      order.push('read failure');
      return failed;
    },
  };
  return { core: core as unknown as AgentCore, order };
}

describe('flushWriteError', () => {
  it('is undefined when every write was stored, read only after the flush', async () => {
    const { core, order } = coreFailingWith(undefined);
    expect(await flushWriteError(core)).toBeUndefined();
    expect(order).toEqual(['flush', 'read failure']);
  });

  it("wraps a store's plain failure in a SessionWriteError naming the session", async () => {
    const cause = new Error('disk full');
    const { core } = coreFailingWith(cause);
    const error = await flushWriteError(core);
    expect(SessionWriteError.isInstance(error), String(error)).toBe(true);
    expect((error as SessionWriteError).cause).toBe(cause);
    expect(error!.message).toContain('sess_1');
  });

  it("gives a stale writer's conflict as it is, so the host can reload", async () => {
    const conflict = new SessionConflictError({ sessionId: 'sess_1', expectedRevision: 3, actualRevision: 4 });
    const { core } = coreFailingWith(conflict);
    expect(await flushWriteError(core)).toBe(conflict);
  });
});
