import type { Todo, TodoChanges, TodoStatusChange } from '../types/todo.js';
import { argumentError, isArrayOf, isObjectValue } from '../errors/argument-error.js';

export type { TodoChanges, TodoStatusChange };


/**
 * Compares two todo lists. Items are matched by `content` (the same text twice matches in order),
 * so a reworded item counts as one removed and one added.
 * @example diffTodos(previous, next).statusChanges.filter((change) => change.to === 'completed')
 */
export function diffTodos(previous: readonly Todo[], next: readonly Todo[]): TodoChanges {
  if (!isArrayOf(previous, isObjectValue)) throw argumentError('diffTodos', 'previous', 'an array of todos', previous);
  if (!isArrayOf(next, isObjectValue)) throw argumentError('diffTodos', 'next', 'an array of todos', next);
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
