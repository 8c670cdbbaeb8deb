import { SessionStoreCorruptError } from '../errors/session-store-corrupt-error.js';
import { UnsupportedSchemaVersionError } from '../errors/unsupported-schema-version-error.js';
import { SUPPORTED_ENTRY_VERSIONS, type SessionEntry } from '../state/entries.js';

/** What is wrong with a `$schemaVersion` no agent-harness ever wrote, or undefined for one a newer one may have. */
function malformedVersion(version: unknown): string | undefined {
  if (version === undefined) return 'has no $schemaVersion field';
  if (typeof version !== 'number') return `has $schemaVersion ${JSON.stringify(version)?.slice(0, 40) ?? String(version)} (a ${version === null ? 'null' : typeof version}, not a number)`;
  if (!Number.isInteger(version) || version < 1 || version < Math.max(...SUPPORTED_ENTRY_VERSIONS)) return `has $schemaVersion ${JSON.stringify(version)}, which no agent-harness writes`;
  return undefined;
}

/**
 * Whether `value` passes {@link assertSupportedEntry}: an entry object with a `$schemaVersion` this
 * build reads. For a loop over a whole transcript, which names an entry only when it fails.
 */
export function isSupportedEntry(value: unknown): value is SessionEntry {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const version = (value as { $schemaVersion?: unknown }).$schemaVersion;
  return typeof version === 'number' && SUPPORTED_ENTRY_VERSIONS.includes(version);
}

/**
 * Checks that a stored transcript entry carries a `$schemaVersion` this build reads. A version
 * above the newest this build knows was written by a newer agent-harness; an entry without one,
 * or with one no agent-harness writes (a string, 0, 1.5), was edited by hand or written by a bug:
 * upgrading would not help, so it is refused as damaged data.
 * @param value A parsed entry (any JSON value: a store of the host's own may yield anything).
 * @param sessionId The session the entry belongs to, for the error.
 * @param where Names the entry in the error, e.g. `transcript entry on line 3 of /tmp/s.jsonl`.
 * @throws UnsupportedSchemaVersionError naming the versions this build reads, for a newer version.
 * @throws SessionStoreCorruptError naming the session, the entry and the field, for a missing or malformed version.
 */
export function assertSupportedEntry(value: unknown, sessionId: string, where: string): asserts value is SessionEntry {
  // A store of the host's own may hand out anything: null (or another non-object) is damaged data too, not a TypeError.
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SessionStoreCorruptError({
      sessionId,
      location: where,
      problem: `is ${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`}, not an entry object: the store returned something agent-harness never writes`,
      repair: 'Check the store: its load() must yield the entries append() was given. Restore the entry from a backup or a snapshot, or remove it from the transcript.',
    });
  }
  const version = (value as { $schemaVersion?: unknown }).$schemaVersion;
  if (typeof version === 'number' && SUPPORTED_ENTRY_VERSIONS.includes(version)) return;
  const problem = malformedVersion(version);
  if (problem === undefined) throw new UnsupportedSchemaVersionError(where, version, SUPPORTED_ENTRY_VERSIONS);
  throw new SessionStoreCorruptError({
    sessionId,
    location: where,
    problem: `${problem}: every entry agent-harness writes carries one ($schemaVersion ${SUPPORTED_ENTRY_VERSIONS.join(', ')} for this build), so the entry was edited by hand or written by something else`,
    repair: 'Upgrading agent-harness would not read it. Restore the entry from a backup or a snapshot, or remove it from the transcript.',
  });
}
