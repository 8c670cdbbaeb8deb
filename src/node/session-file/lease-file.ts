import { readWithoutWaiting } from './read-without-waiting.js';
import { writeFileAtomically } from '../fs/write-file-atomically.js';
import { ConfigurationError } from '../../errors/configuration-error.js';
import { SessionStoreCorruptError } from '../../errors/session-store-corrupt-error.js';
import type { LeaseRecord } from '../../session/lease-rules.js';

/** The lease file format version this build writes and reads. */
const LEASE_FILE_VERSION = 1;

/** What a lease file holds: the session's lease, or the last one (its token stays used). */
interface LeaseFileContent extends LeaseRecord {
  $schemaVersion: number;
  sessionId: string;
}

function corrupt(sessionId: string, file: string, problem: string): SessionStoreCorruptError {
  return new SessionStoreCorruptError({
    sessionId,
    location: file,
    problem,
    repair:
      'Lease files are replaced whole (written aside, then renamed), so this is damage from outside. Stop every worker of this session, then delete the file: ' +
      'the next lease starts again at fencing token 1.',
  });
}

/**
 * Reads a session's lease file; undefined when there is none.
 * @throws SessionStoreCorruptError when the file is not a lease this build reads.
 * @throws ConfigurationError when it is another session's lease (a name that differs only in case).
 */
export async function readLeaseFile(file: string, sessionId: string): Promise<LeaseRecord | undefined> {
  let text: string;
  try {
    const read = await readWithoutWaiting(file);
    if (read === 'not-a-file') throw corrupt(sessionId, file, 'is not a regular file (a FIFO, a socket, a device or a directory holds its name)');
    text = read;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
    throw error;
  }
  let value: Partial<LeaseFileContent>;
  try {
    value = JSON.parse(text) as Partial<LeaseFileContent>;
  } catch {
    throw corrupt(sessionId, file, 'is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || value.$schemaVersion !== LEASE_FILE_VERSION) {
    throw corrupt(sessionId, file, `is not a lease file of $schemaVersion ${LEASE_FILE_VERSION}`);
  }
  // Another session's lease: on a case-insensitive file system (macOS, Windows) `Abc.jsonl.lease`
  // opens `abc.jsonl.lease`, and the two sessions would share one lease (one blocking the other,
  // taking over the other's fencing tokens). The file names its owner, as every lease file has.
  if (typeof value.sessionId === 'string' && value.sessionId !== sessionId) {
    throw new ConfigurationError(
      `The lease file of session "${sessionId}", ${file}, holds the lease of session "${value.sessionId}": another session's name (one that differs only in letter case on a case-insensitive file system, or a link). ` +
        'Nothing was read or written. Use session ids that differ in more than letter case (e.g. generated ids, or lower-case ones), and no links between lease files.',
    );
  }
  const { holder, fencingToken, expiresAt } = value;
  if (typeof holder !== 'string' || !Number.isSafeInteger(fencingToken) || (fencingToken as number) < 1 || typeof expiresAt !== 'number' || !Number.isFinite(expiresAt)) {
    throw corrupt(sessionId, file, 'lacks a holder, a positive integer fencingToken or a numeric expiresAt');
  }
  return { holder, fencingToken: fencingToken as number, expiresAt };
}

/**
 * Replaces a session's lease file atomically: the new content is written to a temporary file
 * beside it (flushed to disk with `fsync`), then renamed over it, so a reader sees the old lease
 * or the new one, never a mix. Callers hold the session's lock: only one writer at a time.
 */
export async function writeLeaseFile(file: string, sessionId: string, record: LeaseRecord, fsync: boolean): Promise<void> {
  const content: LeaseFileContent = { $schemaVersion: LEASE_FILE_VERSION, sessionId, ...record };
  await writeFileAtomically(file, `${JSON.stringify(content)}\n`, { fsync });
}
