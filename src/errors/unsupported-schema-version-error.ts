import { AgentHarnessError, hasCode } from './agent-harness-error.js';

/** The `code` of a {@link UnsupportedSchemaVersionError}. */
const CODE = 'unsupported-schema-version';

/** A persisted shape (snapshot, transcript entry) carries a `$schemaVersion` this build cannot read. */
export class UnsupportedSchemaVersionError extends AgentHarnessError {
  static readonly code = CODE;
  /** What was read. */
  readonly found: unknown;
  /** The versions this build reads. */
  readonly supported: readonly number[];
  constructor(what: string, found: unknown, supported: readonly number[]) {
    super(
      CODE,
      `Cannot read ${what} with $schemaVersion ${JSON.stringify(found)}: this version of agent-harness reads $schemaVersion ${supported.join(', ')}. Upgrade agent-harness to read newer data.`,
    );
    this.found = found;
    this.supported = supported;
  }
  static override isInstance = hasCode<UnsupportedSchemaVersionError>(CODE);
}
