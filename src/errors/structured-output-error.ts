import { AgentHarnessError, hasCode } from './agent-harness-error.js';

/** Fields of a {@link StructuredOutputError}. */
export interface StructuredOutputErrorOptions {
  /** What was wrong with the last answer, one issue per line (`steps[0].title: required`). */
  issues: string[];
  /** The model's last answer. */
  responseText: string;
  /** How many answers were asked for. */
  attempts: number;
}

/** A run asked for a typed `output` ended without an answer that validates against the schema. */
export class StructuredOutputError extends AgentHarnessError {
  static readonly code = 'structured-output';
  readonly issues: string[];
  readonly responseText: string;
  readonly attempts: number;
  constructor(options: StructuredOutputErrorOptions) {
    super(
      StructuredOutputError.code,
      `The run asked for a typed output, but after ${options.attempts} answer(s) none validated against the schema${options.issues.length ? `: ${options.issues.slice(0, 5).join('; ')}` : ''}. Check the schema (can the model fill it?), or allow more answers with outputRetries.`,
    );
    this.issues = options.issues;
    this.responseText = options.responseText;
    this.attempts = options.attempts;
  }
  static override isInstance = hasCode<StructuredOutputError>(StructuredOutputError.code);
}
