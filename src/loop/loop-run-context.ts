import type { AgentEvent } from '../events/agent-event.js';
import type { SubagentRunSummary } from '../events/run-result.js';
import type { RunSpend } from '../model/run-spend.js';
import type { RunAbort } from './run-abort.js';
import type { ToolQueue } from './tool-queue.js';

/**
 * What one run carries through the loop: its id and interruption, the tool queue, and — for runs nested
 * inside a parent's tool call (a subagent) — where its events go and whom they belong to, so a
 * child run's events, entries and spans land in the right place.
 */
export interface RunContext {
  runId: string;
  /** Interrupts the run; its `signal` is made only when something is handed it. */
  abort: RunAbort;
  queue: ToolQueue;
  /** Receives every event of the run: the outermost run's stream. */
  sink: (event: AgentEvent) => void;
  /** For a nested run: the parent's call that started it. */
  parentToolUseId?: string;
  /** The host's tracing span of the run, when it traces. */
  span?: unknown;
  /**
   * The running cost of the outermost run and every run nested in it, checked against its budget
   * before each model call; the outermost run makes it, nested runs share it.
   */
  spend?: RunSpend;
  /** Adds a subagent run's usage to this run's result (set by the run itself). */
  reportSubagent?: (summary: SubagentRunSummary, nested?: readonly SubagentRunSummary[]) => void;
}
