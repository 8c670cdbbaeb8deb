import { isToolResultBlock, isToolUseBlock, type ContentBlock } from '../../model/messages.js';
import { toActiveForm } from '../../todos/active-form.js';
import type { Todo, TodoStatus } from '../../types/todo.js';
import { isRecord, type JsonRecord } from './claude-code-line-fields.js';
import { TASK_CREATE, TASK_GET, TASK_LIST, TASK_UPDATE, TODO_TOOLS, TODO_WRITE, toolInputObject } from './claude-code-tools.js';

const STATUSES: ReadonlySet<string> = new Set<TodoStatus>(['pending', 'in_progress', 'completed']);

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim().length > 0 ? value : undefined;
}

/** A task or todo id as Claude Code writes it: a string (`"3"`), or a number the model sent. */
function taskId(value: unknown): string | undefined {
  if (typeof value === 'string' && value.length > 0 && value.length <= 200) return value;
  return typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : undefined;
}

/** One todo item, leniently: `activeForm` (absent in early 1.0.x lists) is derived from the content. */
function todoOf(value: unknown): Todo | undefined {
  if (!isRecord(value)) return undefined;
  const content = text(value.content);
  if (content === undefined || typeof value.status !== 'string' || !STATUSES.has(value.status)) return undefined;
  return { content, status: value.status as TodoStatus, activeForm: text(value.activeForm) ?? toActiveForm(content) };
}

/** A whole `TodoWrite` list (also when the model sent it as a JSON string), or undefined if any item is bad. */
function todoListOf(value: unknown): Todo[] | undefined {
  let list = value;
  if (typeof list === 'string') {
    try {
      list = JSON.parse(list);
    } catch {
      return undefined;
    }
  }
  if (!Array.isArray(list)) return undefined;
  const todos: Todo[] = [];
  for (const item of list) {
    const todo = todoOf(item);
    if (todo === undefined) return undefined;
    todos.push(todo);
  }
  return todos;
}

function resultText(block: ContentBlock): string {
  const { content } = block as { content?: unknown };
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : '')).join('\n');
}

interface Call {
  name: string;
  input: JsonRecord | undefined;
}

/**
 * Replays one thread's todo tools into its todo list: `TodoWrite` (the whole list, preferring
 * the `newTodos` Claude Code recorded on the result) and the task tools of 2.1.x — `TaskCreate`
 * adds a pending item, `TaskUpdate` changes its status, subject or active form or deletes it,
 * `TaskList` and `TaskGet` report the stored tasks. A call counts once its result arrives without
 * an error; the list is in task id order. Memory: the unanswered todo calls and the tasks.
 */
export class ClaudeCodeTodoReplay {
  private readonly calls = new Map<string, Call>();
  private readonly tasks = new Map<string, Todo>();
  private lastList: string | undefined;

  /** Notes the todo tool calls of an assistant message. */
  noteCalls(content: ContentBlock[]): void {
    for (const block of content) {
      if (isToolUseBlock(block) && TODO_TOOLS.has(block.name)) this.calls.set(block.id, { name: block.name, input: toolInputObject(block.input) });
    }
  }

  /**
   * Applies the results of noted calls in a user message; `toolUseResult` is Claude Code's
   * structured result, used when the message answers exactly one call.
   * @returns the new list when it changed, else undefined.
   */
  applyResults(content: ContentBlock[] | string, toolUseResult: unknown): Todo[] | undefined {
    if (typeof content === 'string' || this.calls.size === 0) return undefined;
    const results = content.filter(isToolResultBlock);
    let list: Todo[] | undefined;
    for (const block of results) {
      const call = this.calls.get(block.tool_use_id);
      if (call === undefined) continue;
      this.calls.delete(block.tool_use_id);
      if (block.is_error === true) continue;
      const recorded = results.length === 1 && isRecord(toolUseResult) ? toolUseResult : undefined;
      list = this.apply(call, recorded, resultText(block)) ?? list;
    }
    if (list === undefined) return undefined;
    const key = JSON.stringify(list);
    if (key === this.lastList) return undefined;
    this.lastList = key;
    return list;
  }

  private apply(call: Call, recorded: JsonRecord | undefined, resultText: string): Todo[] | undefined {
    const input = call.input ?? {};
    switch (call.name) {
      case TODO_WRITE:
        return todoListOf(Array.isArray(recorded?.newTodos) ? recorded.newTodos : input.todos);
      case TASK_CREATE:
        return this.create(input, recorded, resultText);
      case TASK_UPDATE:
        return this.update(input, recorded);
      case TASK_LIST:
        return this.list(recorded, resultText);
      case TASK_GET:
        return isRecord(recorded) && isRecord(recorded.task) ? this.upsert(recorded.task) : undefined;
      default:
        return undefined;
    }
  }

