import { AgentHarnessError, hasCode } from './agent-harness-error.js';

/** The `code` of a {@link PromptBlockedError}. */
const CODE = 'prompt-blocked';

/** A `UserPromptSubmit` hook blocked the prompt; nothing was sent to the model. */
export class PromptBlockedError extends AgentHarnessError {
  static readonly code = CODE;
  /** The hook's reason, when it gave one. */
  readonly reason: string | undefined;
  constructor(reason: string | undefined) {
    super(CODE, `A UserPromptSubmit hook blocked the prompt${reason ? `: ${reason}` : ''}. Nothing was sent to the model and the history is unchanged.`);
    this.reason = reason;
  }
  static override isInstance = hasCode<PromptBlockedError>(CODE);
}
