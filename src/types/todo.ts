/** The most items a todo list holds (`TodoWrite`, `setTodos`): the list is stored, and sent to the host and the model whole with every change. */
export const MAX_TODOS = 500;

/** The most characters of one todo item's `content` or `activeForm`. */
export const MAX_TODO_TEXT_CHARS = 2000;

/** The status of one todo item. */
export type TodoStatus = 'pending' | 'in_progress' | 'completed';

/** One item of the agent's todo list (the shape Claude Code's `TodoWrite` uses). */
export interface Todo {
  /** What is to be done, imperative: "Draft the introduction". */
  content: string;
  status: TodoStatus;
  /** Present continuous, shown while in progress: "Drafting the introduction". */
  activeForm: string;
}

/** A todo whose status changed. */
export interface TodoStatusChange {
  /** The item as it is now. */
  todo: Todo;
  from: TodoStatus;
  to: TodoStatus;
}

/** What changed between two todo lists, for the `todo-update` event. */
export interface TodoChanges {
  /** Items in the new list that were not in the old one (matched by `content`). */
  added: Todo[];
  /** Items of the old list that are gone. */
  removed: Todo[];
  /** Items present in both whose status differs, in the new list's order. */
  statusChanges: TodoStatusChange[];
  /** Whether the lists differ at all (also by order or `activeForm`). */
  changed: boolean;
}
