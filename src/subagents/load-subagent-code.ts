import { loadOnce } from '../runtime/load-once.js';

/**
 * Loads what a subagent needs to start and run (subagent-code.ts) the first time one starts: an
 * `Agent` call, a resumed one, a background task, `verifyPlan`, each asynchronous already. A load
 * that failed is forgotten, so the next subagent tries again.
 */
export const loadSubagentCode = loadOnce(() => import('./subagent-code.js'));
