import { describe, expect, it } from 'vitest';
import { createAgent, MAX_TODO_TEXT_CHARS, MAX_TODOS, ToolInputError, type Todo, type ToolResultBlock } from 'agent-harness';
import { scriptedModel, toolCall, turn } from 'agent-harness/testing';

const item = (content: string, status: Todo['status'] = 'pending'): Todo => ({ content, status, activeForm: `Doing ${content}` });

describe('TodoWrite and todo-update', () => {
  it('rejects invalid input with an error naming the field and leaves the list untouched', async () => {
    const model = scriptedModel([
      turn(toolCall('TodoWrite', { todos: [{ content: 'a', status: 'done', activeForm: 'A' }] }, 'bad')),
      'ok',
    ]);
    const agent = createAgent({ model });
    agent.setTodos([item('keep')]);
    const updates: unknown[] = [];
    agent.on('todo-update', (event) => updates.push(event));
    await agent.run('go').result;
    const result = (model.requests[1]!.messages.at(-1)!.content as ToolResultBlock[]).find((block) => block.tool_use_id === 'bad')!;
    expect(result.is_error).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/todos.0.?.status/);
    expect(agent.todos).toEqual([item('keep')]);
    expect(updates).toHaveLength(0);
  });

  it(`a list of more than ${MAX_TODOS} items, or an item over ${MAX_TODO_TEXT_CHARS} characters, is refused with an error the model can act on; the limits themselves are accepted`, async () => {
    const many = (count: number) => Array.from({ length: count }, (_, index) => item(`step ${index}`));
    const long = 'x'.repeat(MAX_TODO_TEXT_CHARS);
    const model = scriptedModel([
      turn(toolCall('TodoWrite', { todos: many(MAX_TODOS + 1) }, 'too-many')),
      turn(toolCall('TodoWrite', { todos: [item(`${long}y`)] }, 'too-long')),
      turn(toolCall('TodoWrite', { todos: [{ content: 'a', status: 'pending', activeForm: `${long}y` }] }, 'form-too-long')),
      turn(toolCall('TodoWrite', { todos: [...many(MAX_TODOS - 1), { content: long, status: 'pending', activeForm: long }] }, 'at-limits')),
      'ok',
    ]);
    const agent = createAgent({ model });
    agent.setTodos([item('keep')]);
    const updates: Array<{ todos: Todo[] }> = [];
    agent.on('todo-update', (event) => updates.push(event as never));
    expect((await agent.run('go').result).status).toBe('completed');
    const results = model.requests.slice(1).map((request) => (request.messages.at(-1)!.content as ToolResultBlock[])[0]!);
    expect(results[0]!.is_error).toBe(true);
    expect(JSON.stringify(results[0]!.content)).toContain(`at most ${MAX_TODOS} items: group the steps into fewer, larger ones`);
    expect(results[1]!.is_error).toBe(true);
    expect(JSON.stringify(results[1]!.content)).toMatch(new RegExp(`todos.0.?.content.*at most ${MAX_TODO_TEXT_CHARS} characters`));
    expect(results[2]!.is_error).toBe(true);
    expect(JSON.stringify(results[2]!.content)).toMatch(/todos.0.?.activeForm/);
    expect(results[3]!.is_error).toBeFalsy();
    expect(updates).toHaveLength(1);
    expect(agent.todos).toHaveLength(MAX_TODOS);
    // The host's own list is held to the same limits, with an error naming the field.
    expect(() => agent.setTodos(many(MAX_TODOS + 1))).toThrow(ToolInputError);
    expect(() => agent.setTodos([item(`${long}y`)])).toThrow(/todos\[0\]\.content/);
    expect(agent.todos).toHaveLength(MAX_TODOS);
  });

  it('accepts an empty list, duplicates and two in_progress, with correct changes', async () => {
    const model = scriptedModel([
      turn(toolCall('TodoWrite', { todos: [item('x', 'in_progress'), item('x', 'in_progress'), item('y')] })),
      turn(toolCall('TodoWrite', { todos: [item('x', 'completed'), item('x', 'in_progress')] })),
      turn(toolCall('TodoWrite', { todos: [] })),
      'ok',
    ]);
    const agent = createAgent({ model });
    const events: Array<{ todos: Todo[]; changes: { added: Todo[]; removed: Todo[]; statusChanges: unknown[]; changed: boolean } }> = [];
    agent.on('todo-update', (event) => events.push(event as never));
    await agent.run('go').result;
    expect(events).toHaveLength(3);
    expect(events[0]!.changes.added).toHaveLength(3);
    expect(events[1]!.changes.removed).toEqual([item('y')]);
    expect(events[1]!.changes.statusChanges).toEqual([{ todo: item('x', 'completed'), from: 'in_progress', to: 'completed' }]);
    expect(events[2]!.todos).toEqual([]);
    expect(events[2]!.changes.removed).toHaveLength(2);
    expect(agent.todos).toEqual([]);
  });

  it("a listener mutating the event's list does not change the agent's list (single source of truth)", () => {
    const agent = createAgent({ model: scriptedModel([]) });
    agent.on('todo-update', (event) => {
      (event.todos as Todo[])[0]!.status = 'completed';
      (event.todos as Todo[]).push(item('injected'));
    });
    agent.setTodos([item('a')]);
    expect(agent.todos).toEqual([item('a')]); // actual: [a(completed), injected] — event.todos is the live state array
  });
});
