import type { ToolCheckArgs, ToolDisplay } from '../../tools/types.js';
import { fileChangeDisplay, lineCount, plural, readForDisplay, unreadFileDisplay } from './display-file-change.js';
import type { WorkspaceBoundary } from './workspace-boundary.js';

/** The approval card of a Write: a unified diff against the file as it is now (or its new content, for a new file). */
export function displayWrite(boundary: WorkspaceBoundary) {
  return async ({ input }: ToolCheckArgs<{ file_path: string; content: string }>): Promise<ToolDisplay> => {
    const file = await readForDisplay(boundary, input.file_path);
    if (file.state === 'unread') {
      return unreadFileDisplay({ verb: 'Write', file, summary: `Write ${plural(lineCount(input.content), 'line')} to ${file.shown}`, body: input.content, bodyFormat: 'text' });
    }
    return fileChangeDisplay({ verb: 'Overwrite', file, after: input.content });
  };
}
