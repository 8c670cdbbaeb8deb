import { z } from 'zod';
import { defineTool } from '../../tools/define-tool.js';
import { toolOutput } from '../../tools/tool-output.js';
import type { Tool } from '../../tools/types.js';
import { openCheckedFile } from './open-checked-file.js';
import { authorizePath, checkPathPermission } from './path-access.js';
import { readFileWindow } from './read-file-window.js';
import { setReadRecord } from './tool-state-records.js';
import type { WorkspaceContext } from './workspace-context.js';
import { ruleAliases } from './rule-aliases.js';
import { pathInputProblem } from './path-input-problem.js';
import { MAX_EDITABLE_BYTES } from './max-editable-bytes.js';

const MAX_LINE_CHARS = 2000;
/** The Messages API accepts images up to 5 MB base64-encoded, about 3.75 MB of bytes. */
const MAX_IMAGE_BYTES = 3_750_000;

const readInput = z.strictObject({
  file_path: z.string().min(1).describe('The path of the file to read, absolute or relative to the working directory.'),
  offset: z.number().int().nonnegative().optional().describe('The line number to start reading from (1-based). Only give it for files too large to read at once.'),
  limit: z.number().int().positive().optional().describe('The number of lines to read. Only give it for files too large to read at once.'),
});

/** Input of the Read tool. */
export type ReadInput = z.infer<typeof readInput>;

function formatLines(lines: string[], firstLine: number): string {
  return lines.map((line, index) => `${String(firstLine + index).padStart(6)}\t${line}`).join('\n');
}

/** Creates the Read tool: numbered lines of a text file, or an image; refuses other binary files. */
export function createReadTool(context: WorkspaceContext): Tool<ReadInput> {
  const { boundary } = context;
  return defineTool({
    name: 'Read',
    description: [
      'Reads a file from the local filesystem and returns its lines numbered like `cat -n` (number, tab, line).',
      `By default it returns up to ${context.maxReadLines} lines from the start of the file and at most ${context.maxReadBytes} bytes; for longer files the result says where to continue, with \`offset\` and \`limit\`.`,
      `Lines longer than ${MAX_LINE_CHARS} characters are cut. PNG, JPEG, GIF and WebP images are returned as images; other binary files are refused.`,
      'Read a file before editing or overwriting it with Edit or Write. Use Glob to find files and Grep to search their contents.',
    ].join('\n'),
    inputSchema: readInput,
    kind: 'read',
    readOnly: true,
    concurrencySafe: true,
    ruleTarget: { field: 'file_path', kind: 'path', aliases: (value) => ruleAliases(context.boundary, value) },
    validateInput: ({ input }) => pathInputProblem('file_path', input.file_path),
    checkPermissions: ({ input, toolUseId, agent }) =>
      checkPathPermission({ boundary, toolName: 'Read', verb: 'reads', input: input.file_path, toolUseId, agent }),
    async execute({ input, toolUseId, agent, signal }) {
      const authorization = await authorizePath({ boundary, input: input.file_path, toolUseId, agent });
      if (!authorization.ok) return toolOutput(authorization.message, { isError: true });
      const { real } = authorization.resolved;
      const opened = await openCheckedFile(real, 'read');
      if (!opened.ok) {
        const message = opened.code === 'ENOENT' ? `File does not exist: ${input.file_path}` : opened.message;
        return toolOutput(message, { isError: true });
      }
      const { handle } = opened;
      try {
        const stat = await handle.stat();
        if (stat.isDirectory()) return toolOutput(`${input.file_path} is a directory; use Glob (or Bash ls) to list it.`, { isError: true });
        if (!stat.isFile()) return toolOutput(`${input.file_path} is not a regular file; Read only reads files.`, { isError: true });
        const startLine = Math.max(1, input.offset ?? 1);
        const window = await readFileWindow(handle, {
          startLine,
          maxLines: input.limit ?? context.maxReadLines,
          maxBytes: context.maxReadBytes,
          maxLineChars: MAX_LINE_CHARS,
          maxImageBytes: MAX_IMAGE_BYTES,
          maxWholeBytes: MAX_EDITABLE_BYTES,
          knownSize: stat.size,
          signal,
        }).catch((error: unknown) => {
          if (signal.aborted) return undefined;
          throw error;
        });
        if (window === undefined) return toolOutput(`Reading ${input.file_path} was interrupted.`, { isError: true });
        // Only what was read whole counts as read (Edit and Write compare against it).
        if (window.sha256 !== undefined) setReadRecord(agent.toolState, real, { mtimeMs: stat.mtimeMs, sha256: window.sha256 });
        const shown = boundary.display(real);
        if (window.image) {
          if (!window.image.data) {
            return toolOutput(`${shown} is an image of ${stat.size} bytes, larger than the ${MAX_IMAGE_BYTES} bytes Read returns.`, { isError: true });
          }
          return [{ type: 'image', source: { type: 'base64', media_type: window.image.mediaType, data: window.image.data.toString('base64') } }];
        }
        if (window.binary) {
          return toolOutput(
            `${shown} is a binary file (${stat.size} bytes); Read only returns text and PNG, JPEG, GIF or WebP images. Inspect it with Bash (e.g. \`file\` or \`od\`) instead.`,
            { isError: true },
          );
        }
        if (window.totalLines === 0) return `(${shown} exists but is empty.)`;
        if (window.lines.length === 0) {
          return `(${shown} has ${window.totalLines} lines; offset ${startLine} is past the end.)`;
        }
        const lastLine = startLine + window.lines.length - 1;
        let text = formatLines(window.lines, startLine);
        if (window.partial) {
          text += `\n\n[Showing lines ${startLine}-${lastLine} of a file of ${stat.size} bytes; it is too large to read whole (more than ${MAX_EDITABLE_BYTES} bytes), so its lines were not counted. Continue with offset=${lastLine + 1}. Edit and Write refuse a file this large; change it with Bash.]`;
        } else if (lastLine < window.totalLines) {
          const why = window.stoppedByBytes ? `the ${context.maxReadBytes}-byte limit of one read` : 'the line limit';
          text += `\n\n[Showing lines ${startLine}-${lastLine} of ${window.totalLines} (stopped at ${why}). Continue with offset=${lastLine + 1}.]`;
        }
        if (window.notUtf8) {
          text += `\n\n[${shown} is not valid UTF-8 (Latin-1 or another encoding?): bytes that are not were shown as \uFFFD. Edit refuses such a file; change it with Bash in its own encoding, or Write the whole file as UTF-8.]`;
        }
        return text;
      } finally {
        await handle.close();
      }
    },
  });
}
