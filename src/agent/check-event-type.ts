import { ConfigurationError } from '../errors/configuration-error.js';
import { AGENT_EVENT_TYPES, isAgentEventType } from '../events/agent-event-types.js';
import type { AgentEventType } from '../events/agent-event.js';
import { describeOptionValue, nearestName } from '../options/index.js';

/**
 * Refuses an event type no agent event has, so `agent.on('tool_call', …)` (meant: `tool-call`)
 * fails where it is written instead of waiting for ever on events that never come.
 * @throws ConfigurationError naming the value, the likely intended type and the valid ones; or
 *   when the listener is not a function.
 */
export function checkEventType(method: 'on' | 'once' | 'off', type: unknown, listener: unknown): asserts type is AgentEventType {
  if (isAgentEventType(type)) {
    if (typeof listener === 'function') return;
    throw new ConfigurationError(`agent.${method}('${type}', listener): the listener must be a function, got ${describeOptionValue(listener)}.`);
  }
  const nearest = typeof type === 'string' ? nearestName(type, AGENT_EVENT_TYPES) : undefined;
  const hint = nearest === undefined ? '' : ` Did you mean '${nearest}'?`;
  throw new ConfigurationError(
    `agent.${method}(type, …) got ${describeOptionValue(type)}: no agent event has that type, so the listener would never be called.${hint} ` +
      `The event types are the \`type\` values of AgentEvent: ${AGENT_EVENT_TYPES.join(', ')}.`,
  );
}
