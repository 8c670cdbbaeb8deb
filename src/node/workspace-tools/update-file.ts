import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { toolOutput } from '../../tools/tool-output.js';
import type { ToolAgentContext, ToolOutput } from '../../tools/types.js';
import { dropFileCheckpoints, recordFileCheckpoint } from '../../tools/file-checkpoints.js';
import type { WorkspaceContext } from './workspace-context.js';
import { makeDirectories } from './make-directories.js';
import { MAX_EDITABLE_BYTES, tooLargeToEditMessage } from './max-editable-bytes.js';
import { notUtf8Message } from './not-utf8-message.js';
import { openCheckedFile } from './open-checked-file.js';
import { readOpenFile } from '../fs/read-open-file.js';
import { writeOverFile } from './replace-file.js';
import { authorizePath } from './path-access.js';
import { sha256 } from './read-file-window.js';
import { getReadRecord, setReadRecord, staleMessage } from './tool-state-records.js';
import { resolveRealPath, type WorkspaceBoundary } from './workspace-boundary.js';

/** What a tool wants written: new content and a sentence for the model, or a problem. */
export type FileTransform =
  | { ok: true; content: string; summary: string }
  | { ok: false; message: string };

/** The argument of {@link updateFile}. */
export interface UpdateFileArgs {
  boundary: WorkspaceBoundary;
  /** The tool writing (it restores the file on `rewindFiles`). */
  toolName: string;
  /** Bounds of the checkpoint kept before the write; `false` keeps none. */
  checkpoints: WorkspaceContext['checkpoints'];
  /** The path as the model gave it. */
  input: string;
  toolUseId: string;
  agent: ToolAgentContext;
  /**
   * The transform edits the current text (Edit): a file that is not valid UTF-8 is refused, since
   * decoding and encoding it again would change bytes the edit does not touch (see
   * {@link notUtf8Message}). Write, which replaces the whole content, leaves it `false`.
   * @default false
   */
  editsText?: boolean;
  /**
   * Computes the new content from the current one (`undefined` when the file does not exist).
   * `displayPath` is how the result should name the file.
   */
  transform: (current: string | undefined, displayPath: string) => FileTransform;
}

/** Replaces a file's content through an open handle. */
export async function writeAll(handle: FileHandle, data: Buffer): Promise<void> {
  await handle.truncate(0);
  let offset = 0;
  while (offset < data.length) {
    const { bytesWritten } = await handle.write(data, offset, data.length - offset, offset);
    offset += bytesWritten;
  }
}

/**
 * Keeps what the file was (its bytes, or that it did not exist) for `rewindFiles`, stored with the
 * session before the file changes: a kill -9 right after the write still leaves a change
 * `rewindFiles` can undo. A store that fails the append fails the call, and the file is not written.
 * @returns the checkpoint's id, `undefined` when none is kept.
 */
async function keepCheckpoint(args: UpdateFileArgs, real: string, before: Buffer | null): Promise<number | undefined> {
  if (args.checkpoints === false) return undefined;
  const id = recordFileCheckpoint(
    args.agent.toolState,
    {
      toolUseId: args.toolUseId,
      toolName: args.toolName,
      path: real,
      before: before === null ? null : { base64: before.byteLength <= args.checkpoints.maxFileBytes ? before.toString('base64') : '', bytes: before.byteLength },
    },
    args.checkpoints,
  );
  await args.agent.toolState.flush?.();
  return id;
}

/** Takes back a checkpoint whose change did not happen (see {@link createNew}). */
async function withdrawCheckpoint(args: UpdateFileArgs, id: number | undefined): Promise<void> {
  if (id === undefined) return;
  dropFileCheckpoints(args.agent.toolState, [id]);
  await args.agent.toolState.flush?.();
}

/**
 * Writes the new content over the file opened (see `writeOverFile`): as a new file that replaces
 * it at once, so a crash or kill -9 mid-write leaves the old content or the new, never a truncated
 * file; in place through the open handle where it must be.
 */
