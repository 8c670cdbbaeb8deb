import { SessionStoreCorruptError } from '../../errors/session-store-corrupt-error.js';

/**
 * The error for a transcript path that is not a regular file (a FIFO, a socket, a device, a
 * directory): reading a FIFO would wait for a writer forever, and appending to one would hand
 * the entries to whoever reads it.
 * @param sessionId - the session.
 * @param file - the transcript's path.
 */
export function notARegularFile(sessionId: string, file: string): SessionStoreCorruptError {
  return new SessionStoreCorruptError({
    sessionId,
    location: file,
    problem: 'is not a regular file (a FIFO, a socket, a device or a directory was put in place of the transcript), so nothing was read or written',
    repair: "Put the session's transcript back as a regular file (from a backup), or delete what is there to start the session anew.",
  });
}
