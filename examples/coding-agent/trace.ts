/**
 * A readable terminal trace of an agent: streamed text, one line per tool call and per result,
 * mode changes, the plan card and the todo list.
 */
import type { Agent, Todo } from 'agent-harness';

/** Writes streamed text and whole lines without gluing a line to the end of streamed text. */
export interface Printer {
  /** Streamed text, as it comes. */
  write(text: string): void;
  /** A line of its own. */
  line(text?: string): void;
}

/** A printer over a writable stream (stdout). */
export function createPrinter(out: NodeJS.WritableStream): Printer {
  let atLineStart = true;
  return {
    write(text) {
      if (text === '') return;
      out.write(text);
      atLineStart = text.endsWith('\n');
    },
    line(text = '') {
      out.write(`${atLineStart ? '' : '\n'}${text}\n`);
      atLineStart = true;
    },
  };
}

const WIDTH = 76;

function wrap(line: string, width: number): string[] {
  if (line.length <= width) return [line];
  const lines: string[] = [];
  let current = '';
  for (const word of line.split(' ')) {
    if (current !== '' && current.length + 1 + word.length > width) {
      lines.push(current);
      current = `  ${word}`;
    } else {
      current = current === '' ? word : `${current} ${word}`;
    }
  }
  if (current !== '') lines.push(current);
  return lines;
}

/** Prints a plan as a card. */
export function printPlanCard(print: Printer, plan: string, title = 'Plan'): void {
  print.line(`┌─ ${title} ${'─'.repeat(Math.max(0, WIDTH - title.length - 1))}`);
  for (const line of plan.split('\n')) for (const part of wrap(line, WIDTH)) print.line(`│ ${part}`);
  print.line(`└${'─'.repeat(WIDTH + 2)}`);
}

/** Prints the todo list: `[x]` done, `[>]` in progress (with its active form), `[ ]` pending. */
export function printTodos(print: Printer, todos: readonly Todo[]): void {
  const done = todos.filter((todo) => todo.status === 'completed').length;
  print.line(`  Todos (${done}/${todos.length} done)`);
  for (const todo of todos) {
    if (todo.status === 'completed') print.line(`    [x] ${todo.content}`);
    else if (todo.status === 'in_progress') print.line(`    [>] ${todo.activeForm}…`);
    else print.line(`    [ ] ${todo.content}`);
  }
}

const lineCount = (text: unknown) => (typeof text === 'string' ? text.split('\n').length : 0);

/** One line saying what a tool call does. */
export function describeCall(toolName: string, input: unknown): string {
  const fields = (input ?? {}) as Record<string, unknown>;
  const where = typeof fields.path === 'string' ? ` in ${fields.path}` : '';
  switch (toolName) {
    case 'Read':
    case 'Write':
      return `${toolName} ${String(fields.file_path)}${toolName === 'Write' ? ` (${lineCount(fields.content)} lines)` : ''}`;
    case 'Edit':
      return `Edit ${String(fields.file_path)} (${lineCount(fields.old_string)} → ${lineCount(fields.new_string)} lines)`;
    case 'Glob':
      return `Glob ${String(fields.pattern)}${where}`;
    case 'Grep':
      return `Grep /${String(fields.pattern)}/${where}`;
    case 'Bash':
      return `Bash $ ${String(fields.command)}`;
    case 'TodoWrite':
      return `TodoWrite (${Array.isArray(fields.todos) ? fields.todos.length : 0} items)`;
    case 'ExitPlanMode':
      return 'ExitPlanMode (presents the plan for approval)';
    default:
      return `${toolName} ${JSON.stringify(input).slice(0, 100)}`;
  }
}

function oneLine(text: string, max = 110): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** One line summing up a successful tool result. */
export function describeResult(toolName: string, content: string): string {
  const lines = content.trimEnd() === '' ? [] : content.trimEnd().split('\n');
  switch (toolName) {
    case 'Read':
      return `${lines.length} lines`;
    case 'Glob':
      return `${lines.length} files: ${oneLine(lines.join(', '), 80)}`;
    case 'Grep':
      return `${lines.length} matches: ${oneLine(lines.join(' | '), 80)}`;
    case 'Bash': {
      const pass = /^# pass (\d+)$/m.exec(content)?.[1];
      const fail = /^# fail (\d+)$/m.exec(content)?.[1];
      if (pass !== undefined) return `tests: ${pass} passed, ${fail ?? 0} failed`;
      return oneLine(lines.at(-1) ?? '(no output)');
    }
    default:
      return oneLine(lines[0] ?? '');
  }
}

/** Prints the agent's events as they happen (every run of the agent). */
export function attachTrace(agent: Agent, print: Printer): void {
  agent.on('text-delta', (event) => print.write(event.text));
  // Printed text cannot be taken back: say that the turn's text so far is void.
  agent.on('stream-retry', (event) => print.line(`↻ the stream broke (${event.error.message}); the turn starts over, retry ${event.retry} of ${event.maxRetries}: disregard its text above`));
  // Results of parallel calls come back in any order: each result line names its call.
  const calls = new Map<string, string>();
  agent.on('tool-call', (event) => {
    const description = describeCall(event.toolName, event.input);
    calls.set(event.toolUseId, description);
    print.line(`→ ${description}`);
  });
  agent.on('tool-result', (event) => {
    const call = calls.get(event.toolUseId) ?? event.toolName;
    calls.delete(event.toolUseId);
    const content = typeof event.content === 'string' ? event.content : JSON.stringify(event.content);
    if (event.isError) print.line(`  ✗ ${call.split(' (')[0]}: ${oneLine(content)}`);
    // The todo list and the approved plan print themselves.
    else if (event.toolName !== 'TodoWrite' && event.toolName !== 'ExitPlanMode') print.line(`  ✓ ${call.split(' (')[0]}: ${describeResult(event.toolName, content)}`);
  });
  agent.on('mode-change', (event) => print.line(`⇄ mode: ${event.from} → ${event.to} (${event.reason})`));
  agent.on('plan-approved', (event) => print.line(`✓ plan approved, saved as ${event.name ?? '(unnamed)'}`));
  agent.on('todo-update', (event) => printTodos(print, event.todos));
  agent.on('error', (event) => print.line(`! ${event.error.message}`));
}