async function finishWrite(handle: FileHandle, args: UpdateFileArgs, real: string, content: string, before: Buffer | null): Promise<void> {
  if (before !== null) await keepCheckpoint(args, real, before);
  const data = Buffer.from(content, 'utf8');
  const written = await writeOverFile(real, data, await handle.stat(), async () => {
    await writeAll(handle, data);
    await handle.sync();
    return handle.stat();
  });
  setReadRecord(args.agent.toolState, real, { mtimeMs: written.mtimeMs, sha256: sha256(data) });
}

async function updateExisting(args: UpdateFileArgs, real: string, handle: FileHandle): Promise<ToolOutput> {
  const stat = await handle.stat();
  if (!stat.isFile()) return toolOutput(`${args.input} is not a regular file.`, { isError: true });
  // Checked before reading: the whole file is held in memory below.
  if (stat.size > MAX_EDITABLE_BYTES) return toolOutput(tooLargeToEditMessage(args.toolName, args.input, stat.size), { isError: true });
  const bytes = await readOpenFile(handle, stat.size);
  const stale = staleMessage(getReadRecord(args.agent.toolState, real), { mtimeMs: stat.mtimeMs, sha256: sha256(bytes) });
  if (stale) return toolOutput(stale, { isError: true });
  const shown = args.boundary.display(real);
  const notText = args.editsText === true ? notUtf8Message(args.toolName, shown, bytes) : undefined;
  if (notText !== undefined) return toolOutput(notText, { isError: true });
  const change = args.transform(bytes.toString('utf8'), shown);
  if (!change.ok) return toolOutput(change.message, { isError: true });
  await finishWrite(handle, args, real, change.content, bytes);
  return toolOutput(change.summary);
}

async function createNew(args: UpdateFileArgs, real: string): Promise<ToolOutput> {
  const change = args.transform(undefined, args.boundary.display(real));
  if (!change.ok) return toolOutput(change.message, { isError: true });
  try {
    await makeDirectories(path.dirname(real), args.input);
  } catch (error) {
    return toolOutput(`Cannot create the directory of ${args.input}: ${error instanceof Error ? error.message : String(error)}`, { isError: true });
  }
  // The directories just created must still lead where the path was authorized to go.
  if ((await resolveRealPath(real)) !== real) {
    return toolOutput(`Refused: the directories of ${args.input} changed while it was being created.`, { isError: true });
  }
  // "It did not exist" is stored before the file is created: a kill -9 at any point after leaves
  // a file a rewind removes, never one it cannot see (a rewind that finds no file there is done).
  const checkpoint = await keepCheckpoint(args, real, null);
  const opened = await openCheckedFile(real, 'create');
  if (!opened.ok) {
    // Nothing was created, so the record goes: a rewind must not remove someone else's file.
    await withdrawCheckpoint(args, checkpoint);
    const message = opened.code === 'EEXIST' ? `${args.input} was created by someone else meanwhile. Read it first before writing to it.` : opened.message;
    return toolOutput(message, { isError: true });
  }
  try {
    await finishWrite(opened.handle, args, real, change.content, null);
  } finally {
    await opened.handle.close();
  }
  return toolOutput(change.summary);
}

/**
 * Writes a file the safe way, for Write and Edit: re-authorizes the path, opens it without
 * following a last-component symbolic link and checks what was opened, requires a current read
 * record for an existing file (same modification time and content hash), writes the new content
 * as a new file that replaces it at once (see `finishWrite`), and records the new version so the
 * next edit needs no new read.
 */
export async function updateFile(args: UpdateFileArgs): Promise<ToolOutput> {
  const authorization = await authorizePath({ boundary: args.boundary, input: args.input, writes: true, toolUseId: args.toolUseId, agent: args.agent });
  if (!authorization.ok) return toolOutput(authorization.message, { isError: true });
  const { real } = authorization.resolved;
  const opened = await openCheckedFile(real, 'update');
  if (opened.ok) {
    try {
      return await updateExisting(args, real, opened.handle);
    } finally {
      await opened.handle.close();
    }
  }
  if (opened.code === 'ENOENT') return createNew(args, real);
  if (opened.code === 'EISDIR') return toolOutput(`${args.input} is a directory.`, { isError: true });
  return toolOutput(opened.message, { isError: true });
}
