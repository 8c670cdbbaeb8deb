import { SessionStoreCorruptError } from '../errors/session-store-corrupt-error.js';
import { UnsupportedSchemaVersionError } from '../errors/unsupported-schema-version-error.js';

/**
 * The promise's value, or undefined when it fails with UnsupportedSchemaVersionError (a session
 * a newer version of agent-harness wrote) or SessionStoreCorruptError (a session whose stored
 * data was damaged, e.g. an entry without its `$schemaVersion`): what `listPending()` does with
 * such a session, so that one of them does not take every other session's approvals down with
 * it. Loading the session itself still fails with the error. Other failures pass through.
 * @param onSkip Told of the error a session was passed over for.
 */
export async function unlessUnsupported<T>(promise: Promise<T>, onSkip?: (error: Error) => void): Promise<T | undefined> {
  try {
    return await promise;
  } catch (error) {
    if (UnsupportedSchemaVersionError.isInstance(error) || SessionStoreCorruptError.isInstance(error)) {
      onSkip?.(error as Error);
      return undefined;
    }
    throw error;
  }
}
