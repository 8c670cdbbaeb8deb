/**
 * Todo lists from Claude Code's todo tools. The fixtures hold 1.0.x `TodoWrite` sessions only, so
 * the 2.1.x task tools are synthetic here, shaped as Claude Code 2.1.x publicly describes them:
 * - `TaskCreate` input `{ subject, description, activeForm?, metadata? }`; result text
 *   `Task #<id> created successfully: <subject>`; `toolUseResult: { task: { id, subject } }`.
 * - `TaskUpdate` input `{ taskId, status?: 'pending' | 'in_progress' | 'completed' | 'deleted',
 *   subject?, activeForm?, ... }`; `toolUseResult: { success, taskId, updatedFields, error?,
 *   statusChange?: { from, to } }` (`success: false` with `error: 'Task not found'`).
 * - `TaskList` input `{}`; `toolUseResult: { tasks: [{ id, subject, status, owner?, blockedBy }] }`;
 *   result text `#<id> [<status>] <subject>` per task, or `No tasks found`.
 * - `TaskGet` input `{ taskId }`; `toolUseResult: { task: { id, subject, description, status, blocks, blockedBy } | null }`.
 * Ids are strings counting up from "1" per task list.
 */
import { describe, expect, it } from 'vitest';
import { readClaudeCodeSession } from '../../../src/interop/claude-code/read-claude-code-session.js';
import type { SessionEntry, TodoUpdateEntry } from '../../../src/state/entries.js';
import { recoverTodos } from '../../../src/todos/recover-todos.js';
import type { Todo } from '../../../src/types/todo.js';
import { validateTodos } from '../../../src/todos/validate-todos.js';
import { assistant, call, result, toolUse, user } from './claude-code-lines.js';

async function read(lines: string[]) {
  const entries: SessionEntry[] = [];
  for await (const entry of readClaudeCodeSession(lines.join('\n'))) entries.push(entry);
  return entries;
}

const updates = (entries: SessionEntry[]) => entries.filter((entry): entry is TodoUpdateEntry => entry.kind === 'todo-update').map((entry) => entry.todos);

const create = (subject: string, id: string, activeForm?: string) =>
  call('TaskCreate', { subject, description: `Details of ${subject}`, ...(activeForm ? { activeForm } : {}) }, `Task #${id} created successfully: ${subject}`, {
    toolUseResult: { task: { id, subject } },
  });
const update = (taskId: string, change: Record<string, unknown>, toolUseResult: unknown = { success: true, taskId, updatedFields: Object.keys(change) }) =>
  call('TaskUpdate', { taskId, ...change }, `Updated task #${taskId} ${Object.keys(change).join(', ')}`, { toolUseResult });

