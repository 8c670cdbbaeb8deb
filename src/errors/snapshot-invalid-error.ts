import { AgentHarnessError, hasCode } from './agent-harness-error.js';

/** The `code` of a {@link SnapshotInvalidError}. */
const CODE = 'snapshot-invalid';

/**
 * A snapshot (or a stored state) given to resume a session is not one this library wrote, or was
 * changed since: a field is missing or of the wrong shape, the open batch does not match the
 * history, or — with `snapshotKey` — its signature does not verify. Nothing was run.
 */
export class SnapshotInvalidError extends AgentHarnessError {
  static readonly code = CODE;
  /** Where in the snapshot the problem is, e.g. `openBatch.calls[1].toolUseId` ('' for the whole). */
  readonly path: string;
  /** The problem, as a phrase. */
  readonly problem: string;
  constructor(path: string, problem: string) {
    super(
      CODE,
      `The snapshot is invalid${path ? ` at ${path}` : ''}: ${problem}. Resume from the object agent.snapshot() returned, unchanged (JSON round trips are fine); a snapshot that went through a browser or another party must be signed (createAgent({ snapshotKey })) or kept on the server.`,
    );
    this.path = path;
    this.problem = problem;
  }
  static override isInstance = hasCode<SnapshotInvalidError>(CODE);
}
