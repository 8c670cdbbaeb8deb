import { z } from 'zod/v4';
import { checkOptions, isPositiveInteger, required as requiredOption, withMethods, type OptionsSpec } from '../../options/index.js';
import { MemoryAccessError } from '../../errors/memory-access-error.js';
import { builtOnFirstUse } from '../../tools/built-on-first-use.js';
import { defineTool } from '../../tools/define-tool.js';
import { toolOutput } from '../../tools/tool-output.js';
import type { Tool } from '../../tools/types.js';
import type { MemoryCommand } from './memory-commands.js';
import { MEMORY_ROOT } from './memory-path.js';
import type { MemoryStore } from './memory-store.js';

/**
 * The commands' code, loaded the first time the tool runs (its `execute` is asynchronous anyway),
 * so a browser host does not download it up front. A load that failed is forgotten: the next call
 * tries again.
 */
let commandsLoading: Promise<typeof import('./memory-commands.js')> | undefined;
const loadMemoryCommands = () =>
  (commandsLoading ??= import('./memory-commands.js').catch((error: unknown) => {
    commandsLoading = undefined;
    throw error;
  }));

/** The Messages API's type for its client-side memory tool. */
export const MEMORY_TOOL_TYPE = 'memory_20250818';
/** The name the API gives the memory tool. */
export const MEMORY_TOOL_NAME = 'memory';

/** Options of {@link memoryTool}. */
export interface MemoryToolOptions {
  /** Where the notes are kept: `memoryMemoryStore()`, `fileMemoryStore({ dir })` (node) or the host's own. */
  store: MemoryStore;
  /**
   * The largest memory file, in characters; a command that would make one larger fails.
   * @default 100_000
   */
  maxFileChars?: number;
}

const DESCRIPTION = `Your memory: a directory of files, ${MEMORY_ROOT}, that persists between sessions. Check it before starting a task; record what you learn, decisions and progress as you work, so a later session can pick up where you left off. Keep files short and organized; update or delete notes that turn out wrong.
Commands: view (a directory listing, or a file with line numbers; view_range [start, end]), create (a new file with file_text), str_replace (replace old_str, which must appear exactly once, by new_str), insert (insert_text after line insert_line; 0 inserts at the top), delete (a file or directory), rename (old_path to new_path). Every path starts with ${MEMORY_ROOT}.`;

const input = builtOnFirstUse(() =>
  z.object({
    command: z.enum(['view', 'create', 'str_replace', 'insert', 'delete', 'rename']),
    path: z.string().optional().describe(`The file or directory, under ${MEMORY_ROOT}. All commands but rename.`),
    view_range: z.array(z.number().int()).optional().describe('view: [start, end] lines of a file, end -1 for the end.'),
    file_text: z.string().optional().describe('create: the file content.'),
    old_str: z.string().optional().describe('str_replace: the exact text to replace (must appear once).'),
    new_str: z.string().optional().describe('str_replace: the replacement.'),
    insert_line: z.number().int().optional().describe('insert: the line after which to insert; 0 for the top.'),
    insert_text: z.string().optional().describe('insert: the text to insert.'),
    old_path: z.string().optional().describe('rename: the current path.'),
    new_path: z.string().optional().describe('rename: the new path.'),
  }),
);

const required: Record<MemoryCommand['command'], readonly string[]> = {
  view: ['path'],
  create: ['path', 'file_text'],
  str_replace: ['path', 'old_str', 'new_str'],
  insert: ['path', 'insert_line', 'insert_text'],
  delete: ['path'],
  rename: ['old_path', 'new_path'],
};

const MEMORY_TOOL_OPTIONS: OptionsSpec<MemoryToolOptions> = {
  store: requiredOption(withMethods('a memory store (memoryMemoryStore(), fileMemoryStore({ dir }) from agent-harness/node, or your own implementing MemoryStore)', ['stat', 'readFile', 'list', 'writeFile', 'delete', 'rename'])),
  maxFileChars: isPositiveInteger,
};

/**
 * The memory tool in the shape of the Messages API's client-side memory tool (`memory_20250818`):
 * `view`, `create`, `str_replace`, `insert`, `delete` and `rename` under `/memories`, backed by a
 * store the host chooses. Paths can never leave the memory root (see `parseMemoryPath`). The
 * Anthropic adapter sends it as the native tool, so the model gets the schema it was trained on;
 * other models see its JSON schema. `view` is read-only (runs in plan mode, without asking); the
 * other commands are edits of the store, which is not the workspace and whose notes later sessions
 * read (a note planted there outlives the session): they are asked in `acceptEdits` too, unless an
 * allow rule on the tool (`rules: { allow: ['memory'] }`) or a hook approves them.
 * @param options - the store and limits; see {@link MemoryToolOptions}.
 * @example
 * const agent = createAgent({ model, tools: [memoryTool({ store: fileMemoryStore({ dir: './memory' }) })] });
 */
export function memoryTool(options: MemoryToolOptions): Tool {
  checkOptions<MemoryToolOptions>(options, MEMORY_TOOL_OPTIONS, { owner: 'memoryTool', usage: 'memoryTool({ store: memoryMemoryStore() })' });
  const limits = { maxFileChars: options.maxFileChars ?? 100_000 };
  return defineTool({
    name: MEMORY_TOOL_NAME,
    description: DESCRIPTION,
    inputSchema: input(),
    providerType: MEMORY_TOOL_TYPE,
    kind: 'edit',
    isReadOnlyCall: (call) => call.command === 'view',
    // The notes live in the host's store, not the workspace, and later sessions read them: an
    // edit `acceptEdits` approves is one inside the workspace, so a memory write is asked unless
    // a rule (`memory`) or hook allows it.
    checkPermissions: ({ input: call }) =>
      call.command === 'view'
        ? { behavior: 'passthrough' }
        : {
            behavior: 'ask',
            message: `This ${call.command} writes the agent's memory (${call.path ?? call.new_path ?? MEMORY_ROOT}), which lies outside the workspace and is read by later sessions.`,
            suggestions: [{ type: 'addRules', behavior: 'allow', rules: [MEMORY_TOOL_NAME], destination: 'session' }],
          },
    validateInput: ({ input: call }) => {
      const missing = required[call.command].filter((field) => call[field as keyof typeof call] === undefined);
      return missing.length > 0 ? `The ${call.command} command needs ${missing.join(' and ')}.` : undefined;
    },
    execute: async ({ input: call }) => {
      const commands = await loadMemoryCommands();
      try {
        return await commands.runMemoryCommand(options.store, call as MemoryCommand, limits);
      } catch (error) {
        if (error instanceof commands.MemoryCommandFailure || MemoryAccessError.isInstance(error)) return toolOutput(`Error: ${error.message}`, { isError: true });
        throw error;
      }
    },
  });
}
