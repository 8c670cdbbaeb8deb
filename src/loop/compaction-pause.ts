import type { ContextUsage } from '../context/index.js';
import type { AgentCore } from '../runtime/agent-core.js';

/**
 * Whether to compact automatically at this context size: past the threshold, and not while
 * paused after a compaction that did not help. A context back under the threshold ends the pause
 * (recorded, so a resumed session does not wait for nothing).
 */
export function autoCompactionDue(core: AgentCore, usage: ContextUsage): boolean {
  const resumesAt = core.state.autoCompactionResumesAt;
  if (usage.tokens < core.context.compactAt) {
    if (resumesAt !== undefined) recordPause(core, undefined);
    return false;
  }
  return resumesAt === undefined || usage.tokens >= resumesAt;
}

/**
 * Notes where a compaction left the context (`tokensAfter`, or the size before it for an
 * automatic one that failed): past the threshold it could not help, so automatic compaction
 * pauses (see `AgentContext.pauseAfter`); under it, a pause ends. The pause is session state,
 * recorded as a `compaction-pause` entry, so it holds across a resume.
 * @returns the size at which automatic compaction resumes, when it pauses.
 */
export function noteCompaction(core: AgentCore, tokensAfter: number): number | undefined {
  const resumesAt = core.context.pauseAfter(tokensAfter);
  recordPause(core, resumesAt);
  return resumesAt;
}

/** Records the pause (or its end) when it changes: no entry for a turn that changes nothing. */
function recordPause(core: AgentCore, resumesAt: number | undefined): void {
  if (core.state.autoCompactionResumesAt === resumesAt) return;
  core.commit({ kind: 'compaction-pause', ...(resumesAt !== undefined ? { resumesAt } : {}) });
}
