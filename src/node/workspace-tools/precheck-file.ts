import type { ToolAgentContext } from '../../tools/types.js';
import { MAX_EDITABLE_BYTES, tooLargeToEditMessage } from './max-editable-bytes.js';
import { notUtf8Message } from './not-utf8-message.js';
import { openCheckedFile } from './open-checked-file.js';
import { readOpenFile } from '../fs/read-open-file.js';
import { getReadRecord, staleMessage } from './tool-state-records.js';
import type { WorkspaceBoundary } from './workspace-boundary.js';

/** What {@link precheckFile} learned about an existing file inside the workspace. */
export type FilePrecheck =
  | { status: 'problem'; message: string }
  /** Missing, outside the workspace (not looked at before the host answers), or unresolvable. */
  | { status: 'unknown' }
  | { status: 'missing' }
  | { status: 'existing'; content: string };

/**
 * The early part of the read-before-write rule, for `validateInput`: inside the workspace, an
 * existing file must have been read and not modified since (by modification time; the content
 * hash is compared again at execute time). Paths outside the workspace are not touched here.
 * With `readContent`, the content is returned for the tool to edit, and a file that is not valid
 * UTF-8 is a problem (see {@link notUtf8Message}).
 * @param toolName - the tool that edits the content, named in that problem.
 */
export async function precheckFile(boundary: WorkspaceBoundary, agent: ToolAgentContext, input: string, readContent: boolean, toolName: string): Promise<FilePrecheck> {
  let real: string;
  try {
    const resolved = await boundary.resolve(input);
    if (!resolved.inside) return { status: 'unknown' };
    real = resolved.real;
  } catch {
    return { status: 'unknown' };
  }
  // Opened, not looked up twice by name: a file swapped for a FIFO between a stat and a read
  // would block the read for ever (the open does not block, and only a regular file is read).
  const opened = await openCheckedFile(real, 'read');
  if (!opened.ok) {
    if (opened.code === 'EISDIR') return { status: 'problem', message: `${input} is a directory, not a file.` };
    // Anything else (gone, a path below a file, swapped meanwhile) is for execution to find and report.
    return { status: 'missing' };
  }
  try {
    const stat = await opened.handle.stat();
    if (stat.isDirectory()) return { status: 'problem', message: `${input} is a directory, not a file.` };
    if (!stat.isFile()) return { status: 'problem', message: `${input} is not a regular file.` };
    if (stat.size > MAX_EDITABLE_BYTES) return { status: 'problem', message: tooLargeToEditMessage(toolName, input, stat.size) };
    const stale = staleMessage(getReadRecord(agent.toolState, real), { mtimeMs: stat.mtimeMs });
    if (stale) return { status: 'problem', message: stale };
    if (!readContent) return { status: 'existing', content: '' };
    const bytes = await readOpenFile(opened.handle, stat.size);
    const notText = notUtf8Message(toolName, input, bytes);
    if (notText !== undefined) return { status: 'problem', message: notText };
    return { status: 'existing', content: bytes.toString('utf8') };
  } finally {
    await opened.handle.close();
  }
}
