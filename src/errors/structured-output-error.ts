import { AgentHarnessError, hasCode } from './agent-harness-error.js';

/** Fields of a {@link StructuredOutputError}. */
export interface StructuredOutputErrorOptions {
  /** What was wrong with the last answer, one issue per line (`steps[0].title: required`). */
  issues: string[];
  /** The model's last answer. */
  responseText: string;
  /** How many answers were asked for. */
  attempts: number;
  /**
   * The model stopped its last answer as a refusal (stop reason `refusal`): the run ended there
   * without asking again.
   * @default false
   */
  refused?: boolean;
}

/** The `code` of a {@link StructuredOutputError}. */
const CODE = 'structured-output';

/**
 * A run asked for a typed `output` ended without an answer that validates against the schema: none
 * of the answers it allowed (`outputRetries`) did, or the model refused (`refused`; the run does
 * not ask again after a refusal, since going on from a refused answer tends to be refused again).
 */
export class StructuredOutputError extends AgentHarnessError {
  static readonly code = CODE;
  /** What was wrong with the last answer, one issue per line. */
  readonly issues: string[];
  /** The model's last answer. */
  readonly responseText: string;
  /** How many answers were asked for. */
  readonly attempts: number;
  /** True when the model stopped its last answer as a refusal (stop reason `refusal`), so the run ended there with no output. */
  readonly refused: boolean;
  constructor(options: StructuredOutputErrorOptions) {
    super(
      CODE,
      options.refused
        ? `The run asked for a typed output, but the model stopped its answer as a refusal (stop reason "refusal") after ${options.attempts} answer(s), so there is no output; the run did not ask again, since going on from a refused answer tends to be refused again. Rephrase the request, or check it against the model's usage policy.`
        : `The run asked for a typed output, but after ${options.attempts} answer(s) none validated against the schema${options.issues.length ? `: ${options.issues.slice(0, 5).join('; ')}` : ''}. Check the schema (can the model fill it?), or allow more answers with outputRetries.`,
    );
    this.issues = options.issues;
    this.responseText = options.responseText;
    this.attempts = options.attempts;
    this.refused = options.refused === true;
  }
  static override isInstance = hasCode<StructuredOutputError>(CODE);
}
