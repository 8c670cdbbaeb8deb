/**
 * Where approved plans are kept, one text per name (`{slug}.md`, `{slug}-agent-{agentId}.md`).
 * The core ships {@link memoryPlanStore}; `agent-harness/node` ships `filePlanStore({ dir })`.
 * Names are plain file names: no path separators, no `..`, no leading dot (see `assertPlanName`).
 * A session writes over a name only once it holds its own plan there: its first plan (and a
 * fork's copy) is written only where `exists` says no plan is, and a session whose drawn name was
 * taken meanwhile by another session's plan draws a new one. Two processes that draw the same name
 * and write it in the same moment can still both find it free (there is no atomic create).
 */
export interface PlanStore {
  /** The plan's text, or `undefined` when there is no plan under that name. */
  read(name: string): Promise<string | undefined>;
  /** Creates or replaces the plan under that name. */
  write(name: string, text: string): Promise<void>;
  /** Whether the name is taken: a plan is under it (or, in a file store, anything else is at that path). */
  exists(name: string): Promise<boolean>;
  /**
   * The names of every stored plan, sorted by UTF-16 code units (`Array.prototype.sort()`'s
   * order), in every store: not by a database's collation or by UTF-8 bytes.
   */
  list(): Promise<string[]>;
}
