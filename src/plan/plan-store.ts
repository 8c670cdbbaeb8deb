/**
 * Where approved plans are kept, one text per name (`{slug}.md`, `{slug}-agent-{agentId}.md`).
 * The core ships {@link memoryPlanStore}; `agent-harness/node` ships `filePlanStore({ dir })`.
 * Names are plain file names: no path separators, no `..`, no leading dot (see `assertPlanName`).
 */
export interface PlanStore {
  /** The plan's text, or `undefined` when there is no plan under that name. */
  read(name: string): Promise<string | undefined>;
  /** Creates or replaces the plan under that name. */
  write(name: string, text: string): Promise<void>;
  /** Whether a plan exists under that name. */
  exists(name: string): Promise<boolean>;
  /**
   * The names of every stored plan, sorted by UTF-16 code units (`Array.prototype.sort()`'s
   * order), in every store: not by a database's collation or by UTF-8 bytes.
   */
  list(): Promise<string[]>;
}
