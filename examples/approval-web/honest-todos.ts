/**
 * A `PreToolUse` hook that keeps the todo list honest: a `TodoWrite` that marks an item completed
 * right after a tool call failed (a write that was refused, an edit that did not apply) is denied,
 * and the model is told to fix the problem or say it could not be done. The check is deliberately
 * simple — the last tool result before the call — which is enough for a list that the model
 * updates after each step.
 */
import type { HookEntry, Message, Todo, ToolResultBlock, ToolUseBlock } from 'agent-harness';

/** The agent as the hook needs it. */
export interface TodoGuardTarget {
  readonly messages: readonly Message[];
  readonly todos: readonly Todo[];
}

/** The last result of a tool other than TodoWrite in the conversation, with the call it answers. */
function lastToolOutcome(messages: readonly Message[]): { toolName: string; result: ToolResultBlock } | undefined {
  const names = new Map<string, string>();
  let last: { toolName: string; result: ToolResultBlock } | undefined;
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const block of message.content) {
      if (block.type === 'tool_use') names.set((block as ToolUseBlock).id, (block as ToolUseBlock).name);
      if (block.type !== 'tool_result') continue;
      const result = block as ToolResultBlock;
      const toolName = names.get(result.tool_use_id) ?? 'unknown';
      if (toolName !== 'TodoWrite') last = { toolName, result };
    }
  }
  return last;
}

function firstLine(result: ToolResultBlock): string {
  const text = typeof result.content === 'string' ? result.content : result.content.map((block) => ('text' in block ? block.text : '')).join(' ');
  return text.split('\n')[0]!.slice(0, 200);
}

/** The hook entry, for `hooks: { PreToolUse: [honestTodos(() => agent)] }`. */
export function honestTodos(target: () => TodoGuardTarget | undefined): HookEntry<'PreToolUse'> {
  return {
    matcher: '^TodoWrite$',
    hook: ({ toolInput }) => {
      const agent = target();
      if (!agent) return {};
      const wanted = ((toolInput as { todos?: Todo[] }).todos ?? []).filter((todo) => todo.status === 'completed');
      const alreadyDone = new Set(agent.todos.filter((todo) => todo.status === 'completed').map((todo) => todo.content));
      const newlyDone = wanted.filter((todo) => !alreadyDone.has(todo.content));
      const last = lastToolOutcome(agent.messages);
      if (newlyDone.length === 0 || !last?.result.is_error) return {};
      return {
        decision: 'deny',
        reason: `Not updated: "${newlyDone[0]!.content}" cannot be marked completed, because the last ${last.toolName} call failed (${firstLine(last.result)}). Fix the problem and try again, or leave the item open and tell the user it could not be done.`,
      };
    },
  };
}
