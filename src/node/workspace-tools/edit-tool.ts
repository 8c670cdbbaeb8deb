import { z } from 'zod';
import { headOfText } from '../../model/code-point-boundary.js';
import { defineTool } from '../../tools/define-tool.js';
import type { Tool } from '../../tools/types.js';
import { checkPathPermission } from './path-access.js';
import { precheckFile } from './precheck-file.js';
import { updateFile, type FileTransform } from './update-file.js';
import { restoreWorkspaceFile } from './restore-file.js';
import type { WorkspaceContext } from './workspace-context.js';
import { ruleAliases } from './rule-aliases.js';
import { pathInputProblem } from './path-input-problem.js';
import { displayEdit } from './display-edit.js';

const editInput = z.strictObject({
  file_path: z.string().min(1).describe('The path of the file to modify, absolute or relative to the working directory.'),
  old_string: z.string().describe('The exact text to replace (including whitespace and indentation).'),
  new_string: z.string().describe('The text to replace it with (must differ from old_string).'),
  replace_all: z.boolean().optional().describe('Replace every occurrence of old_string (default false).'),
});

/** Input of the Edit tool. */
export type EditInput = z.infer<typeof editInput>;

function countOccurrences(text: string, search: string): number {
  return text.split(search).length - 1;
}

function preview(text: string): string {
  return text.length > 200 ? `${headOfText(text, 200)}...` : text;
}

/**
 * Applies an Edit to the current content (`undefined`: the file does not exist). When the text
 * is not found as given but the file uses CRLF line endings, the LF-written strings are tried
 * with CRLF.
 */
export function applyEdit(current: string | undefined, input: EditInput, shown: string): FileTransform {
  if (input.old_string === input.new_string) {
    return { ok: false, message: 'No changes to make: old_string and new_string are exactly the same.' };
  }
  if (current === undefined) {
    if (input.old_string !== '') return { ok: false, message: `File does not exist: ${input.file_path}. To create it, use Write (or Edit with an empty old_string).` };
    return { ok: true, content: input.new_string, summary: `File created successfully at: ${shown}` };
  }
  if (input.old_string === '') {
    if (current !== '') return { ok: false, message: 'old_string is empty but the file is not; give the text to replace, or use Write to replace the whole file.' };
    return { ok: true, content: input.new_string, summary: `The file ${shown} has been updated.` };
  }
  let oldString = input.old_string;
  let newString = input.new_string;
  let count = countOccurrences(current, oldString);
  if (count === 0 && current.includes('\r\n') && oldString.includes('\n') && !oldString.includes('\r\n')) {
    oldString = oldString.replace(/\n/g, '\r\n');
    newString = newString.replace(/\r?\n/g, '\r\n');
    count = countOccurrences(current, oldString);
  }
  if (count === 0) return { ok: false, message: `String to replace not found in file.\nString: ${preview(input.old_string)}` };
  if (count > 1 && !input.replace_all) {
    return {
      ok: false,
      message: `Found ${count} matches of the string to replace, but replace_all is false. To replace all ${count}, set replace_all to true; to replace only one, add surrounding context to old_string so it matches exactly once.\nString: ${preview(input.old_string)}`,
    };
  }
  const content = current.split(oldString).join(newString);
  const replaced = count === 1 ? '1 replacement' : `${count} replacements`;
  return { ok: true, content, summary: `The file ${shown} has been updated (${replaced}).` };
}

/** Creates the Edit tool: exact string replacement in a file that was read first. */
export function createEditTool(context: WorkspaceContext): Tool<EditInput> {
  const { boundary } = context;
  return defineTool({
    name: 'Edit',
    description: [
      'Performs an exact string replacement in a file.',
      'The file must have been read with Read first (and not changed since). Give old_string exactly as in the file, without the line-number prefix Read adds.',
      'old_string must occur exactly once unless replace_all is true; otherwise the edit fails and says how many times it occurs, so add surrounding context to make it unique.',
      'An empty old_string creates a file that does not exist yet.',
      'Only UTF-8 text files can be edited: a file in another encoding (Latin-1, say) is refused unchanged.',
      'Changes inside a .git directory, and to files with several hard links, always need the user\'s approval.',
    ].join('\n'),
    inputSchema: editInput,
    kind: 'edit',
    readOnly: false,
    concurrencySafe: false,
    ruleTarget: { field: 'file_path', kind: 'path', aliases: (value) => ruleAliases(context.boundary, value) },
    restoreFile: restoreWorkspaceFile,
    display: displayEdit(boundary, applyEdit),
    async validateInput({ input, agent }) {
      if (input.old_string === input.new_string) return 'No changes to make: old_string and new_string are exactly the same.';
      const pathProblem = pathInputProblem('file_path', input.file_path);
      if (pathProblem) return pathProblem;
      const precheck = await precheckFile(boundary, agent, input.file_path, true, 'Edit');
      if (precheck.status === 'problem') return precheck.message;
      if (precheck.status === 'unknown') return undefined;
      const change = applyEdit(precheck.status === 'existing' ? precheck.content : undefined, input, input.file_path);
      return change.ok ? undefined : change.message;
    },
    checkPermissions: ({ input, toolUseId, agent }) =>
      checkPathPermission({ boundary, toolName: 'Edit', verb: 'edits', input: input.file_path, writes: true, toolUseId, agent }),
    execute: ({ input, toolUseId, agent }) =>
      updateFile({ boundary, toolName: 'Edit', checkpoints: context.checkpoints, input: input.file_path, toolUseId, agent, editsText: true, transform: (current, shown) => applyEdit(current, input, shown) }),
  });
}
