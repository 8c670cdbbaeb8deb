import { UnsupportedSchemaVersionError } from '../errors/unsupported-schema-version-error.js';
import { SUPPORTED_ENTRY_VERSIONS, type SessionEntry } from '../state/entries.js';

/**
 * Checks that a stored transcript entry carries a `$schemaVersion` this build reads.
 * @param value A parsed entry (any JSON object).
 * @param where Names the entry in the error, e.g. `transcript entry on line 3 of /tmp/s.jsonl`.
 * @throws UnsupportedSchemaVersionError naming the versions this build reads.
 */
export function assertSupportedEntry(value: object, where: string): asserts value is SessionEntry {
  const version = (value as { $schemaVersion?: unknown }).$schemaVersion;
  if (typeof version !== 'number' || !SUPPORTED_ENTRY_VERSIONS.includes(version)) {
    throw new UnsupportedSchemaVersionError(where, version, SUPPORTED_ENTRY_VERSIONS);
  }
}
