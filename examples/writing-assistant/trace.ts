import type { AgentEvent, Todo } from 'agent-harness';

/** One line per tool call and result, text as it streams, the todo list as it ticks over. */
export function trace(event: AgentEvent, write: (text: string) => void = (text) => process.stdout.write(text)): void {
  switch (event.type) {
    case 'text-delta':
      write(event.text);
      break;
    case 'stream-retry':
      // Printed text cannot be taken back: say that the turn's text so far is void.
      write(`\n  ↻ the stream broke (${event.error.message}); the turn starts over, retry ${event.retry} of ${event.maxRetries}: disregard its text above\n`);
      break;
    case 'tool-call':
      write(`\n  → ${event.toolName} ${JSON.stringify(event.input).slice(0, 100)}\n`);
      break;
    case 'tool-result': {
      const text = typeof event.content === 'string' ? event.content : event.content.map((block) => ('text' in block ? block.text : `[${block.type}]`)).join(' ');
      write(`  ${event.isError ? '✗' : '←'} ${event.toolName}: ${text.replace(/\s+/g, ' ').slice(0, 110)}\n`);
      break;
    }
    case 'todo-update':
      write(todoList(event.todos));
      break;
    case 'error':
      write(`\n  ! ${event.error.message}\n`);
      break;
    case 'warning':
      // What the agent noticed and worked around (a refused image, a compaction that did not
      // help, a system prompt that changed and busts the prompt cache): worth a line.
      write(`\n  ⚠ ${event.source}: ${event.message}\n`);
      break;
    default:
      break;
  }
}

/** The todo list with a progress count. */
export function todoList(todos: readonly Todo[]): string {
  const done = todos.filter((todo) => todo.status === 'completed').length;
  const lines = todos.map((todo) => {
    const mark = todo.status === 'completed' ? '[x]' : todo.status === 'in_progress' ? '[>]' : '[ ]';
    return `     ${mark} ${todo.status === 'in_progress' ? todo.activeForm : todo.content}`;
  });
  return `  todos ${done}/${todos.length}\n${lines.join('\n')}\n`;
}
