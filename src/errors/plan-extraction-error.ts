import { AgentHarnessError, hasCode, type AgentHarnessErrorOptions } from './agent-harness-error.js';

/** Options of {@link PlanExtractionError}. */
export interface PlanExtractionErrorOptions extends AgentHarnessErrorOptions {
  /** One line per problem, each naming the field (`steps[0].title: ...`). Empty when no JSON was found. */
  issues?: string[];
  /** The model's last answer, as received. */
  responseText?: string;
  /** How many answers were asked for before giving up. */
  attempts?: number;
}

/** The `code` of a {@link PlanExtractionError}. */
const CODE = 'plan-extraction';

/** The model's answer held no usable structured plan (no JSON, truncated JSON, or JSON failing the schema). */
export class PlanExtractionError extends AgentHarnessError {
  static readonly code = CODE;
  readonly issues: readonly string[];
  readonly responseText: string | undefined;
  readonly attempts: number;
  constructor(message: string, options: PlanExtractionErrorOptions = {}) {
    super(CODE, message, options);
    this.issues = options.issues ?? [];
    this.responseText = options.responseText;
    this.attempts = options.attempts ?? 1;
  }
  static override isInstance = hasCode<PlanExtractionError>(CODE);
}
