import { AgentHarnessError, hasCode } from './agent-harness-error.js';

/** A `UserPromptSubmit` hook blocked the prompt; nothing was sent to the model. */
export class PromptBlockedError extends AgentHarnessError {
  static readonly code = 'prompt-blocked';
  /** The hook's reason, when it gave one. */
  readonly reason: string | undefined;
  constructor(reason: string | undefined) {
    super(PromptBlockedError.code, `A UserPromptSubmit hook blocked the prompt${reason ? `: ${reason}` : ''}. Nothing was sent to the model and the history is unchanged.`);
    this.reason = reason;
  }
  static override isInstance = hasCode<PromptBlockedError>(PromptBlockedError.code);
}
