import { AgentHarnessError, hasCode } from './agent-harness-error.js';

/** The `code` of a {@link PlanNameCollisionError}. */
const CODE = 'plan-name-collision';

/** No free plan name was found: every slug drawn was already taken in the plan store. */
export class PlanNameCollisionError extends AgentHarnessError {
  static readonly code = CODE;
  /** The file names that were tried, in order. */
  readonly triedNames: readonly string[];
  constructor(triedNames: readonly string[]) {
    super(
      CODE,
      `Could not find a free plan name after ${triedNames.length} attempts (tried ${triedNames.map((name) => `"${name}"`).join(', ')}). The plan store is unusually full or its \`exists()\` always answers true; clean up the store or pass a different \`random\` source.`,
    );
    this.triedNames = triedNames;
  }
  static override isInstance = hasCode<PlanNameCollisionError>(CODE);
}
