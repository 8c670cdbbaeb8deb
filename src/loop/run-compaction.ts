import type { AgentCore } from '../runtime/agent-core.js';
import { loadOnce } from '../lazy/load-once.js';
import type { CompactHistoryOptions, CompactionResult } from './compact-history.js';

const loadCompactHistory = loadOnce(() => import('./compact-history.js'));

/**
 * `compactHistory`, with its code (the summary request, the cut, the restated state) loaded the
 * first time a compaction runs: a compaction is already asynchronous (a model call), so the first
 * one waits a little longer and a browser host does not download that code up front.
 */
export function runCompaction(core: AgentCore, options: CompactHistoryOptions): Promise<CompactionResult> {
  return loadCompactHistory().then((module) => module.compactHistory(core, options));
}
