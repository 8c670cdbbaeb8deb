import type { Todo, TodoStatus } from './types.js';

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

/**
 * Compares two todo lists. Items are matched by `content` (the same text twice matches in order),
 * so a reworded item counts as one removed and one added.
 * @example diffTodos(previous, next).statusChanges.filter((change) => change.to === 'completed')
 */
export function diffTodos(previous: readonly Todo[], next: readonly Todo[]): TodoChanges {
  // Indices of old items not matched yet, by content.
  const unmatched = new Map<string, number[]>();
  previous.forEach((todo, index) => {
    const queue = unmatched.get(todo.content);
    if (queue) queue.push(index);
    else unmatched.set(todo.content, [index]);
  });
  const matched = new Set<number>();
  const added: Todo[] = [];
  const statusChanges: TodoStatusChange[] = [];
  for (const todo of next) {
    const index = unmatched.get(todo.content)?.shift();
    if (index === undefined) {
      added.push(todo);
      continue;
    }
    matched.add(index);
    const match = previous[index] as Todo;
    if (match.status !== todo.status) statusChanges.push({ todo, from: match.status, to: todo.status });
  }
  const removed = previous.filter((_, index) => !matched.has(index));
  const changed =
    previous.length !== next.length ||
    previous.some((todo, index) => {
      const other = next[index] as Todo;
      return todo.content !== other.content || todo.status !== other.status || todo.activeForm !== other.activeForm;
    });
  return { added, removed, statusChanges, changed };
}
