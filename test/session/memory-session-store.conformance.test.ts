import { describe, it } from 'vitest';
import { describeConformance, planStoreConformance, sessionStoreConformance } from 'agent-harness/testing';
import { memoryPlanStore, memorySessionStore } from 'agent-harness';

describeConformance({
  title: 'memorySessionStore conformance',
  cases: sessionStoreConformance({ create: ({ now }) => ({ store: memorySessionStore({ now }) }) }),
  describe,
  it,
});

describeConformance({
  title: 'memoryPlanStore conformance',
  cases: planStoreConformance({ create: () => ({ store: memoryPlanStore() }) }),
  describe,
  it,
});