  private create(input: JsonRecord, recorded: JsonRecord | undefined, resultText: string): Todo[] | undefined {
    const subject = text(input.subject);
    if (subject === undefined) return undefined;
    if (isRecord(input.metadata) && input.metadata._internal !== undefined) return undefined;
    const id =
      taskId(isRecord(recorded?.task) ? recorded.task.id : undefined) ??
      /^Task #(\S+) created/.exec(resultText)?.[1] ??
      String(this.nextId());
    this.tasks.set(id, { content: subject, status: 'pending', activeForm: text(input.activeForm) ?? toActiveForm(subject) });
    return this.taskList();
  }

  private update(input: JsonRecord, recorded: JsonRecord | undefined): Todo[] | undefined {
    if (recorded?.success === false) return undefined;
    const id = taskId(input.taskId) ?? taskId(recorded?.taskId);
    if (id === undefined) return undefined;
    if (input.status === 'deleted') {
      return this.tasks.delete(id) ? this.taskList() : undefined;
    }
    const known = this.tasks.get(id);
    const subject = text(input.subject);
    if (known === undefined && subject === undefined) return undefined; // made before this session: nothing to show
    const item: Todo = known ? { ...known } : { content: subject!, status: 'pending', activeForm: toActiveForm(subject!) };
    if (subject !== undefined) item.content = subject;
    if (text(input.activeForm) !== undefined) item.activeForm = input.activeForm as string;
    else if (subject !== undefined && known === undefined) item.activeForm = toActiveForm(subject);
    if (typeof input.status === 'string' && STATUSES.has(input.status)) item.status = input.status as TodoStatus;
    this.tasks.set(id, item);
    return this.taskList();
  }

  /** `TaskList` reports every task: the list becomes exactly those (active forms kept where known). */
  private list(recorded: JsonRecord | undefined, resultText: string): Todo[] | undefined {
    let reported: Array<{ id: string; subject: string; status: TodoStatus }> | undefined;
    if (Array.isArray(recorded?.tasks)) {
      reported = [];
      for (const task of recorded.tasks) {
        const id = isRecord(task) ? taskId(task.id) : undefined;
        const subject = isRecord(task) ? text(task.subject) : undefined;
        if (id === undefined || subject === undefined || !isRecord(task) || typeof task.status !== 'string' || !STATUSES.has(task.status)) continue;
        reported.push({ id, subject, status: task.status as TodoStatus });
      }
    } else if (recorded === undefined && resultText.trim() === 'No tasks found') {
      reported = [];
    }
    if (reported === undefined) return undefined;
    const previous = new Map(this.tasks);
    this.tasks.clear();
    for (const { id, subject, status } of reported) {
      const known = previous.get(id);
      const activeForm = known && known.content === subject ? known.activeForm : toActiveForm(subject);
      this.tasks.set(id, { content: subject, status, activeForm });
    }
    return this.taskList();
  }

  private upsert(task: JsonRecord): Todo[] | undefined {
    const id = taskId(task.id);
    const subject = text(task.subject);
    if (id === undefined || subject === undefined || typeof task.status !== 'string' || !STATUSES.has(task.status)) return undefined;
    const known = this.tasks.get(id);
    this.tasks.set(id, {
      content: subject,
      status: task.status as TodoStatus,
      activeForm: text(task.activeForm) ?? (known && known.content === subject ? known.activeForm : toActiveForm(subject)),
    });
    return this.taskList();
  }

  private nextId(): number {
    let highest = 0;
    for (const id of this.tasks.keys()) if (/^\d+$/.test(id)) highest = Math.max(highest, Number(id));
    return highest + 1;
  }

  /** The tasks as a todo list: numeric ids in number order, others after them as they came. */
  private taskList(): Todo[] {
    const entries = [...this.tasks.entries()];
    const numeric = (id: string): number | undefined => (/^\d+$/.test(id) ? Number(id) : undefined);
    entries.sort(([a], [b]) => {
      const [x, y] = [numeric(a), numeric(b)];
      if (x === undefined || y === undefined) return x === y ? 0 : x === undefined ? 1 : -1;
      return x - y;
    });
    return entries.map(([, todo]) => ({ ...todo }));
  }
}
