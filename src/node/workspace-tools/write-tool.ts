import { z } from 'zod';
import { defineTool } from '../../tools/define-tool.js';
import type { Tool } from '../../tools/types.js';
import { checkPathPermission } from './path-access.js';
import { precheckFile } from './precheck-file.js';
import { updateFile } from './update-file.js';
import { restoreWorkspaceFile } from './restore-file.js';
import type { WorkspaceContext } from './workspace-context.js';
import { ruleAliases } from './rule-aliases.js';
import { pathInputProblem } from './path-input-problem.js';
import { displayWrite } from './display-write.js';

const writeInput = z.strictObject({
  file_path: z.string().min(1).describe('The path of the file to write, absolute or relative to the working directory.'),
  content: z.string().describe('The complete new content of the file.'),
});

/** Input of the Write tool. */
export type WriteInput = z.infer<typeof writeInput>;

/** Creates the Write tool: creates a file (and its directories) or replaces one that was read first. */
export function createWriteTool(context: WorkspaceContext): Tool<WriteInput> {
  const { boundary } = context;
  return defineTool({
    name: 'Write',
    description: [
      'Writes a file to the local filesystem, replacing it if it exists; missing parent directories are created.',
      'An existing file must have been read with Read first (and not changed since), or the write is refused.',
      'Prefer Edit for changing part of an existing file. Do not create files that are not needed.',
      'Changes inside a .git directory, and to files with several hard links, always need the user\'s approval.',
    ].join('\n'),
    inputSchema: writeInput,
    kind: 'edit',
    readOnly: false,
    concurrencySafe: false,
    ruleTarget: { field: 'file_path', kind: 'path', aliases: (value) => ruleAliases(context.boundary, value) },
    restoreFile: restoreWorkspaceFile,
    display: displayWrite(boundary),
    async validateInput({ input, agent }) {
      const pathProblem = pathInputProblem('file_path', input.file_path);
      if (pathProblem) return pathProblem;
      const precheck = await precheckFile(boundary, agent, input.file_path, false, 'Write');
      return precheck.status === 'problem' ? precheck.message : undefined;
    },
    checkPermissions: ({ input, toolUseId, agent }) =>
      checkPathPermission({ boundary, toolName: 'Write', verb: 'writes', input: input.file_path, writes: true, toolUseId, agent }),
    execute: ({ input, toolUseId, agent }) =>
      updateFile({
        boundary,
        toolName: 'Write',
        checkpoints: context.checkpoints,
        input: input.file_path,
        toolUseId,
        agent,
        transform: (current, shown) => ({
          ok: true,
          content: input.content,
          summary: current === undefined ? `File created successfully at: ${shown}` : `The file ${shown} has been overwritten.`,
        }),
      }),
  });
}
