import { isToolResultBlock, isToolUseBlock, type ContentBlock } from '../model/messages.js';
import type { SessionEntrySource } from '../plan/session-entry-source.js';
import type { Todo } from '../types/todo.js';
import { validateTodos } from './validate-todos.js';
import { checkOptions, isEntrySource, isNonEmptyString, required, type OptionsSpec } from '../options/index.js';

/** The name of the todo tool, in Claude Code and here. */
const TODO_WRITE = 'TodoWrite';

/** Options of {@link recoverTodos}. */
export interface RecoverTodosOptions {
  /** The session's entries, e.g. a session store's entries or `readClaudeCodeSessionFile(path)`. Read once. */
  entries: SessionEntrySource;
  /**
   * Whose list: a subagent's id, or `undefined` for the main agent (entries of other agents are ignored).
   * @default undefined
   */
  agentId?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function newTodosOf(toolUseResult: unknown): unknown {
  if (typeof toolUseResult !== 'object' || toolUseResult === null) return undefined;
  const { newTodos } = toolUseResult as { newTodos?: unknown };
  return Array.isArray(newTodos) ? newTodos : undefined;
}

const OPTIONS: OptionsSpec<RecoverTodosOptions> = { entries: required(isEntrySource), agentId: isNonEmptyString };

/**
 * The last todo list of a session: the latest `todo-update` entry, successful `TodoWrite` call or
 * `checkpoint` (the state a fork or a resumed snapshot starts from), whichever comes last. For a call, the list Claude Code recorded on its result
 * (`toolUseResult.newTodos`) is preferred, else the call's input. Calls answered with an error,
 * calls never answered, and lists that fail validation do not count. Claude Code sessions read
 * with `readClaudeCodeSession` or `readClaudeCodeSessionFile` carry `todo-update` entries for
 * every todo tool, the task tools of 2.1.x (`TaskCreate`, `TaskUpdate`, `TaskList`) included.
 * @returns the list, or `undefined` when the session never had one.
 */
export async function recoverTodos(options: RecoverTodosOptions): Promise<Todo[] | undefined> {
  checkOptions<RecoverTodosOptions>(options, OPTIONS, { owner: 'recoverTodos', usage: 'recoverTodos({ entries })' });
  const { entries, agentId } = options;
  let latest: Todo[] | undefined;
  const calls = new Map<string, unknown>();
  const accept = (candidate: unknown): void => {
    const result = validateTodos(typeof candidate === 'object' && candidate !== null && !Array.isArray(candidate) ? candidate : { todos: candidate });
    if (result.ok) latest = result.todos;
  };

  for await (const entry of entries) {
    // Read from outside (a store, Claude Code's files, a hand-edited transcript): what is not whole is passed over.
    if (!isRecord(entry) || entry.agentId !== agentId) continue;
    if (entry.kind === 'todo-update') {
      accept({ todos: entry.todos });
      continue;
    }
    // A checkpoint seeds a fork or a resumed snapshot with the whole state, its list included,
    // with no todo-update before it. An empty list there is only news after an earlier list.
    if (entry.kind === 'checkpoint') {
      const todos = isRecord(entry.state) ? entry.state.todos : undefined;
      if (Array.isArray(todos) && (todos.length > 0 || latest !== undefined)) accept({ todos });
      continue;
    }
    if (entry.kind !== 'message' || !isRecord(entry.message) || !Array.isArray(entry.message.content)) continue;
    const blocks = (entry.message.content as unknown[]).filter(isRecord) as unknown as ContentBlock[];
    if (entry.message.role === 'assistant') {
      for (const block of blocks) {
        if (isToolUseBlock(block) && block.name === TODO_WRITE) calls.set(block.id, block.input);
      }
      continue;
    }
    for (const block of blocks) {
      if (!isToolResultBlock(block) || !calls.has(block.tool_use_id)) continue;
      const input = calls.get(block.tool_use_id);
      calls.delete(block.tool_use_id);
      if (block.is_error) continue;
      const recorded = newTodosOf(entry.toolUseResult);
      accept(recorded !== undefined ? { todos: recorded } : input);
    }
  }
  return latest;
}
