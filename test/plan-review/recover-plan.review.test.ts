import { describe, expect, it } from 'vitest';
import { memoryPlanStore, recoverPlan } from 'agent-harness';

const base = (id: string, agentId?: string) => ({
  $schemaVersion: 1,
  id,
  parentId: null,
  timestamp: '2026-01-01T00:00:00.000Z',
  sessionId: 's',
  ...(agentId ? { agentId } : {}),
});

describe('review: recoverPlan slug from the entries', () => {
  it("a subagent's session-meta does not replace the main agent's slug", async () => {
    const store = memoryPlanStore({ initial: { 'quiet-copper-lantern.md': '# main plan' } });
    const entries = [
      { ...base('e1'), kind: 'session-meta', slug: 'quiet-copper-lantern' },
      // a subagent sharing the session store allocated its own slug on its first savePlan
      { ...base('e2', 'a1'), kind: 'session-meta', slug: 'brave-amber-harbor' },
    ] as never;
    expect(await recoverPlan({ store, entries })).toEqual({ text: '# main plan', source: 'store', name: 'quiet-copper-lantern.md' }); // actual: undefined
  });
});

