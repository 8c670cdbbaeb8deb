import { AgentHarnessError, hasCode } from './agent-harness-error.js';

/** The `code` of a {@link MemoryAccessError}. */
const CODE = 'memory-access';

/**
 * A memory store refused to reach an entry (a symbolic link on the way, a path that would leave
 * the memory directory). The memory tool reports it to the model as a failed command.
 */
export class MemoryAccessError extends AgentHarnessError {
  static readonly code = CODE;
  constructor(message: string) {
    super(CODE, message);
  }
  static override isInstance = hasCode<MemoryAccessError>(CODE);
}
