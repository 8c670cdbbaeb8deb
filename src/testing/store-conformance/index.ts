export { sessionStoreConformance, type SessionStoreConformanceOptions, type SessionStoreConformanceContext, type SessionStoreFixture } from './session-store-conformance.js';
export { planStoreConformance, type PlanStoreConformanceOptions, type PlanStoreFixture } from './plan-store-conformance.js';
export { describeConformance, type ConformanceCase, type ConformanceTestFunction, type DescribeConformanceOptions } from './conformance-case.js';
export { StoreConformanceFailure } from './check.js';
export { manualClock, type ManualClock } from './manual-clock.js';
