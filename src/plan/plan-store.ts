/** Options of `PlanStore.write`. */
export interface PlanWriteOptions {
  /**
   * Write only if no plan holds the name (atomically); `write` then resolves whether it wrote.
   * @default false (create or replace)
   */
  ifAbsent?: boolean;
}

/**
 * Where approved plans are kept, one text per name (`{slug}.md`, `{slug}-agent-{agentId}.md`).
 * The core ships {@link memoryPlanStore}; `agent-harness/node` ships `filePlanStore({ dir })`.
 * Names are plain file names: no path separators, no `..`, no leading dot (see `assertPlanName`).
 * A session writes over a name only once it holds its own plan there: its first plan (and a
 * fork's copy) is written only where no plan is (`exists`, then `write(…, { ifAbsent: true })`),
 * and a session whose drawn name was taken meanwhile by another session's plan draws a new one. Two processes that draw the same name
 * and write it in the same moment both find it free only with a store that ignores
 * `write(…, { ifAbsent: true })`: every store of the library writes that atomically.
 */
export interface PlanStore {
  /** The plan's text, or `undefined` when there is no plan under that name. */
  read(name: string): Promise<string | undefined>;
  /**
   * Creates or replaces the plan under that name. With `options.ifAbsent`, writes only when no
   * plan holds the name, as one atomic step, and resolves `false` when one does (nothing
   * written), `true` when it wrote: a session's first plan is written this way. A store (or a
   * wrapper over one) that ignores the option writes as usual and resolves `undefined`: the plan
   * is then read back, and another session's plan found there (two sessions drew the name at once
   * and the store let both write) fails the save with `PlanStoreIfAbsentError`. That check is
   * the most this contract allows, and it is weak: `read`, `write`, `exists` and `list` have no
   * compare-and-set, so a read back only sees a writer that wrote between this write and the read.
   * Unseen: a second writer whose write lands after the read (the first session keeps the name and
   * its plan is later overwritten), and two sessions writing the same text (each reads its own).
   * No lock in the library closes it across processes. So pass the option on.
   */
  write(name: string, text: string, options?: PlanWriteOptions): Promise<void | boolean>;
  /** Whether the name is taken: a plan is under it (or, in a file store, anything else is at that path). */
  exists(name: string): Promise<boolean>;
  /**
   * The names of every stored plan, sorted by UTF-16 code units (`Array.prototype.sort()`'s
   * order), in every store: not by a database's collation or by UTF-8 bytes.
   */
  list(): Promise<string[]>;
}
