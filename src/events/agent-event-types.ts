import type { AgentEventType } from './agent-event.js';
import { ownValue } from '../model/own-value.js';

/**
 * Every `type` an agent's events can have, one entry per member of `AgentEvent` (the `Record`
 * makes the compiler refuse a missing or unknown name).
 */
const EVENT_TYPES: Record<AgentEventType, true> = {
  'run-start': true,
  'turn-start': true,
  'text-delta': true,
  'thinking-delta': true,
  'stream-retry': true,
  'tool-call': true,
  'tool-result': true,
  'permission-request': true,
  'permission-decision': true,
  'permission-update': true,
  'mode-change': true,
  'plan-approval-request': true,
  'plan-approved': true,
  'plan-rejected': true,
  'user-question': true,
  'todo-update': true,
  'turn-end': true,
  'context-usage': true,
  'tool-results-cleared': true,
  'compaction-start': true,
  'compaction-end': true,
  error: true,
  warning: true,
  'mcp-server-status': true,
  'subagent-start': true,
  'subagent-end': true,
  'background-task-end': true,
  'plan-verification': true,
  'run-end': true,
};

/** The `type` strings of `AgentEvent`, in the order the union lists them. */
export const AGENT_EVENT_TYPES: readonly AgentEventType[] = Object.freeze(Object.keys(EVENT_TYPES) as AgentEventType[]);

/** Whether `value` is the `type` of some `AgentEvent`. */
export function isAgentEventType(value: unknown): value is AgentEventType {
  return typeof value === 'string' && ownValue(EVENT_TYPES, value) === true;
}
