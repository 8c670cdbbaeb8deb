import type { ReadTargets, Tool, WriteTargets } from '../tools/types.js';
import type { RuleMatchOptions } from './rule-set.js';
import { isReadOnlyCallUnchecked } from './is-read-only-call.js';

type TargetsTool = Pick<Tool, 'name' | 'ruleTarget'>;
type ReadOnlyTool = Pick<Tool, 'readOnly' | 'isReadOnlyCall'>;

/**
 * What one call reads and writes (its tool's `ruleTarget.reads` and `.writes`), and whether it
 * only reads (its `isReadOnlyCall`), worked out at most once while the call is decided: the deny
 * rules, the ask rules, what cannot be checked against either, the mode step and the final check
 * of an allowed call all ask for them (a Bash command is parsed, its paths resolved and its
 * programs looked up in `PATH` each time otherwise). Kept for one input of one tool: another
 * input (a hook's rewrite, the host's edit) is worked out afresh. Made per decision, never
 * shared between decisions, since what a path leads to may change between them.
 */
export class CallTargets {
  #tool: TargetsTool | undefined;
  #input: unknown;
  #reads: { value: ReadTargets | undefined } | undefined;
  #writes: { value: WriteTargets | undefined } | undefined;
  #readOnly: boolean | undefined;

  private forCall(tool: object, input: unknown): void {
    if (tool === this.#tool && input === this.#input) return;
    this.#tool = tool as TargetsTool;
    this.#input = input;
    this.#reads = undefined;
    this.#writes = undefined;
    this.#readOnly = undefined;
  }

  /**
   * Whether the call only reads (`isReadOnlyCall`), asked of the tool at most once for this
   * input: the mode step, the tool-check step and the final check of an allowed call all ask,
   * and a tool's own answer may cost file system calls (the Bash tool looks up in `PATH` every
   * program the command names). A tool without a per-call answer is not asked at all.
   */
  readOnly(tool: ReadOnlyTool, input: unknown): boolean {
    if (tool.isReadOnlyCall === undefined) return tool.readOnly;
    this.forCall(tool, input);
    this.#readOnly ??= isReadOnlyCallUnchecked(tool, input);
    return this.#readOnly;
  }

  /** `compute()` for this call the first time, its answer after. */
  reads(tool: TargetsTool, input: unknown, compute: () => ReadTargets | undefined): ReadTargets | undefined {
    this.forCall(tool, input);
    this.#reads ??= { value: compute() };
    return this.#reads.value;
  }

  /** `compute()` for this call the first time, its answer after. */
  writes(tool: TargetsTool, input: unknown, compute: () => WriteTargets | undefined): WriteTargets | undefined {
    this.forCall(tool, input);
    this.#writes ??= { value: compute() };
    return this.#writes.value;
  }
}

/** {@link RuleMatchOptions} as the permission pipeline passes them: with the decision's {@link CallTargets}. */
export interface DecisionMatchOptions extends RuleMatchOptions {
  targets?: CallTargets;
}

/** The decision's targets, when the options carry them (only the pipeline's do). */
export function callTargetsOf(options: RuleMatchOptions | undefined): CallTargets | undefined {
  const targets = (options as DecisionMatchOptions | undefined)?.targets;
  return targets instanceof CallTargets ? targets : undefined;
}
