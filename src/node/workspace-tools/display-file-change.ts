import type { ToolDisplay } from '../../types/tool-display.js';
import { unifiedDiff } from '../../tools/unified-diff.js';
import { openCheckedFile } from './open-checked-file.js';
import { readOpenFile } from '../fs/read-open-file.js';
import type { WorkspaceBoundary } from './workspace-boundary.js';

/** Files larger than this are not read for an approval card (the card says so). */
export const MAX_DISPLAY_FILE_BYTES = 256 * 1024;
/** A diff longer than this is cut (at a line) for the card. */
const MAX_DIFF_CHARS = 100_000;

/** A file's current content as an approval card may show it. */
export type DisplayedFile =
  | { state: 'missing'; shown: string }
  | { state: 'read'; shown: string; content: string }
  /** Not read: outside the workspace (not opened before the host answers), too large, not text, or unreadable. */
  | { state: 'unread'; shown: string; why: string };

/**
 * Reads a file for an approval card: only inside the workspace (a path outside is not opened
 * before the host answers), only a regular text file up to {@link MAX_DISPLAY_FILE_BYTES}, and
 * without blocking on a FIFO or following a last symbolic link.
 */
export async function readForDisplay(boundary: WorkspaceBoundary, input: string): Promise<DisplayedFile> {
  let resolved;
  try {
    resolved = await boundary.resolve(input);
  } catch {
    return { state: 'unread', shown: input, why: 'its path could not be resolved' };
  }
  const shown = boundary.display(resolved.lexical);
  if (!resolved.inside) return { state: 'unread', shown, why: 'it is outside the workspace' };
  const opened = await openCheckedFile(resolved.real, 'read');
  if (!opened.ok) return opened.code === 'ENOENT' ? { state: 'missing', shown } : { state: 'unread', shown, why: `it could not be opened (${opened.code})` };
  try {
    const stat = await opened.handle.stat();
    if (!stat.isFile()) return { state: 'unread', shown, why: 'it is not a regular file' };
    if (stat.size > MAX_DISPLAY_FILE_BYTES) return { state: 'unread', shown, why: `it is larger than ${MAX_DISPLAY_FILE_BYTES / 1024} KiB` };
    const content = (await readOpenFile(opened.handle, stat.size)).toString('utf8');
    if (content.includes('\0')) return { state: 'unread', shown, why: 'it is not a text file' };
    return { state: 'read', shown, content };
  } finally {
    await opened.handle.close().catch(() => undefined);
  }
}

/** `1 line`, `3 lines`. */
export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** Lines of a text, a last line without a line break included. */
export function lineCount(text: string): number {
  return text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

function cut(diff: string): { body: string; cut: boolean } {
  if (diff.length <= MAX_DIFF_CHARS) return { body: diff, cut: false };
  const end = diff.lastIndexOf('\n', MAX_DIFF_CHARS - 1);
  return { body: diff.slice(0, end + 1), cut: true };
}

/** What changes in a file, for an approval card: a unified diff, the lines added and removed, and before/after. */
export function fileChangeDisplay(options: { verb: string; file: DisplayedFile; after: string }): ToolDisplay {
  const { verb, file, after } = options;
  const before = file.state === 'read' ? file.content : null;
  const diff = unifiedDiff(before, after, { path: file.shown });
  const lines = diff.split('\n');
  const added = lines.filter((line) => line.startsWith('+') && !line.startsWith('+++ ')).length;
  const removed = lines.filter((line) => line.startsWith('-') && !line.startsWith('--- ')).length;
  const { body, cut: shortened } = cut(diff);
  const counts = `${plural(removed, 'line')} removed, ${plural(added, 'line')} added`;
  const change = file.state === 'missing' ? `A new file of ${plural(lineCount(after), 'line')}` : diff === '' ? 'No change' : verb === 'Overwrite' ? `Replaces the whole file: ${counts}` : counts;
  const small = after.length <= MAX_DISPLAY_FILE_BYTES;
  return {
    title: `${file.state === 'missing' ? 'Create' : verb} ${file.shown}`,
    summary: `${change}${shortened ? ' (the diff below is shortened)' : ''}.`,
    body,
    bodyFormat: 'diff',
    ...(small ? { file: { path: file.shown, before, after } } : {}),
  };
}

/** For a file that was not read: what is known without it. */
export function unreadFileDisplay(options: { verb: string; file: Extract<DisplayedFile, { state: 'unread' }>; summary: string; body: string; bodyFormat: 'diff' | 'text' }): ToolDisplay {
  const outside = options.file.why === 'it is outside the workspace';
  return {
    title: `${options.verb} ${options.file.shown}${outside ? ' (outside the workspace)' : ''}`,
    summary: `${options.summary}; its current content was not read because ${options.file.why}.`,
    body: cut(options.body).body,
    bodyFormat: options.bodyFormat,
  };
}

