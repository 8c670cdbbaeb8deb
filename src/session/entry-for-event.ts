import type { AgentEvent } from '../events/agent-event.js';
import type { EntryDraft } from './journal.js';

/** The transcript entry that records an event, for events that change what a resume sees. */
export function entryForEvent(event: AgentEvent): EntryDraft | undefined {
  switch (event.type) {
    case 'tool-result':
      return {
        kind: 'tool-result',
        toolUseId: event.toolUseId,
        toolName: event.toolName,
        result: { type: 'tool_result', tool_use_id: event.toolUseId, content: event.content as never, ...(event.isError ? { is_error: true } : {}) },
      };
    case 'permission-decision': {
      const { type: _type, sessionId: _sessionId, agentId: _agentId, ...decision } = event;
      return { kind: 'permission-decision', decision };
    }
    case 'todo-update':
      return { kind: 'todo-update', todos: event.todos };
    case 'run-start':
      return { kind: 'run-start', runId: event.runId };
    case 'run-end':
      return { kind: 'run-end', runId: event.result.runId, status: event.result.status, usage: event.result.usage };
    default:
      return undefined;
  }
}
