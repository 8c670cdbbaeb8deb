import type { AgentCore } from '../agent/agent-core.js';
import type { ModelRequest } from '../model/model.js';

/**
 * Builds the request of one turn. System and tools are the same objects every turn (the
 * byte-identical prefix); the history is passed by reference, never copied.
 */
export function prepareRequest(core: AgentCore, signal: AbortSignal): ModelRequest {
  return { system: core.system, tools: core.toolDefinitions, messages: core.messages, signal };
}
