import { AgentHarnessError } from '../../../errors/agent-harness-error.js';
import { UnsupportedSchemaVersionError } from '../../../errors/unsupported-schema-version-error.js';
import type { SessionEntry } from '../../../state/entries.js';
import { SUPPORTED_ENTRY_VERSIONS } from '../../../state/entries.js';
import { loadEntries } from '../../../session/load-entries.js';
import { check, checkRejects, checkSameJson, show } from '../check.js';
import type { ConformanceCase } from '../conformance-case.js';
import { entryMaker } from '../conformance-entries.js';
import type { ConformanceSetup } from '../session-store-conformance.js';
import { hasCode, loadAll, loadClean } from '../store-calls.js';

/** A version-1 entry: written before entries carried `seq`. */
function versionOneEntry(sessionId: string, position: number): SessionEntry {
  const entry = entryMaker(sessionId, position - 1).userText(`version 1, entry ${position}`) as Partial<SessionEntry>;
  delete entry.seq;
  return { ...entry, $schemaVersion: 1 } as SessionEntry;
}

/** Refused on append or on load, naming the versions this build reads. */
async function checkRefusedVersion(store: import('../../../session/session-store.js').SessionStore, sessionId: string, entry: SessionEntry, what: string): Promise<void> {
  const isUnsupported = (error: unknown) => UnsupportedSchemaVersionError.isInstance(error);
  let error: unknown;
  try {
    await store.append(sessionId, [entry], { expectedRevision: 0 });
  } catch (caught) {
    error = caught;
  }
  if (error === undefined) {
    error = await checkRejects(loadAll(store, sessionId), isUnsupported, `Loading ${what} should fail with UnsupportedSchemaVersionError`);
  } else {
    check(isUnsupported(error), `Appending ${what} failed, but not with UnsupportedSchemaVersionError: ${show(error)}`);
  }
  const { supported, message } = error as UnsupportedSchemaVersionError;
  checkSameJson(supported, SUPPORTED_ENTRY_VERSIONS, `the supported versions the error names for ${what}`);
  check(
    SUPPORTED_ENTRY_VERSIONS.every((version) => message.includes(String(version))),
    `The error for ${what} should name the supported versions ${SUPPORTED_ENTRY_VERSIONS.join(', ')}: ${message}`,
  );
}

/**
 * Refused on append (with an agent-harness error), or on load with SessionStoreCorruptError naming
 * the session and the missing field: an entry without `$schemaVersion` was not written by a newer
 * agent-harness, so an UnsupportedSchemaVersionError (whose cure is an upgrade) would be wrong advice.
 */
async function checkRefusedUnversioned(store: import('../../../session/session-store.js').SessionStore, sessionId: string, entry: SessionEntry): Promise<void> {
  const isCorrupt = hasCode('session-store-corrupt');
  let error: unknown;
  try {
    await store.append(sessionId, [entry], { expectedRevision: 0 });
  } catch (caught) {
    check(AgentHarnessError.isInstance(caught) && !UnsupportedSchemaVersionError.isInstance(caught), `Appending an entry without $schemaVersion failed, but not with an agent-harness error that says what is wrong (not UnsupportedSchemaVersionError, whose cure is an upgrade): ${show(caught)}`);
    return;
  }
  error = await checkRejects(loadAll(store, sessionId), isCorrupt, 'Loading an entry without $schemaVersion should fail with SessionStoreCorruptError (code session-store-corrupt), not UnsupportedSchemaVersionError: upgrading would not read it');
  const { message } = error as Error;
  check(message.includes(JSON.stringify(sessionId)) && message.includes('$schemaVersion'), `The error for an entry without $schemaVersion should name the session and the missing field: ${message}`);
}

/** `$schemaVersion`: unknown versions are refused clearly, version 1 loads numbered. */
export function schemaCases({ withStore }: ConformanceSetup): ConformanceCase[] {
  return [
    {
      name: 'an entry with an unknown $schemaVersion is refused with UnsupportedSchemaVersionError naming the supported versions',
      run: () =>
        withStore(async ({ store }) => {
          const future = { ...entryMaker('future').userText('from a newer version'), $schemaVersion: 99 } as SessionEntry;
          await checkRefusedVersion(store, 'future', future, 'an entry with $schemaVersion 99');
        }),
    },
    {
      name: 'an entry without $schemaVersion is refused as damaged (SessionStoreCorruptError naming the session and the field), not as written by a newer version',
      run: () =>
        withStore(async ({ store }) => {
          const unversioned = entryMaker('unversioned').userText('no version') as Partial<SessionEntry>;
          delete unversioned.$schemaVersion;
          await checkRefusedUnversioned(store, 'unversioned', unversioned as SessionEntry);
        }),
    },
    {
      name: 'version-1 entries (no seq) count by position: the revision is their number and loading numbers them',
      run: () =>
        withStore(async ({ store }) => {
          const old = [1, 2, 3].map((position) => versionOneEntry('legacy', position));
          await store.append('legacy', old, { expectedRevision: 0 });
          const raw = await loadClean(store, 'legacy');
          checkSameJson(
            raw.map((entry) => [entry.$schemaVersion, entry.id]),
            old.map((entry) => [1, entry.id]),
            'version-1 entries as loaded',
          );
          for (const [index, entry] of raw.entries()) {
            check(entry.seq === undefined || entry.seq === index + 1, `A version-1 entry loaded with seq ${show(entry.seq)} at position ${index + 1}.`);
          }
          const isConflict = hasCode('session-conflict');
          const next = entryMaker('legacy', 3).userText('version 2 after version 1');
          await checkRejects(store.append('legacy', [entryMaker('legacy', 2).userText('x')], { expectedRevision: 2 }), isConflict, 'Appending at revision 2 after three version-1 entries should be a SessionConflictError');
          await store.append('legacy', [next], { expectedRevision: 3 });
          checkSameJson(
            (await loadEntries(store, 'legacy')).map((entry) => entry.seq),
            [1, 2, 3, 4],
            'seqs of version-1 entries and the one after them, as loadEntries numbers them',
          );
        }),
    },
  ];
}
