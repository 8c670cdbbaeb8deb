import { AgentHarnessError, hasCode, type AgentHarnessErrorOptions } from './agent-harness-error.js';

/** Options of {@link HookError}. */
export interface HookErrorOptions extends AgentHarnessErrorOptions {
  /** The hook event, e.g. `PreToolUse`. */
  hookEventName: string;
  /** The hook's position in `hooks[hookEventName]`. */
  hookIndex: number;
  /**
   * True when the hook ran past its `timeoutMs`.
   * @default false
   */
  timedOut?: boolean;
}

/** The `code` of a {@link HookError}. */
const CODE = 'hook';

/**
 * A hook threw, timed out, was aborted or returned something that is not a valid output.
 * A failing `PreToolUse` hook denies its call (fail closed); other failing hooks are reported
 * in an `error` event and otherwise ignored.
 */
export class HookError extends AgentHarnessError {
  static readonly code = CODE;
  /** The hook event, e.g. `PreToolUse`. */
  readonly hookEventName: string;
  /** The hook's position in `hooks[hookEventName]`. */
  readonly hookIndex: number;
  /** True when the hook ran past its `timeoutMs`. */
  readonly timedOut: boolean;
  constructor(message: string, options: HookErrorOptions) {
    super(CODE, message, options);
    this.hookEventName = options.hookEventName;
    this.hookIndex = options.hookIndex;
    this.timedOut = options.timedOut ?? false;
  }
  static override isInstance = hasCode<HookError>(CODE);
}
