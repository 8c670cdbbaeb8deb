import type { ToolCheckArgs, ToolDisplay } from '../../tools/types.js';
import { unifiedDiff } from '../../tools/unified-diff.js';
import { fileChangeDisplay, readForDisplay, unreadFileDisplay } from './display-file-change.js';
import type { WorkspaceBoundary } from './workspace-boundary.js';

/** The Edit tool's input, as far as the card needs it. */
interface EditLike {
  file_path: string;
  old_string: string;
  new_string: string;
  replace_all?: boolean | undefined;
}

/** How the Edit tool applies an edit to a file's content (handed in: the tool's own rules, CRLF included). */
type ApplyEdit = (current: string | undefined, input: EditLike, shown: string) => { ok: true; content: string } | { ok: false };

/**
 * The approval card of an Edit: a unified diff of the whole file with the edit applied, or, when
 * the file cannot be read (outside the workspace, too large) or the edit does not apply, a diff
 * of the replaced text alone.
 */
export function displayEdit(boundary: WorkspaceBoundary, applyEdit: ApplyEdit) {
  return async ({ input }: ToolCheckArgs<EditLike>): Promise<ToolDisplay> => {
    const file = await readForDisplay(boundary, input.file_path);
    const change = file.state === 'unread' ? undefined : applyEdit(file.state === 'read' ? file.content : undefined, input, file.shown);
    if (change?.ok && file.state !== 'unread') {
      const display = fileChangeDisplay({ verb: 'Edit', file, after: change.content });
      return input.replace_all ? { ...display, summary: `Every occurrence replaced: ${display.summary}` } : display;
    }
    const fragment = unifiedDiff(input.old_string, input.new_string, { path: file.shown });
    const summary = `Replace ${input.replace_all ? 'every occurrence of ' : ''}a passage of ${file.shown}`;
    if (file.state === 'unread') return unreadFileDisplay({ verb: 'Edit', file, summary, body: fragment, bodyFormat: 'diff' });
    return { title: `Edit ${file.shown}`, summary: `${summary} (the edit does not apply to the file as it is now).`, body: fragment, bodyFormat: 'diff' };
  };
}