describe('todo tools of Claude Code sessions', () => {
  it('replays TaskCreate and TaskUpdate into the todo list, one todo-update after each change', async () => {
    const entries = await read([
      user('Add a login page'),
      ...create('Write the login form', '1', 'Writing the login form'),
      ...create('Add tests', '2'),
      ...update('1', { status: 'in_progress' }),
      ...update('1', { status: 'completed' }),
      ...update('2', { status: 'in_progress', subject: 'Add form tests' }),
    ]);
    expect(updates(entries)).toEqual([
      [{ content: 'Write the login form', status: 'pending', activeForm: 'Writing the login form' }],
      [
        { content: 'Write the login form', status: 'pending', activeForm: 'Writing the login form' },
        // No activeForm given: derived from the subject, as the library's own todos would be.
        { content: 'Add tests', status: 'pending', activeForm: 'Adding tests' },
      ],
      [
        { content: 'Write the login form', status: 'in_progress', activeForm: 'Writing the login form' },
        { content: 'Add tests', status: 'pending', activeForm: 'Adding tests' },
      ],
      [
        { content: 'Write the login form', status: 'completed', activeForm: 'Writing the login form' },
        { content: 'Add tests', status: 'pending', activeForm: 'Adding tests' },
      ],
      [
        { content: 'Write the login form', status: 'completed', activeForm: 'Writing the login form' },
        { content: 'Add form tests', status: 'in_progress', activeForm: 'Adding tests' },
      ],
    ]);
    // Each list is a valid TodoWrite list, and follows the result it came from.
    for (const todos of updates(entries)) expect(validateTodos({ todos }).ok).toBe(true);
    const index = entries.findIndex((entry) => entry.kind === 'todo-update');
    expect(entries[index - 1]).toMatchObject({ kind: 'message', message: { role: 'user' } });
    expect(entries[index]?.parentId).toBe(entries[index - 1]?.id);
  });

  it('recovers the list of a task-tool session (it used to find nothing)', async () => {
    const lines = [user('go'), ...create('Draft the intro', '1'), ...create('Cite sources', '2'), ...update('1', { status: 'completed' })];
    expect(await recoverTodos({ entries: readClaudeCodeSession(lines.join('\n')) })).toEqual([
      { content: 'Draft the intro', status: 'completed', activeForm: 'Drafting the intro' },
      { content: 'Cite sources', status: 'pending', activeForm: 'Citing sources' },
    ]);
  });

  it('deletes with status "deleted", and ignores failed, rejected and unanswered calls', async () => {
    const [unansweredCall] = create('Never answered', '9');
    const entries = await read([
      ...create('Keep me', '1'),
      ...create('Drop me', '2'),
      ...update('2', { status: 'deleted' }, { success: true, taskId: '2', updatedFields: ['deleted'], statusChange: { from: 'pending', to: 'deleted' } }),
      ...update('7', { status: 'completed' }, { success: false, taskId: '7', updatedFields: [], error: 'Task not found' }),
      ...call('TaskCreate', { subject: 'Rejected', description: 'x' }, "The user doesn't want to proceed with this tool use.", { isError: true }),
      ...update('1', { status: 'completed' }, { success: false, taskId: '1', updatedFields: [], error: 'A hook blocked completion' }),
      unansweredCall!,
    ]);
    expect(updates(entries).at(-1)).toEqual([{ content: 'Keep me', status: 'pending', activeForm: 'Working on: Keep me' }]);
    expect(updates(entries)).toHaveLength(3);
  });

  it('takes TaskList and TaskGet as what is stored, keeping the active forms it knows', async () => {
    const entries = await read([
      ...create('Run the tests', '1', 'Running the tests'),
      ...call('TaskList', {}, '#1 [in_progress] Run the tests\n#3 [pending] Made by a teammate', {
        toolUseResult: {
          tasks: [
            { id: '1', subject: 'Run the tests', status: 'in_progress', blockedBy: [] },
            { id: '3', subject: 'Made by a teammate', status: 'pending', owner: 'researcher', blockedBy: ['1'] },
          ],
        },
      }),
      ...call('TaskGet', { taskId: '3' }, 'Task #3: Made by a teammate\nStatus: completed', {
        toolUseResult: { task: { id: '3', subject: 'Made by a teammate', description: '', status: 'completed', blocks: [], blockedBy: [] } },
      }),
      ...call('TaskList', {}, 'No tasks found', { toolUseResult: { tasks: [] } }),
    ]);
    expect(updates(entries)).toEqual([
      [{ content: 'Run the tests', status: 'pending', activeForm: 'Running the tests' }],
      [
        { content: 'Run the tests', status: 'in_progress', activeForm: 'Running the tests' },
        { content: 'Made by a teammate', status: 'pending', activeForm: 'Working on: Made by a teammate' },
      ],
      [
        { content: 'Run the tests', status: 'in_progress', activeForm: 'Running the tests' },
        { content: 'Made by a teammate', status: 'completed', activeForm: 'Working on: Made by a teammate' },
      ],
      [],
    ]);
  });

  it('reads inputs sent as JSON strings, ids as numbers, and ids from the result text when toolUseResult is missing', async () => {
    const entries = await read([
      ...call('TaskCreate', JSON.stringify({ subject: 'Fix the bug', description: 'x' }), 'Task #4 created successfully: Fix the bug'),
      ...call('TaskUpdate', JSON.stringify({ taskId: 4, status: 'in_progress' }), 'Updated task #4 status'),
    ]);
    expect(updates(entries).at(-1)).toEqual([{ content: 'Fix the bug', status: 'in_progress', activeForm: 'Fixing the bug' }]);
    // The stored message carries the input as an object, as the Messages API wants it back.
    const message = entries.find((entry) => entry.kind === 'message' && entry.message.role === 'assistant');
    expect(message).toMatchObject({ message: { content: [{ type: 'tool_use', name: 'TaskCreate', input: { subject: 'Fix the bug' } }] } });
  });

  it('numbers tasks itself when neither the result nor its text gives an id', async () => {
    const entries = await read([...call('TaskCreate', { subject: 'One', description: '' }, 'ok'), ...call('TaskCreate', { subject: 'Two', description: '' }, 'ok'), ...update('2', { status: 'completed' })]);
    expect(updates(entries).at(-1)?.map((todo) => [todo.content, todo.status])).toEqual([
      ['One', 'pending'],
      ['Two', 'completed'],
    ]);
  });

  it('skips hidden tasks (metadata._internal) and updates of tasks made before the session without a subject', async () => {
    const entries = await read([
      ...call('TaskCreate', { subject: 'Internal', description: '', metadata: { _internal: true } }, 'Task #1 created successfully: Internal', { toolUseResult: { task: { id: '1', subject: 'Internal' } } }),
      ...update('1', { status: 'completed' }),
    ]);
    expect(updates(entries)).toEqual([]);
  });

  it('turns TodoWrite results into todo-update entries: newTodos first, early lists without activeForm too', async () => {
    const todos: Todo[] = [{ content: 'Read the code', status: 'in_progress', activeForm: 'Reading the code' }];
    const entries = await read([
      ...call('TodoWrite', { todos: [{ content: 'as sent', status: 'pending', activeForm: 'x' }] }, 'Todos have been modified successfully.', { toolUseResult: { oldTodos: [], newTodos: todos } }),
      // Claude Code 1.0.x before activeForm: items { id, content, status, priority }.
      ...call('TodoWrite', { todos: [{ id: '1', content: 'Check the build', status: 'pending', priority: 'high' }] }, 'Todos have been modified successfully.'),
      ...call('TodoWrite', { todos: [{ content: 'bad', status: 'done', activeForm: 'x' }] }, 'Todos have been modified successfully.'),
      ...call('TodoWrite', { todos: JSON.stringify([{ content: 'From a string', status: 'completed', activeForm: 'Stringing' }]) }, 'ok'),
    ]);
    expect(updates(entries)).toEqual([
      todos,
      [{ content: 'Check the build', status: 'pending', activeForm: 'Checking the build' }],
      [{ content: 'From a string', status: 'completed', activeForm: 'Stringing' }],
    ]);
  });

  it("keeps a subagent's list apart from the main agent's", async () => {
    const sub = { isSidechain: true, agentId: 'a1b2c3d' };
    const entries = await read([
      ...create('Main task', '1'),
      assistant('msg_sub', toolUse('toolu_sub', 'TaskCreate', { subject: 'Sub task', description: '' }), sub),
      result('toolu_sub', 'Task #1 created successfully: Sub task', { toolUseResult: { task: { id: '1', subject: 'Sub task' } }, extra: sub }),
    ]);
    expect(await recoverTodos({ entries })).toEqual([{ content: 'Main task', status: 'pending', activeForm: 'Working on: Main task' }]);
    expect(await recoverTodos({ entries, agentId: 'a1b2c3d' })).toEqual([{ content: 'Sub task', status: 'pending', activeForm: 'Working on: Sub task' }]);
  });

  it('emits nothing when a call changes nothing (a TaskList repeating the list)', async () => {
    const entries = await read([
      ...create('Only', '1'),
      ...call('TaskList', {}, '#1 [pending] Only', { toolUseResult: { tasks: [{ id: '1', subject: 'Only', status: 'pending', blockedBy: [] }] } }),
    ]);
    expect(updates(entries)).toHaveLength(1);
  });
});
