import type { AgentCore } from '../runtime/agent-core.js';
import type { ModelRequest } from '../model/model.js';

/**
 * Builds the request of one turn. System and tools are the same objects every turn (the
 * byte-identical prefix); the history is passed by reference, never copied. The first request
 * of a session records the prefix in the session state.
 */
export function prepareRequest(core: AgentCore, signal: AbortSignal, outputSchema?: Record<string, unknown>): ModelRequest {
  if (core.state.prefix === undefined) {
    core.commit({ kind: 'prefix', prefix: { system: core.system, toolNames: core.toolDefinitions.map((tool) => tool.name) } });
  }
  return {
    system: core.system,
    tools: core.toolDefinitions,
    messages: core.state.messages,
    signal,
    ...(outputSchema ? { outputFormat: { type: 'json_schema' as const, schema: outputSchema } } : {}),
  };
}
