import { UnsupportedSchemaVersionError } from '../errors/unsupported-schema-version-error.js';

/**
 * The promise's value, or undefined when it fails with UnsupportedSchemaVersionError: what
 * `listPending()` does with a session a newer version of agent-harness wrote, so that one such
 * session does not take every other session's approvals down with it. Other failures pass through.
 */
export async function unlessUnsupported<T>(promise: Promise<T>): Promise<T | undefined> {
  try {
    return await promise;
  } catch (error) {
    if (UnsupportedSchemaVersionError.isInstance(error)) return undefined;
    throw error;
  }
}
